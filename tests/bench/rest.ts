/**
 * REST and MCP on one running app (`npm start`) with a valid token and credits to spare, so
 * authentication, the rate limit and the debit are all in the path; in the same run, the same bytes
 * from a bare Next route handler (the framework's floor) and a bare Node http server (the
 * machine's floor). MCP: snapshot tool calls per second and p99 with the SDK client.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { demoCatalogueWithOrganization } from "../helpers/accounts";
import { createTestDatabase } from "../helpers/database";
import { startApp } from "../helpers/server";
import { percentile } from "../helpers/stats";
import { CONNECTIONS, type Figures, header, measure, row, SECONDS } from "./measure";

const READINGS = {
  snapshot: "/v1/markets/foundation-model-apis/snapshot",
  delta: "/v1/markets/foundation-model-apis/delta?country=FR",
};

async function nodeFloor(floorDir: string): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "node-floor.mjs")], {
    env: { ...process.env, BENCH_FLOOR_DIR: floorDir },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve) =>
    child.stdout?.once("data", (chunk) => resolve(String(chunk).trim())),
  );
  return { url, process: child };
}

/** SDK clients calling the snapshot tool back to back, CONNECTIONS of them, for SECONDS. */
async function mcpCalls(appUrl: string, token: string): Promise<Figures> {
  const clients = await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = new Client({ name: "mps-bench", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${appUrl}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    }),
  );
  const call = (client: Client) =>
    client.callTool({ name: "service_market_get_snapshot", arguments: { marketId: "foundation-model-apis" } });
  const loop = async (seconds: number) => {
    const latencies: number[] = [];
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      clients.map(async (client) => {
        while (performance.now() < until) {
          const started = performance.now();
          const result = await call(client);
          if (result.isError) throw new Error(`snapshot tool failed: ${JSON.stringify(result.content)}`);
          latencies.push(performance.now() - started);
        }
      }),
    );
    return latencies;
  };
  await loop(2); // warm-up
  const latencies = await loop(SECONDS);
  await Promise.all(clients.map((client) => client.close()));
  return {
    name: "MCP tools/call snapshot (SDK client)",
    rps: latencies.length / SECONDS,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

export async function restBench(database: "pglite" | "postgres"): Promise<Record<string, Figures>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "mps-bench-"));
  const floorDir = mkdtempSync(path.join(tmpdir(), "mps-floor-"));
  const postgres = database === "postgres" ? await createTestDatabase() : undefined;
  let token: string;
  const prepare = async (handle: DatabaseHandle) =>
    (await demoCatalogueWithOrganization(handle, "Bench", 2_000_000_000)).token;
  if (postgres) token = await prepare(postgres);
  else {
    const handle = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    try {
      token = await prepare(handle);
    } finally {
      await handle.close();
    }
  }
  const headers = { Authorization: `Bearer ${token}` };
  // The rate limit is not what is measured here: lift it out of the way.
  const app = await startApp({
    ...(postgres?.url ? { DATABASE_URL: postgres.url } : { DATABASE_URL: "", DATA_DIR: dataDir }),
    BENCH_FLOOR_DIR: floorDir,
    RATE_LIMIT: "1000000000",
    REDIS_URL: "",
  });
  let floor: Awaited<ReturnType<typeof nodeFloor>> | undefined;
  const figures: Record<string, Figures> = {};
  try {
    for (const [name, url] of Object.entries(READINGS)) {
      const response = await fetch(`${app.url}${url}`, { headers });
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      writeFileSync(path.join(floorDir, `${name}.json`), Buffer.from(await response.arrayBuffer()));
    }
    floor = await nodeFloor(floorDir);
    console.log(`\nREST and MCP on ${database}: ${CONNECTIONS} connections, ${SECONDS} s per target, loopback`);
    console.log(header());
    for (const [name, url] of Object.entries(READINGS)) {
      const node = await measure(`bare Node http, ${name} bytes`, `${floor.url}/?name=${name}`);
      const next = await measure(`bare Next route, ${name} bytes`, `${app.url}/bench/floor?name=${name}`);
      const api = await measure(`GET /v1 … /${name} (metered)`, `${app.url}${url}`, headers);
      console.log(row(node));
      console.log(row(next, node));
      console.log(row(api, next));
      Object.assign(figures, { [`node-${name}`]: node, [`next-${name}`]: next, [`api-${name}`]: api });
    }
    const mcp = await mcpCalls(app.url, token);
    console.log(row(mcp, figures["api-snapshot"]));
    figures.mcp = mcp;
  } finally {
    floor?.process.kill();
    await app.stop();
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(floorDir, { recursive: true, force: true });
  }
  return figures;
}
