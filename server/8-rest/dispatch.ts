/**
 * /v1's routing to the procedures, done as trpc-to-openapi's Node handler does it but with its
 * per-request work done once: the route table, each route's input schema unwrapped and made to
 * coerce query strings, and the procedure called as itself (no caller proxy, no fake `Request`,
 * no error shape formatted only to be thrown away). trpc-to-openapi still writes the OpenAPI
 * document from the same metadata (./openapi.ts), and tests/unit/rest-dispatch.test.ts holds the
 * two to the same routes and inputs.
 *
 * The rules kept from trpc-to-openapi 3.3, so that no URL changes meaning:
 * - a route's path is matched case-insensitively, without a trailing slash, its `{param}`s taken
 *   as they appear in the path (not percent-decoded);
 * - a query parameter given once is a string, given more than once an array; one named in the
 *   input schema as an array is always an array; path parameters win over query ones;
 * - numbers, booleans, bigints and dates in the input schema coerce from their query text;
 * - a parameter named like a member of Object.prototype (`toString`, `constructor`) is ignored,
 *   as every unknown parameter is.
 */
import { type AnyTRPCProcedure, getTRPCErrorFromUnknown, type TRPCError } from "@trpc/server";
import type { z } from "zod";
import type { Operation } from "../1-domain/operations";
import type { ApiContext } from "../7-procedures/context";
import type { ApiMeta } from "../7-procedures/trpc";
import { invokeProcedure } from "../7-routers/invoke";
import { appRouter } from "../7-routers/root";

/** One GET route: its pattern and what its procedure needs. */
interface Route {
  pattern: RegExp;
  /** The procedure's path in the router (`readings.snapshot`). */
  name: string;
  procedure: AnyTRPCProcedure;
  /** Input keys the schema declares as arrays: a single value becomes a one-element array. */
  arrayKeys: ReadonlySet<string>;
  /** The operation it serves (for the early 401, the door's bulkhead, logs and metrics). */
  operation: Operation | undefined;
}

/** A route a path names, with the path's parameters. */
export interface FoundRoute {
  route: Route;
  pathInput: Record<string, string>;
}

/** What a dispatch gives: no route for the path, the procedure's data, or its failure. */
export type Dispatched =
  | { kind: "no-route" }
  | { kind: "answered"; data: unknown }
  | { kind: "failed"; error: TRPCError };

type ZodLike = {
  _zod?: { def?: { type?: string } };
  unwrap?: () => ZodLike;
  element?: ZodLike;
  def?: { getter?: () => ZodLike };
  shape?: Record<string, ZodLike>;
};

const kind = (schema: ZodLike | undefined) => schema?._zod?.def?.type;

/** What trpc-to-openapi looks through to coerce: arrays to their element, and the wrappers of a value. */
function unwrapped(schema: ZodLike): ZodLike {
  const type = kind(schema);
  if (type === "array" && schema.element) return unwrapped(schema.element);
  if (type === "lazy" && schema.def?.getter) return unwrapped(schema.def.getter());
  if ((type === "optional" || type === "nullable" || type === "default" || type === "prefault") && schema.unwrap)
    return unwrapped(schema.unwrap());
  return schema;
}

const COERCIBLE = new Set(["number", "boolean", "bigint", "date"]);

/** Makes every number, boolean, bigint and date in an object schema (and nested objects) coerce from text. */
function coerceFromText(schema: ZodLike): void {
  for (const field of Object.values(schema.shape ?? {})) {
    const inner = unwrapped(field);
    if (COERCIBLE.has(kind(inner) ?? "")) (inner._zod?.def as { coerce?: boolean }).coerce = true;
    else if (kind(inner) === "object") coerceFromText(inner);
  }
}

function routeOf(name: string, procedure: AnyTRPCProcedure): Route | undefined {
  const meta = procedure._def.meta as ApiMeta | undefined;
  const openapi = meta?.openapi;
  if (!openapi || openapi.enabled === false || openapi.method !== "GET" || procedure._def.type !== "query")
    return undefined;
  const path = `/${openapi.path.replace(/^\/|\/$/g, "")}`;
  const pattern = new RegExp(`^${path.replace(/\{(.+?)\}/g, (_, key) => `(?<${key}>[^/]+)`)}$`, "i");
  const inputs = (procedure._def as unknown as { inputs: z.ZodType[] }).inputs;
  if (inputs.length > 1) throw new Error(`${name}: one input schema per REST procedure`);
  const schema = inputs[0] as unknown as ZodLike | undefined;
  // trpc-to-openapi also looks through transforms and preprocessing; no /v1 input uses them, and
  // one that did would need its rule here too.
  if (schema && kind(schema) !== "object") throw new Error(`${name}: a REST input must be an object schema`);
  const arrayKeys = new Set<string>();
  if (schema) {
    for (const [key, field] of Object.entries(schema.shape ?? {})) {
      const direct = kind(field) === "array";
      const optional = kind(field) === "optional" && kind(field.unwrap?.()) === "array";
      if (direct || optional) arrayKeys.add(key);
    }
    coerceFromText(schema);
  }
  return { pattern, name, procedure, arrayKeys, operation: meta?.operation };
}

/** The GET routes of a router's procedures, in the router's order (the first match wins). */
export const restRoutesOf = (router: { _def: { procedures: object } }): Route[] =>
  Object.entries(router._def.procedures as Record<string, AnyTRPCProcedure>).flatMap(
    ([name, procedure]) => routeOf(name, procedure) ?? [],
  );

const appRoutes = restRoutesOf(appRouter);

/** The input a GET's query and path give its procedure, before the procedure's own parsing. */
function inputOf(route: Pick<Route, "arrayKeys">, query: URLSearchParams, pathInput: Record<string, string>) {
  const input: Record<string, unknown> = {};
  for (const key of new Set(query.keys())) {
    if (key in Object.prototype) continue;
    const values = query.getAll(key);
    input[key] = values.length === 1 && !route.arrayKeys.has(key) ? values[0] : values;
  }
  for (const key in pathInput) input[key] = pathInput[key];
  return input;
}

/**
 * The route a path below /v1 names, with its path parameters: the one table of /v1's paths (the
 * 405s, the early 401 and the logs' operation ask it too, through ./routes.ts).
 */
export function findRestRoute(pathBelowPrefix: string, routes: Route[] = appRoutes): FoundRoute | undefined {
  const path = `/${pathBelowPrefix.replace(/^\/|\/$/g, "")}`;
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (match) return { route, pathInput: { ...match.groups } };
  }
  return undefined;
}

/**
 * Runs the procedure a GET names, with the call's context: `pathBelowPrefix` is the URL's path
 * without /v1, `query` its parameters.
 */
export const dispatchRest = (
  pathBelowPrefix: string,
  query: URLSearchParams,
  context: ApiContext,
  routes: Route[] = appRoutes,
): Promise<Dispatched> => dispatchFound(findRestRoute(pathBelowPrefix, routes), query, context);

/** Runs the procedure of a route found already (`findRestRoute`), with the call's context. */
export async function dispatchFound(
  found: FoundRoute | undefined,
  query: URLSearchParams,
  context: ApiContext,
): Promise<Dispatched> {
  if (!found) return { kind: "no-route" };
  const input = inputOf(found.route, query, found.pathInput);
  try {
    const data = await invokeProcedure(found.route.procedure, found.route.name, context, input);
    return { kind: "answered", data };
  } catch (cause) {
    return { kind: "failed", error: getTRPCErrorFromUnknown(cause) };
  }
}
