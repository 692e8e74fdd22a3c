/**
 * The six MCP tools (names fixed by the spec). Each calls the same tRPC procedure as its REST
 * path, through a server-side caller, so scopes, credits, errors and payloads are the REST ones.
 */
import { z } from "zod";
import type { createCaller } from "../api/root";
import {
  capaIndexSchema,
  deltaInput,
  deltaSchema,
  geographiesSchema,
  marketsSchema,
  maxSchema,
  releaseInput,
  servicemaxInput,
  snapshotSchema,
} from "../api/schemas";
import {
  renderCapabilityIndex,
  renderDelta,
  renderGeographies,
  renderMarkets,
  renderMax,
  renderSnapshot,
} from "./render";
import { snapshotHtml, snapshotResourceUri } from "./snapshot-html";

type Caller = ReturnType<typeof createCaller>;

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodType;
  /** The REST path it mirrors, for docs and tests. */
  rest: string;
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
  title: string;
  description: string;
  input: I;
  output: O;
  rest: string;
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
    title: "List geographies",
    description:
      "Lists every country a reading can engage (ISO 3166-1 alpha-2 code and name) with the sovereign controls each one requires and the public framework each control comes from. Use it to pick a valid `country` for the delta and max tools. Free.",
    input: emptyInput,
    output: rootObject(geographiesSchema),
    rest: "GET /v1/geographies",
    call: (caller) => caller.geographies.list({}),
    render: renderGeographies,
  }),
  tool({
    name: "service_markets_list",
    title: "List markets",
    description:
      "Lists the technology markets that are scored (for example foundation-model APIs, managed Kubernetes), each with its marketId slug, description, product count, latest release and last update. Start here to find a marketId. Free.",
    input: emptyInput,
    output: rootObject(marketsSchema),
    rest: "GET /v1/markets",
    call: (caller) => caller.markets.list({}),
    render: renderMarkets,
  }),
  tool({
    name: "service_market_get_snapshot",
    title: "Market snapshot",
    description:
      "Every product of one market with its published Innovation, Control and Scale scores (0–100) and band per axis, the band cutoffs of each dimension, and the market's methodology text, to be quoted verbatim. No country is involved. Also returns the snapshot as a readable HTML table (resource ui://service/snapshot/{marketId}). Costs 5 credits.",
    input: releaseInput,
    output: rootObject(snapshotSchema),
    rest: "GET /v1/markets/{marketId}/snapshot",
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
    title: "Delta under a country's controls",
    description:
      "For one market and one country, each product's published scores, its scores with that country's sovereign controls engaged, and the distance between them: what each product keeps and loses. `country` defaults to the organization's home country; `view` (map or bars) only picks which chart opens first. Costs 3 credits.",
    input: deltaInput,
    output: rootObject(deltaSchema),
    rest: "GET /v1/markets/{marketId}/delta",
    call: (caller, input) => caller.readings.delta(input),
    chart: true,
    render: renderDelta,
  }),
  tool({
    name: "service_market_get_servicemax",
    title: "Max reading under a country's controls",
    description:
      "For one market and one country, products ranked by the Innovation they retain with every sovereign control engaged, each with its scores off (published) and on (under controls) and the distance; unavailable products list the controls they miss. `country` defaults to the organization's home country. Costs 3 credits.",
    input: servicemaxInput,
    output: rootObject(maxSchema),
    rest: "GET /v1/markets/{marketId}/servicemax",
    call: (caller, input) => caller.readings.servicemax(input),
    chart: true,
    render: renderMax,
  }),
  tool({
    name: "service_market_get_capaindex",
    title: "Capability Index",
    description:
      "Products of one market ranked by published Innovation, with no control applied (competition ranking: 1, 2, 2, 4), with each product's band. Costs 2 credits.",
    input: releaseInput,
    output: rootObject(capaIndexSchema),
    rest: "GET /v1/markets/{marketId}/capaindex",
    call: (caller, input) => caller.readings.capaindex(input),
    chart: true,
    render: renderCapabilityIndex,
  }),
];
