/**
 * Fair sharing, measured: one organization's steady caller (2 connections, one call after the
 * other) alone, then while another organization sends bursts of 500 metered calls at once, wave
 * after wave, against the same instance, from its own thread. The two phases alternate for
 * ROUNDS rounds, so a slow moment of the machine lands on both sides rather than on one. Prints
 * the steady caller's p50/p99 both ways and their ratio against the target (p99 during a burst
 * ≤ 3× alone).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { openDatabase } from "@/db/client";
import { demoCatalogueWithOrganization, organization } from "../helpers/accounts";
import { createTestDatabase } from "../helpers/database";
import { startApp } from "../helpers/server";
import { percentile } from "../helpers/stats";
import { SECONDS } from "./measure";

const SNAPSHOT = "/v1/markets/foundation-model-apis/snapshot";
const BURST = 500;
const TARGET = 3;
const ROUNDS = 3;

async function steady(url: string, token: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const began = performance.now();
      const response = await fetch(`${url}${SNAPSHOT}`, { headers: { Authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`steady caller answered ${response.status}`);
      latencies.push(performance.now() - began);
    }
  };
  await Promise.all([worker(), worker()]);
  return latencies;
}

/**
 * The bursting organization's client, in its own thread: another customer's client is another
 * program, so parsing its 500 answers must not delay the steady caller's own measurements.
 */
const BURSTER = `
const { parentPort, workerData } = require("node:worker_threads");
const { url, token, burst } = workerData;
let stop = false;
parentPort.on("message", () => { stop = true; });
(async () => {
  const statuses = {};
  let waves = 0;
  while (!stop) {
    const answers = await Promise.all(Array.from({ length: burst }, () =>
      fetch(url, { headers: { Authorization: "Bearer " + token } }).then(async (r) => { await r.arrayBuffer(); return r.status; })));
    for (const status of answers) statuses[status] = (statuses[status] ?? 0) + 1;
    waves++;
  }
  parentPort.postMessage({ waves, statuses });
})();
`;

function bursts(url: string, token: string) {
  const worker = new Worker(BURSTER, { eval: true, workerData: { url: `${url}${SNAPSHOT}`, token, burst: BURST } });
  const result = new Promise<{ waves: number; statuses: Record<string, number> }>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    stop: async () => {
      worker.postMessage("stop");
      const outcome = await result;
      await worker.terminate();
      return outcome;
    },
  };
}

export async function isolationBench(database: "pglite" | "postgres") {
  const dataDir = mkdtempSync(path.join(tmpdir(), "mps-bench-"));
  const postgres = database === "postgres" ? await createTestDatabase() : undefined;
  const handle = postgres ?? (await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") }));
  const steadyOrg = await demoCatalogueWithOrganization(handle, "Steady", 100_000_000);
  const bursting = await organization(handle.db, "Bursting", { homeCountry: "FR", credits: 100_000_000 });
  if (!postgres) await handle.close();
  const app = await startApp({
    ...(postgres?.url ? { DATABASE_URL: postgres.url } : { DATABASE_URL: "", DATA_DIR: dataDir }),
    RATE_LIMIT: "1000000000",
    REDIS_URL: "",
  });
  try {
    // Warm-up: both tokens known to the instance, as a customer's usually are (a cold token's
    // first burst is looked up once, then refused like the rest).
    await steady(app.url, steadyOrg.token, 2);
    await fetch(`${app.url}${SNAPSHOT}`, { headers: { Authorization: `Bearer ${bursting.token}` } });
    const alone: number[] = [];
    const during: number[] = [];
    let waves = 0;
    const statuses: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round++) {
      alone.push(...(await steady(app.url, steadyOrg.token, SECONDS / ROUNDS)));
      const burst = bursts(app.url, bursting.token);
      during.push(...(await steady(app.url, steadyOrg.token, SECONDS / ROUNDS)));
      // Returns once the wave in flight is answered: the next quiet phase is quiet.
      const outcome = await burst.stop();
      waves += outcome.waves;
      for (const [status, n] of Object.entries(outcome.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
    }
    const p = (values: number[], q: number) => percentile(values, q).toFixed(1);
    const ratio = percentile(during, 99) / percentile(alone, 99);
    console.log(
      `\nFair sharing on ${database}: a steady caller beside bursts of ${BURST} from another organization, ${ROUNDS} alternating rounds`,
    );
    console.log(`  steady alone:        ${alone.length} calls, p50 ${p(alone, 50)} ms, p99 ${p(alone, 99)} ms`);
    console.log(`  steady during burst: ${during.length} calls, p50 ${p(during, 50)} ms, p99 ${p(during, 99)} ms`);
    console.log(
      `  bursts: ${waves} waves, ${Object.entries(statuses)
        .map(([s, n]) => `${n} × ${s}`)
        .join(", ")}; p99 ratio ${ratio.toFixed(2)}× (target ≤ ${TARGET}×: ${ratio <= TARGET ? "met" : "MISSED"})`,
    );
  } finally {
    await app.stop();
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
