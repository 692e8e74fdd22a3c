/**
 * The MCP tools, derived from the operations' declarations (server/7-procedures/operations/): every
 * declaration with a `tool` is one tool, named, described, priced and shaped by it. Each calls the
 * same tRPC procedure as its REST path, through a server-side caller, so scopes, credits, errors
 * and payloads are the REST ones.
 */
import { z } from "zod";
import { describeOperation, type Operation } from "../1-domain/operations";
import type { NarrowingSpec } from "../2-readings/narrowing";
import type { ApiContext } from "../7-procedures/context";
import { type AnyDeclaration, type EmbeddedResource, operationOf, toolOutputSchema } from "../7-procedures/declaration";
import { DECLARATIONS } from "../7-procedures/operations";
import { procedureAt } from "../7-routers/invoke";

export type { EmbeddedResource };

export interface ToolDefinition {
  name: string;
  /** The operation it runs: its REST twin, scope and price. */
  operation: Operation;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodType;
  /** Runs the tool's procedure for one call, with the call's context. */
  call(ctx: ApiContext, input: unknown): Promise<unknown>;
  render(payload: never): string;
  /** Resources embedded in the result besides the text (the snapshot's HTML), given the tool's arguments. */
  embed?(payload: never, args: Record<string, unknown>): EmbeddedResource[];
  /** Draws in the MCP Apps chart view, for hosts that render MCP Apps. */
  chart?: boolean;
  /** A reading of every product: its result is fitted to the token budget (budget.ts). */
  narrowing?: NarrowingSpec;
  /** For an argument it does not take, the tool to call instead (declaration `tool.instead`). */
  instead?: Record<string, string>;
  /** What to ask instead when its answer is over the token budget (declaration `tool.overBudget`). */
  overBudget?: string;
}

/**
 * The same schema without its OpenAPI component id: MCP wants an output schema whose root is the
 * object itself, not a `$ref` into `$defs`.
 */
const rootObject = (schema: z.ZodType) =>
  schema instanceof z.ZodObject ? (z.object(schema.shape) as z.ZodType) : schema;

/**
 * The tool's arguments: the operation's input with the tool's own defaults (declaration
 * `tool.defaults`), and no argument it does not know. REST ignores unknown query parameters (a
 * URL may carry a tracker's); an agent's unknown argument is a mistake it must hear of, or it
 * reads the published Capability Index as if it were the one under the country it passed: the
 * error names the tool that takes it (`unknownArguments`). Its input schema says
 * `additionalProperties: false`.
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
  return (Object.keys(overrides).length ? input.extend(overrides) : input).strict();
}

/** The procedure of a declaration, `<group>.<name>`, called as itself. */
const procedureCall = (declaration: AnyDeclaration) => procedureAt(`${declaration.group}.${declaration.name}`);

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
      ...(tool.instead ? { instead: tool.instead } : {}),
      ...(tool.overBudget ? { overBudget: tool.overBudget } : {}),
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

/** An argument's name as an error repeats it: a caller's text, cut short and quoted when odd. */
const argumentName = (name: string) => {
  const cut = name.length > 64 ? `${name.slice(0, 64)}…` : name;
  return /^[A-Za-z][A-Za-z0-9_]*$/.test(cut) ? cut : JSON.stringify(cut);
};

/** At most this many tools are named as taking an argument; the rest are counted. */
const TAKERS_NAMED = 3;

/** Which other tool takes `name`: the one the tool declares for it, else every tool that takes it. */
function takersOf(definition: ToolDefinition, name: string): string {
  const declared = definition.instead?.[name];
  const takers = declared
    ? [declared]
    : TOOLS.filter((tool) => tool !== definition && Object.hasOwn(tool.input.shape, name)).map((tool) => tool.name);
  if (takers.length === 0) return "no tool takes it";
  if (takers.length === 1) return `${takers[0]} takes it`;
  const named = takers.slice(0, TAKERS_NAMED).join(", ");
  const more = takers.length - TAKERS_NAMED;
  return `${named}${more > 0 ? ` and ${more} more` : ""} take it`;
}

/**
 * The arguments a call gave that its tool does not take, each an issue naming it and the tool
 * that takes it ("country is not an argument of service_market_get_capaindex;
 * service_market_get_servicemax takes it"); none when every argument is known.
 */
export function unknownArguments(definition: ToolDefinition, given: unknown): { path: string; message: string }[] {
  if (given === null || typeof given !== "object" || Array.isArray(given)) return [];
  return Object.keys(given)
    .filter((name) => !Object.hasOwn(definition.input.shape, name))
    .slice(0, 10)
    .map((name) => ({
      path: name.length > 64 ? `${name.slice(0, 64)}…` : name,
      message: `${argumentName(name)} is not an argument of ${definition.name}; ${takersOf(definition, name)}`,
    }));
}

/** "It takes marketId, release, …": what a tool does take, said after its unknown arguments. */
export const argumentsTaken = (definition: ToolDefinition) => {
  const names = Object.keys(definition.input.shape);
  return names.length ? `${definition.name} takes ${names.join(", ")}.` : `${definition.name} takes no arguments.`;
};
