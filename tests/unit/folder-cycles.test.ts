/**
 * No two rooms import each other, even through others: dependency-cruiser's no-circular rule sees
 * modules, and two rooms can import each other without any module cycle (server/6-mail and
 * server/6-auth did, through the app secret). A room is a folder of server/ (server/6-mail), or a
 * top-level folder (db, components, app); a room's own sub-folders are its business.
 */
import path from "node:path";
import { cruise } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** server/6-mail/mail.ts → server/6-mail; components/market/x.tsx → components; proxy.ts → proxy.ts. */
const roomOf = (file: string): string => {
  const parts = file.split("/");
  if (parts.length === 1) return file;
  return parts[0] === "server" && parts.length > 2 ? `server/${parts[1]}` : (parts[0] ?? file);
};

/** Every cycle of the graph, each as its folders in order (Tarjan's strongly connected parts). */
function folderCycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const parts: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(node) === index.get(node)) {
      const part: string[] = [];
      let popped: string | undefined;
      do {
        popped = stack.pop();
        if (popped === undefined) break;
        onStack.delete(popped);
        part.push(popped);
      } while (popped !== node);
      if (part.length > 1) parts.push(part.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return parts;
}

describe("rooms", () => {
  it("finds a cycle when there is one (the check can fail)", () => {
    const edges = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(folderCycles(edges)).toEqual([["a", "b", "c"]]);
  });

  it("never import each other", async () => {
    const result = await cruise(["app", "server", "db", "components", "scripts"], {
      baseDir: ROOT,
      doNotFollow: { path: "node_modules" },
      exclude: { path: ["^node_modules", "^\\.next", "^tests/", "^artifacts/"] },
      tsPreCompilationDeps: true,
      tsConfig: { fileName: path.join(ROOT, "tsconfig.json") },
    });
    const output = result.output;
    if (typeof output === "string") throw new Error("dependency-cruiser answered text");
    const edges = new Map<string, Set<string>>();
    for (const module of output.modules) {
      if (module.source.startsWith("node_modules")) continue;
      const from = roomOf(module.source);
      for (const dependency of module.dependencies) {
        if (!dependency.resolved || dependency.resolved.startsWith("node_modules") || dependency.coreModule) continue;
        const to = roomOf(dependency.resolved);
        if (to === from) continue;
        edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    expect(edges.size).toBeGreaterThan(15);
    expect(folderCycles(edges)).toEqual([]);
  }, 120_000);
});
