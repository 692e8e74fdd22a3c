/**
 * The framework's floor for the benchmarks (tests/bench): a bare route handler that returns bytes
 * saved in BENCH_FLOOR_DIR, with no database, tRPC or validation. Answers 404 unless the benchmark
 * started the app with that variable.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";

export const dynamic = "force-dynamic";

const NAMES = new Set(["snapshot", "delta"]);
const cache = new Map<string, ArrayBuffer>();

export async function GET(request: Request) {
  const dir = process.env.BENCH_FLOOR_DIR;
  const name = new URL(request.url).searchParams.get("name") ?? "";
  if (!dir || !NAMES.has(name)) return new Response(null, { status: 404 });
  let bytes = cache.get(name);
  if (!bytes) {
    const file = await readFile(path.join(/*turbopackIgnore: true*/ dir, `${name}.json`));
    bytes = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
    cache.set(name, bytes);
  }
  return new Response(bytes, { headers: { "Content-Type": "application/json" } });
}
