/**
 * Every /v1 operation, one row each, against the machine's floor in the same run: `npm start`
 * with a token and credits to spare (authentication, the rate limit, the bulkhead, the debit and
 * the log line in the path), each operation called with its declared example, then a 304
 * revalidation of the snapshot, a 401 (no token) and an MCP `tools/call`. Before each row a bare
 * Node http server (./node-floor.mjs, its own process) answering one fixed body — the snapshot's
 * bytes — is measured for as long: every row is paired with the floor measured just before it, so
 * a slow moment of this shared machine lands on both. Prints req/s, p50/p99 and the ratio.
 *
 *   BENCH_ONLY=operations BENCH_SECONDS=5 BENCH_CONNECTIONS=20 npm run bench
 *   BENCH_OPERATIONS=markets.list,geographies.list,readings.snapshot   (a subset of rows)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "@/db/client";
import type { StageTotals } from "@/server/3-observability/stages";
import { operationOf } from "@/server/7-procedures/declaration";
import { DECLARATIONS } from "@/server/7-procedures/operations";
import { demoCatalogueWithOrganization } from "../helpers/accounts";
import { createTestDatabase } from "../helpers/database";
import { examplePath } from "../helpers/examples";
import { startApp } from "../helpers/server";
import { CONNECTION_COUNTS, type Figures, measure, SECONDS } from "./measure";

export const SNAPSHOT = "/v1/markets/foundation-model-apis/snapshot";

/** A snapshot tool call POSTed on its own, as a stateless MCP client sends it (a 2025 client). */
export const TOOL_CALL = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "service_market_get_snapshot", arguments: { marketId: "foundation-model-apis" } },
});

export const MCP_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": "2025-06-18",
};

export interface OperationRow {
  /** What was called: an operation's name, or "snapshot 304", "401 no token", "mcp tools/call". */
  name: string;
  label: string;
  figures: Figures;
  floor: Figures;
  ratio: number;
}

async function nodeFloor(floorDir: string) {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "node-floor.mjs")], {
    env: { ...process.env, BENCH_FLOOR_DIR: floorDir },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve) =>
    child.stdout?.once("data", (chunk) => resolve(String(chunk).trim())),
  );
  return { url, process: child };
}

const line = (label: string, f: Figures, floor: Figures) =>
  [
    label.padEnd(50),
    f.rps.toFixed(0).padStart(7),
    `${f.p50.toFixed(1)}`.padStart(7),
    `${f.p99.toFixed(1)}`.padStart(7),
    `${((f.bytes ?? 0) / 1024).toFixed(1)}`.padStart(8),
    floor.rps.toFixed(0).padStart(8),
    `${(f.rps / floor.rps).toFixed(3)}×`.padStart(8),
  ].join(" ");

/** The calls whose stages are timed by default (BENCH_OPERATIONS picks others). */
const STAGED = ["markets.list", "geographies.list", "readings.snapshot", "snapshot 304", "401 no token"];

/**
 * Every row against bare Node; or, with `stages`, where the time of a few calls goes: the app
 * started with BENCH_STAGES (server/3-observability/stages.ts), each call driven by one connection
 * (its cost, not a queue) for BENCH_SECONDS, and each stage's mean per call printed.
 */
export async function operationsBench(
  database: "pglite" | "postgres" = "postgres",
  { stages = false } = {},
): Promise<OperationRow[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "mps-bench-"));
  const floorDir = mkdtempSync(path.join(tmpdir(), "mps-floor-"));
  const postgres = database === "postgres" ? await createTestDatabase() : undefined;
  const handle = postgres ?? (await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") }));
  const { token } = await demoCatalogueWithOrganization(handle, "Bench", 2_000_000_000);
  if (!postgres) await handle.close();
  const auth = { Authorization: `Bearer ${token}` };
  const app = await startApp({
    ...(postgres?.url ? { DATABASE_URL: postgres.url } : { DATABASE_URL: "", DATA_DIR: dataDir }),
    RATE_LIMIT: "1000000000",
    ORG_MAX_QUEUED: "1000",
    REDIS_URL: "",
    // Nor are the download places: the export rows measure the call, not the queue for a place.
    EXPORT_MAX_PER_ORG: "1000",
    EXPORT_MAX_TOTAL: "1000",
    ...(stages ? { BENCH_STAGES: path.join(dataDir, "stages.json") } : {}),
  });
  const picked = process.env.BENCH_OPERATIONS?.split(",") ?? (stages ? STAGED : undefined);
  const wanted = (name: string) => !picked || picked.includes(name);
  let floor: Awaited<ReturnType<typeof nodeFloor>> | undefined;
  const rows: OperationRow[] = [];
  try {
    const snapshot = await fetch(`${app.url}${SNAPSHOT}`, { headers: auth });
    const etag = snapshot.headers.get("etag");
    if (!snapshot.ok || !etag) throw new Error(`snapshot: ${snapshot.status}, ETag ${etag}`);
    writeFileSync(path.join(floorDir, "fixed.json"), Buffer.from(await snapshot.arrayBuffer()));
    floor = await nodeFloor(floorDir);
    const targets: {
      name: string;
      label: string;
      url: string;
      headers: Record<string, string>;
      status: 2 | 3 | 4;
      post?: string;
    }[] = [];
    for (const declaration of DECLARATIONS) {
      const operation = operationOf(declaration);
      const url = `/v1${examplePath(declaration)}`;
      const price = operation.credits === 0 ? "free" : `${operation.credits} cr`;
      targets.push({
        name: operation.name,
        label: `GET /v1${declaration.path.replace("{marketId}", "{id}").replace("{productId}", "{pid}")} (${price})`,
        url: `${app.url}${url}`,
        headers: auth,
        status: 2,
      });
    }
    targets.push(
      {
        name: "snapshot 304",
        label: `GET …/snapshot, If-None-Match (304)`,
        url: `${app.url}${SNAPSHOT}`,
        headers: { ...auth, "If-None-Match": etag },
        status: 3,
      },
      {
        name: "401 no token",
        label: `GET …/snapshot, no token (401)`,
        url: `${app.url}${SNAPSHOT}`,
        headers: {},
        status: 4,
      },
      {
        name: "mcp tools/call",
        label: "POST /mcp tools/call snapshot (5 cr)",
        url: `${app.url}/mcp`,
        headers: { ...auth, ...MCP_HEADERS },
        status: 2,
        post: TOOL_CALL,
      },
    );
    for (const target of targets.filter((t) => wanted(t.name)))
      if (target.status === 2 && !target.post) {
        const check = await fetch(target.url, { headers: target.headers });
        await check.arrayBuffer();
        if (!check.ok) throw new Error(`${target.name}: ${check.status}`);
      }
    if (stages) {
      for (const target of targets)
        if (wanted(target.name)) await measure(target.name, target.url, target.headers, 1, target.post, target.status);
      await app.stop();
      printStages(JSON.parse(readFileSync(path.join(dataDir, "stages.json"), "utf8")), database);
      return rows;
    }
    for (const connections of CONNECTION_COUNTS) {
      console.log(
        `\nEvery /v1 operation on ${database}, ${connections} connections, ${SECONDS} s each; ratio to bare Node (a fixed ${((await (await fetch(floor.url)).arrayBuffer()).byteLength / 1024).toFixed(1)} KiB body) measured just before`,
      );
      console.log(
        [
          "call".padEnd(50),
          "req/s".padStart(7),
          "p50 ms".padStart(7),
          "p99 ms".padStart(7),
          "KiB".padStart(8),
          "Node".padStart(8),
          "ratio".padStart(8),
        ].join(" "),
      );
      for (const target of targets) {
        if (!wanted(target.name)) continue;
        const node = await measure("bare Node", floor.url, {}, connections);
        const figures = await measure(target.name, target.url, target.headers, connections, target.post, target.status);
        const row = { name: target.name, label: target.label, figures, floor: node, ratio: figures.rps / node.rps };
        rows.push(row);
        console.log(line(target.label, figures, node));
      }
      const rest = targets.find((t) => t.name === "readings.snapshot");
      const mcp = targets.find((t) => t.name === "mcp tools/call");
      if (rest && mcp && wanted(rest.name) && wanted(mcp.name)) await mcpAgainstRest(rest, mcp, connections);
    }
  } finally {
    floor?.process.kill();
    await app.stop();
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(floorDir, { recursive: true, force: true });
  }
  return rows;
}

/** Each kind of call's stages, as mean microseconds per call on the server. */
function printStages(totals: Record<string, StageTotals>, database: string) {
  const stages = ["authentication", "limits", "procedure", "debit", "log"] as const;
  console.log(
    `\nWhat each stage of a call costs on ${database}: mean µs per call on the server, one connection, ${SECONDS} s each (BENCH_STAGES timing)`,
  );
  console.log(
    ["call (operation, status)".padEnd(28), "calls", "edge", ...stages, "total"]
      .map((c, i) => (i === 0 ? c : c.padStart(i === 1 ? 7 : 14)))
      .join(" "),
  );
  for (const [kind, t] of Object.entries(totals)) {
    if (t.calls < 10) continue; // the checks made before measuring
    const us = (ms: number) => ((ms / t.calls) * 1000).toFixed(0);
    const staged = stages.reduce((sum, stage) => sum + t.stages[stage], 0);
    console.log(
      [
        kind.padEnd(28),
        String(t.calls).padStart(7),
        us(t.total - staged).padStart(14),
        ...stages.map((stage) => us(t.stages[stage]).padStart(14)),
        us(t.total).padStart(14),
      ].join(" "),
    );
  }
}

/**
 * MCP `tools/call` of the snapshot over the REST snapshot, interleaved: rounds of 2 s each, the two
 * in turn (ABBA), so a slow moment of a shared machine lands on both; the ratio is of their summed
 * requests. Rows measured minutes apart can differ by half on this machine; this cannot.
 */
async function mcpAgainstRest(
  rest: { url: string; headers: Record<string, string> },
  mcp: { url: string; headers: Record<string, string>; post?: string },
  connections: number,
  rounds = 6,
) {
  let restRequests = 0;
  let mcpRequests = 0;
  const perRound: string[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const runRest = () => measure("rest", rest.url, rest.headers, connections, undefined, 2, 2);
    const runMcp = () => measure("mcp", mcp.url, mcp.headers, connections, mcp.post, 2, 2);
    const [a, b] = round % 2 === 0 ? [await runRest(), await runMcp()] : [await runMcp(), await runRest()];
    const [restRound, mcpRound] = round % 2 === 0 ? [a, b] : [b, a];
    restRequests += restRound.rps;
    mcpRequests += mcpRound.rps;
    perRound.push((mcpRound.rps / restRound.rps).toFixed(2));
  }
  console.log(
    `MCP tools/call ÷ REST snapshot, ${rounds} interleaved rounds of 2 s at ${connections} connections: ${(mcpRequests / restRequests).toFixed(2)}× (rounds: ${perRound.join(", ")})`,
  );
}
