/** autocannon runs and the table they print: req/s, p50, p99, body size, ratio to a baseline. */
import autocannon from "autocannon";

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS?.split(",")[0] ?? 10);

export interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  bytes?: number;
}

/** The connection counts the REST and MCP figures are taken at (BENCH_CONNECTIONS=20,100). */
export const CONNECTION_COUNTS = (process.env.BENCH_CONNECTIONS ?? "20,100").split(",").map(Number);

export async function measure(
  name: string,
  url: string,
  headers: Record<string, string> = {},
  connections = CONNECTIONS,
  post?: string,
  /** The class of status every answer must have: 2 (the default), 3 for a 304, 4 for a refusal. */
  status: 2 | 3 | 4 = 2,
  seconds = SECONDS,
): Promise<Figures> {
  const request = { url, headers, connections, ...(post === undefined ? {} : { method: "POST" as const, body: post }) };
  await autocannon({ ...request, duration: Math.min(2, seconds) }); // warm-up: JIT and caches
  const result = await autocannon({ ...request, duration: seconds });
  const classes = result as unknown as Record<"1xx" | "2xx" | "3xx" | "4xx" | "5xx", number>;
  const other = (["1xx", "2xx", "3xx", "4xx", "5xx"] as const)
    .filter((c) => c !== `${status}xx`)
    .reduce((sum, c) => sum + (classes[c] ?? 0), 0);
  if (other > 0 || result.errors > 0)
    throw new Error(`${name}: ${other} answers not ${status}xx and ${result.errors} errors`);
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: result.throughput.average / Math.max(result.requests.average, 1),
  };
}

export const header = () =>
  [
    "target".padEnd(44),
    "req/s".padStart(8),
    "p50".padStart(10),
    "p99".padStart(10),
    "body".padStart(11),
    "ratio".padStart(14),
  ].join(" ");

export const row = (f: Figures, baseline?: Figures) =>
  [
    f.name.padEnd(44),
    f.rps.toFixed(0).padStart(8),
    `${f.p50.toFixed(1)} ms`.padStart(10),
    `${f.p99.toFixed(1)} ms`.padStart(10),
    (f.bytes === undefined ? "" : `${(f.bytes / 1024).toFixed(1)} KiB`).padStart(11),
    baseline ? `${(f.rps / baseline.rps).toFixed(2)}× ${baseline.name.split(",")[0]}`.padStart(14) : "",
  ].join(" ");
