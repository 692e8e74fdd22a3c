/**
 * The MCP tools: the six the published interface names (docs/fixed-names.json) and ours beyond it
 * (service_market_get_changes, _get_product, _get_availability). Each calls the same tRPC procedure as its REST
 * path, through a server-side caller, so scopes, credits, errors and payloads are the REST ones.
 */
import { z } from "zod";
import { describeOperation, OPERATIONS, type Operation } from "../domain/operations";
import type { createCaller } from "../procedures/root";
import {
  availabilitySchema,
  capaIndexSchema,
  changesInput,
  changesSchema,
  deltaInput,
  deltaSchema,
  geographiesSchema,
  marketsSchema,
  maxSchema,
  productInput,
  productSchema,
  releaseInput,
  servicemaxInput,
  snapshotSchema,
  whatifInput,
  whatifSchema,
} from "../procedures/schemas";
import {
  renderAvailability,
  renderCapabilityIndex,
  renderChanges,
  renderDelta,
  renderGeographies,
  renderMarkets,
  renderMax,
  renderProduct,
  renderSnapshot,
  renderWhatIf,
} from "./render";
import { snapshotHtml, snapshotResourceUri } from "./snapshot-html";

type Caller = ReturnType<typeof createCaller>;

export interface ToolDefinition {
  name: string;
  /** The operation it runs: its REST twin, scope and price. */
  operation: Operation;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodType;
  call(caller: Caller, input: never): Promise<unknown>;
  render(payload: never): string;
  /** Resources embedded in the result besides the text (the snapshot's HTML). */
  embed?(payload: never): EmbeddedResource[];
  /** Draws in the MCP Apps chart view, for hosts that render MCP Apps. */
  chart?: boolean;
}

export interface EmbeddedResource {
  type: "resource";
  resource: { uri: string; mimeType: string; text: string };
}

const tool = <I extends z.ZodObject, O extends z.ZodType>(definition: {
  name: string;
  operation: Operation;
  title: string;
  description: string;
  input: I;
  output: O;
  call(caller: Caller, input: z.output<I>): Promise<z.output<O>>;
  render(payload: z.output<O>): string;
  embed?(payload: z.output<O>): EmbeddedResource[];
  chart?: boolean;
}) => definition as unknown as ToolDefinition;

const emptyInput = releaseInput.pick({}).strict();

/**
 * The same schema without its OpenAPI component id: MCP wants an output schema whose root is the
 * object itself, not a `$ref` into `$defs`.
 */
const rootObject = <S extends z.ZodObject>(schema: S) => z.object(schema.shape) as unknown as S;

export const TOOLS: ToolDefinition[] = [
  tool({
    name: "service_geographies_list",
    operation: OPERATIONS.geographiesList,
    title: OPERATIONS.geographiesList.summary,
    description: describeOperation(OPERATIONS.geographiesList),
    input: emptyInput,
    output: rootObject(geographiesSchema),
    call: (caller) => caller.geographies.list({}),
    render: renderGeographies,
  }),
  tool({
    name: "service_markets_list",
    operation: OPERATIONS.marketsList,
    title: OPERATIONS.marketsList.summary,
    description: describeOperation(OPERATIONS.marketsList),
    input: emptyInput,
    output: rootObject(marketsSchema),
    call: (caller) => caller.markets.list({}),
    render: renderMarkets,
  }),
  tool({
    name: "service_market_get_snapshot",
    operation: OPERATIONS.snapshot,
    title: OPERATIONS.snapshot.summary,
    description: describeOperation(
      OPERATIONS.snapshot,
      "Also returns the snapshot as a readable HTML table (resource ui://service/snapshot/{marketId}).",
    ),
    input: releaseInput,
    output: rootObject(snapshotSchema),
    call: (caller, input) => caller.readings.snapshot(input),
    render: renderSnapshot,
    embed: (snapshot) => [
      {
        type: "resource",
        resource: { uri: snapshotResourceUri(snapshot.marketId), mimeType: "text/html", text: snapshotHtml(snapshot) },
      },
    ],
  }),
  tool({
    name: "service_market_get_delta",
    operation: OPERATIONS.delta,
    title: "Delta under a country's controls",
    description: describeOperation(OPERATIONS.delta),
    input: deltaInput,
    output: rootObject(deltaSchema),
    call: (caller, input) => caller.readings.delta(input),
    chart: true,
    render: renderDelta,
  }),
  tool({
    name: "service_market_get_servicemax",
    operation: OPERATIONS.servicemax,
    title: "Max reading under a country's controls",
    description: describeOperation(OPERATIONS.servicemax),
    input: servicemaxInput,
    output: rootObject(maxSchema),
    call: (caller, input) => caller.readings.servicemax(input),
    chart: true,
    render: renderMax,
  }),
  tool({
    name: "service_market_get_capaindex",
    operation: OPERATIONS.capaindex,
    title: OPERATIONS.capaindex.summary,
    description: describeOperation(OPERATIONS.capaindex),
    input: releaseInput,
    output: rootObject(capaIndexSchema),
    call: (caller, input) => caller.readings.capaindex(input),
    chart: true,
    render: renderCapabilityIndex,
  }),
  tool({
    name: "service_market_get_changes",
    operation: OPERATIONS.changes,
    title: OPERATIONS.changes.summary,
    description: describeOperation(OPERATIONS.changes),
    input: changesInput,
    output: rootObject(changesSchema),
    call: (caller, input) => caller.readings.changes(input),
    render: renderChanges,
  }),
  tool({
    name: "service_market_get_product",
    operation: OPERATIONS.product,
    title: OPERATIONS.product.summary,
    description: describeOperation(OPERATIONS.product),
    input: productInput,
    output: rootObject(productSchema),
    call: (caller, input) => caller.readings.product(input),
    render: renderProduct,
  }),
  tool({
    name: "service_market_get_availability",
    operation: OPERATIONS.availability,
    title: OPERATIONS.availability.summary,
    description: describeOperation(OPERATIONS.availability),
    input: releaseInput,
    output: rootObject(availabilitySchema),
    call: (caller, input) => caller.readings.availability(input),
    render: renderAvailability,
  }),
  tool({
    name: "service_market_whatif",
    operation: OPERATIONS.whatif,
    title: OPERATIONS.whatif.summary,
    description: describeOperation(OPERATIONS.whatif),
    input: whatifInput,
    output: rootObject(whatifSchema),
    call: (caller, input) => caller.readings.whatif(input),
    render: renderWhatIf,
  }),
];
