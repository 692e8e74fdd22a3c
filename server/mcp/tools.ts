/**
 * The MCP tools, derived from the operations' declarations (server/procedures/operations/): every
 * declaration with a `tool` is one tool, named, described, priced and shaped by it. Each calls the
 * same tRPC procedure as its REST path, through a server-side caller, so scopes, credits, errors
 * and payloads are the REST ones.
 */
import { z } from "zod";
import { describeOperation, type Operation } from "../domain/operations";
import { type AnyDeclaration, type EmbeddedResource, operationOf, toolOutputSchema } from "../procedures/declaration";
import { DECLARATIONS } from "../procedures/operations";
import type { createCaller } from "../procedures/root";
import type { NarrowingSpec } from "../readings/narrowing";

type Caller = ReturnType<typeof createCaller>;

export type { EmbeddedResource };

export interface ToolDefinition {
  name: string;
  /** The operation it runs: its REST twin, scope and price. */
  operation: Operation;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodType;
  call(caller: Caller, input: unknown): Promise<unknown>;
  render(payload: never): string;
  /** Resources embedded in the result besides the text (the snapshot's HTML), given the tool's arguments. */
  embed?(payload: never, args: Record<string, unknown>): EmbeddedResource[];
  /** Draws in the MCP Apps chart view, for hosts that render MCP Apps. */
  chart?: boolean;
  /** A reading of every product: its result is fitted to the token budget (budget.ts). */
  narrowing?: NarrowingSpec;
}

/**
 * The same schema without its OpenAPI component id: MCP wants an output schema whose root is the
 * object itself, not a `$ref` into `$defs`.
 */
const rootObject = (schema: z.ZodType) =>
  schema instanceof z.ZodObject ? (z.object(schema.shape) as z.ZodType) : schema;

/**
 * The tool's arguments: the operation's input with the tool's own defaults (declaration
 * `tool.defaults`); a tool takes no argument it does not know when it takes none at all (REST
 * ignores unknown query parameters).
 */
function toolInput(input: z.ZodObject, defaults: Record<string, unknown> = {}): z.ZodObject {
  if (Object.keys(input.shape).length === 0) return input.strict();
  const overrides = Object.fromEntries(
    Object.entries(defaults).map(([key, value]) => {
      const field = input.shape[key] as z.ZodType;
      const inner = field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : field;
      return [key, inner.default(value as never).meta({ ...z.globalRegistry.get(field), default: value })];
    }),
  );
  return Object.keys(overrides).length ? input.extend(overrides) : input;
}

/** The procedure of a declaration on a server-side caller: `caller.<group>.<name>`. */
const procedureCall = (declaration: AnyDeclaration) => (caller: Caller, input: unknown) => {
  const group = caller[declaration.group] as unknown as Record<string, unknown>;
  return (group[declaration.name] as (input: unknown) => Promise<unknown>)(input);
};

function toolOf(declaration: AnyDeclaration): ToolDefinition[] {
  const tool = declaration.tool;
  if (!tool) return [];
  const operation = operationOf(declaration);
  return [
    {
      name: tool.name,
      operation,
      title: tool.title ?? operation.summary,
      description: describeOperation(operation, tool.addendum),
      input: toolInput(declaration.input, tool.defaults),
      output: rootObject(toolOutputSchema(declaration)),
      call: procedureCall(declaration),
      render: tool.text as (payload: never) => string,
      ...(tool.embed
        ? { embed: tool.embed as (payload: never, args: Record<string, unknown>) => EmbeddedResource[] }
        : {}),
      ...(tool.chart ? { chart: true } : {}),
      ...("narrowing" in declaration && declaration.narrowing ? { narrowing: declaration.narrowing } : {}),
    },
  ];
}

export const TOOLS: ToolDefinition[] = DECLARATIONS.flatMap(toolOf);

/** The tool of a declaration (for the resources that run one, as the snapshot's HTML does). */
export const toolOfDeclaration = (declaration: AnyDeclaration): ToolDefinition => {
  const found = TOOLS.find((tool) => tool.name === declaration.tool?.name);
  if (!found) throw new Error(`${declaration.group}.${declaration.name} declares no tool`);
  return found;
};
