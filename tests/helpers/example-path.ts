import type { AnyDeclaration } from "@/server/procedures/declaration";

/** The REST path of a declaration's example: path parameters in the path, the rest as the query. */
export function examplePath(declaration: AnyDeclaration): string {
  const example = { ...(declaration.example as Record<string, unknown>) };
  const filled = declaration.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = String(example[name]);
    delete example[name];
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(Object.entries(example).map(([k, v]) => [k, String(v)])).toString();
  return `/v1${filled}${query ? `?${query}` : ""}`;
}
