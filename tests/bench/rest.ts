/**
 * REST and MCP on one running app (`npm start`) with a valid token and credits to spare, so
 * authentication, the rate limit and the debit are all in the path; in the same run, the same bytes
 * from a bare Node http server (the machine's floor), and with each call's debit written (the
 * metered floor). MCP: snapshot tool calls
 * POSTed as a 2025 client (answered as an SSE stream) and as a 2026-07-28 client (one JSON body).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { demoCatalogueWithOrganization } from "../helpers/accounts";
import { createTestDatabase } from "../helpers/database";
import { startApp } from "../helpers/server";
import { CONNECTION_COUNTS, type Figures, header, measure, row, SECONDS } from "./measure";
import { MCP_HEADERS, TOOL_CALL } from "./operations";

const READINGS = {
  snapshot: "/v1/markets/foundation-model-apis/snapshot",
  delta: "/v1/markets/foundation-model-apis/delta?country=FR",
};

const TSX = path.resolve(import.meta.dirname, "../../node_modules/tsx/dist/loader.mjs");

/**
 * A floor server in a process of its own, once it prints its URL: the bare Node one (the machine's
 * floor), the one that also writes each call's debit (the metered floor, given its database), or
 * the bare MCP SDK answering a tool call (MCP's floor).
 */
async function floorServer(
  floorDir: string,
  kind: "node" | "debit" | "mcp",
  debitDatabase?: string,
): Promise<{ url: string; process: ChildProcess }> {
  const args =
    kind === "node"
      ? [path.join(import.meta.dirname, "node-floor.mjs")]
      : ["--import", TSX, path.join(import.meta.dirname, kind === "debit" ? "debit-floor.ts" : "mcp-floor.ts")];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, BENCH_FLOOR_DIR: floorDir, BENCH_DEBIT_DATABASE: debitDatabase ?? "" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve) =>
    child.stdout?.once("data", (chunk) => resolve(String(chunk).trim())),
  );
  return { url, process: child };
}

/**
 * The same call as a client of the 2026-07-28 revision sends it: no handshake, the version and
 * capabilities in the request's _meta and headers; the server answers one JSON body, not a stream.
 */
const MODERN_TOOL_CALL = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: {
    name: "service_market_get_snapshot",
    arguments: { marketId: "foundation-model-apis" },
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
    },
  },
});

const MODERN_MCP_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": "2026-07-28",
  "Mcp-Method": "tools/call",
  "Mcp-Name": "service_market_get_snapshot",
};

/** Whether a tool call answers a result, not an error: a bench of refusals would measure nothing. */
async function checkToolCall(appUrl: string, headers: Record<string, string>) {
  for (const [revision, body] of [
    [MCP_HEADERS, TOOL_CALL],
    [MODERN_MCP_HEADERS, MODERN_TOOL_CALL],
  ] as const) {
    const response = await fetch(`${appUrl}/mcp`, { method: "POST", headers: { ...headers, ...revision }, body });
    const text = await response.text();
    if (!response.ok || text.includes('"isError":true') || !text.includes('"structuredContent"'))
      throw new Error(`the snapshot tool failed (${revision["MCP-Protocol-Version"]}): ${text.slice(0, 300)}`);
  }
}

export async function restBench(database: "pglite" | "postgres"): Promise<Record<string, Figures>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "mps-bench-"));
  const floorDir = mkdtempSync(path.join(tmpdir(), "mps-floor-"));
  const postgres = database === "postgres" ? await createTestDatabase() : undefined;
  // The metered floor's own database, of the same kind as the app's.
  const floorDatabase = database === "postgres" ? await createTestDatabase() : undefined;
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
    RATE_LIMIT: "1000000000",
    // One organization at 100 connections would overflow its bulkhead (8 running, 16 waiting)
    // and be refused; the calls wait their turn instead, as the rate limit is lifted above.
    ORG_MAX_QUEUED: "1000",
    REDIS_URL: "",
  });
  let floor: Awaited<ReturnType<typeof floorServer>> | undefined;
  let debitFloor: Awaited<ReturnType<typeof floorServer>> | undefined;
  let mcpFloor: Awaited<ReturnType<typeof floorServer>> | undefined;
  const figures: Record<string, Figures> = {};
  try {
    for (const [name, url] of Object.entries(READINGS)) {
      const response = await fetch(`${app.url}${url}`, { headers });
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      writeFileSync(path.join(floorDir, `${name}.json`), Buffer.from(await response.arrayBuffer()));
    }
    floor = await floorServer(floorDir, "node");
    debitFloor = await floorServer(floorDir, "debit", floorDatabase?.url ?? path.join(dataDir, "debit-floor"));
    mcpFloor = await floorServer(floorDir, "mcp");
    await checkToolCall(app.url, headers);
    for (const connections of CONNECTION_COUNTS) {
      console.log(`\nREST and MCP on ${database}: ${connections} connections, ${SECONDS} s per target, loopback`);
      console.log(header());
      const at = (name: string) => `${name}@${connections}`;
      for (const [name, url] of Object.entries(READINGS)) {
        const node = await measure(`bare Node http, ${name} bytes`, `${floor.url}/?name=${name}`, {}, connections);
        const debit = await measure(
          `bare Node + the debit, ${name} bytes`,
          `${debitFloor.url}/?name=${name}`,
          {},
          connections,
        );
        const api = await measure(`GET /v1 … /${name} (metered)`, `${app.url}${url}`, headers, connections);
        // What compression costs in throughput and saves in bytes, against the plain answer.
        const brotli = await measure(
          `GET /v1 … /${name}, Accept-Encoding: br`,
          `${app.url}${url}`,
          { ...headers, "Accept-Encoding": "br" },
          connections,
        );
        console.log(row(node));
        console.log(row(debit, node));
        console.log(row(api, node));
        console.log(row({ ...api, name: "" }, debit));
        console.log(row(brotli, api));
        Object.assign(figures, {
          [at(`node-${name}`)]: node,
          [at(`debit-${name}`)]: debit,
          [at(`api-${name}`)]: api,
          [at(`br-${name}`)]: brotli,
        });
      }
      const sdk = await measure(
        "bare MCP SDK tools/call, snapshot",
        `${mcpFloor.url}/`,
        MCP_HEADERS,
        connections,
        TOOL_CALL,
      );
      console.log(row(sdk, figures[at("api-snapshot")]));
      figures[at("mcp-floor")] = sdk;
      const mcp = await measure(
        "MCP tools/call snapshot (metered)",
        `${app.url}/mcp`,
        { ...headers, ...MCP_HEADERS },
        connections,
        TOOL_CALL,
      );
      console.log(row(mcp, figures[at("api-snapshot")]));
      figures[at("mcp")] = mcp;
      const modern = await measure(
        "MCP 2026-07-28 tools/call snapshot",
        `${app.url}/mcp`,
        { ...headers, ...MODERN_MCP_HEADERS },
        connections,
        MODERN_TOOL_CALL,
      );
      console.log(row(modern, figures[at("api-snapshot")]));
      figures[at("mcp-modern")] = modern;
    }
  } finally {
    floor?.process.kill();
    debitFloor?.process.kill();
    mcpFloor?.process.kill();
    await app.stop();
    await postgres?.drop();
    await floorDatabase?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(floorDir, { recursive: true, force: true });
  }
  return figures;
}
