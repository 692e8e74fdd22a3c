/**
 * `npm run bench:profile`: a CPU profile of the app serving one metered call under load, and the
 * frames that took the most time. The app runs as in production (`npm start`, embedded PGlite
 * unless BENCH_DATABASE_URL is set) with Node's --cpu-prof; autocannon drives PROFILE_TARGET
 * (snapshot, delta or mcp) for BENCH_SECONDS. The profile is kept (its path is printed) for
 * Chrome DevTools or speedscope.
 *
 *   PROFILE_TARGET=mcp BENCH_SECONDS=10 npm run bench:profile
 */
import { mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openDatabase } from "@/db/client";
import { demoCatalogueWithOrganization } from "../helpers/accounts";
import { startApp } from "../helpers/server";
import { SECONDS } from "./measure";
import { topFrames } from "./profile-frames";

const TARGET = process.env.PROFILE_TARGET ?? "snapshot";
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

const toolCall = (name: string) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name, arguments: { marketId: "foundation-model-apis" } },
  });

async function main() {
  const workDir = mkdtempSync(path.join(tmpdir(), "mps-profile-"));
  const profiles = path.join(workDir, "profiles");
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? "";
  const handle = await openDatabase(
    databaseUrl ? { kind: "postgres", url: databaseUrl } : { kind: "pglite", dataDir: path.join(workDir, "pglite") },
  );
  const { token } = await demoCatalogueWithOrganization(handle, "Profile", 2_000_000_000).finally(() => handle.close());
  const app = await startApp({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: "", DATA_DIR: workDir }),
    CPU_PROFILE_DIR: profiles,
    RATE_LIMIT: "1000000000",
    REDIS_URL: "",
  });
  let stopMs = 0;
  const auth = { Authorization: `Bearer ${token}` };
  const request =
    TARGET === "mcp"
      ? {
          url: `${app.url}/mcp`,
          method: "POST" as const,
          headers: {
            ...auth,
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-06-18",
          },
          body: toolCall("service_market_get_snapshot"),
        }
      : {
          url: `${app.url}/v1/markets/foundation-model-apis/${TARGET === "delta" ? "delta?country=FR" : "snapshot"}`,
          headers: auth,
        };
  try {
    await autocannon({ ...request, connections: CONNECTIONS, duration: 2 });
    const result = await autocannon({ ...request, connections: CONNECTIONS, duration: SECONDS });
    console.log(
      `${TARGET}: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.non2xx} non-2xx`,
    );
  } finally {
    const stopping = performance.now();
    await app.stop();
    stopMs = performance.now() - stopping;
  }
  // The server is the process that worked the most: the largest of the profiles written.
  const largest = readdirSync(profiles)
    .map((name) => path.join(profiles, name))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (!largest) throw new Error("no profile was written");
  // The measured run only: the last SECONDS before the app was told to stop.
  console.log(`profile: ${largest}\n${topFrames(largest, 25, { fromEndMs: stopMs, lengthMs: SECONDS * 1000 })}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
