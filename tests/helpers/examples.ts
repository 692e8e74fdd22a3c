/**
 * A declaration's example as a REST call (server/7-procedures/operations/): the parameters its path
 * names go in the path, the rest in the query. The suites that call every operation read their
 * arguments from here, so a new declaration is called with its own example, written once.
 */
import type { AnyDeclaration } from "@/server/7-procedures/declaration";

export interface ExampleParams {
  path: Record<string, string>;
  query: Record<string, string | number | boolean>;
}

export function exampleParams(declaration: AnyDeclaration): ExampleParams {
  const query = { ...(declaration.example as Record<string, string | number | boolean>) };
  const path: Record<string, string> = {};
  for (const [, name] of declaration.path.matchAll(/\{(\w+)\}/g)) {
    path[name as string] = String(query[name as string]);
    delete query[name as string];
  }
  return { path, query };
}

/** The example's path and query: `/markets/foundation-model-apis/delta?country=FR&view=bars`. */
export function examplePath(declaration: AnyDeclaration): string {
  const { path, query } = exampleParams(declaration);
  const filled = declaration.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(path[name] as string));
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return `${filled}${search ? `?${search}` : ""}`;
}
