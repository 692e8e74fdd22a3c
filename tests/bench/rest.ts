/**
 * REST benchmark: autocannon on loopback against `next start` (embedded PGlite) for the metered
 * snapshot and delta readings (a valid token, credits to spare: authentication, rate limit and the
 * debit are all in the path), and in the same run against a bare Next route handler returning the
 * same bytes (the framework's floor). Prints req/s, p50, p99 and the ratio to the floor.
 *
 *   npm run bench            (BENCH_SECONDS=8 per target, BENCH_CONNECTIONS=10)
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { seedDemoCatalogue } from "@/db/seed";
import { createOrganization } from "@/server/accounts/organizations";
import { createApiToken, TOKEN_SCOPES } from "@/server/accounts/tokens";
import { startApp } from "../helpers/server";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  bytes: number;
}

async function measure(name: string, url: string, headers: Record<string, string> = {}): Promise<Figures> {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 3 }); // warm-up: JIT and caches
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${name}: ${result.non2xx} non-2xx responses and ${result.errors} errors`);
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: result.throughput.average / Math.max(result.requests.average, 1),
  };
}

const row = (f: Figures, floor?: Figures) =>
  [
    f.name.padEnd(34),
    f.rps.toFixed(0).padStart(8),
    `${f.p50.toFixed(1)} ms`.padStart(10),
    `${f.p99.toFixed(1)} ms`.padStart(10),
    `${(f.bytes / 1024).toFixed(1)} KiB`.padStart(11),
    floor ? `${(f.rps / floor.rps).toFixed(2)}×`.padStart(8) : "",
  ].join(" ");

/** The demo catalogue and an organization with credits to spare; returns its token's secret. */
async function prepareDatabase(dataDir: string): Promise<string> {
  const handle = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
  try {
    await migrateDatabase(handle);
    await seedDemoCatalogue(handle.db);
    const org = await createOrganization(handle.db, { name: "Bench", homeCountry: "FR", credits: 2_000_000_000 });
    return (await createApiToken(handle.db, { organizationId: org.id, name: "bench", scopes: TOKEN_SCOPES })).secret;
  } finally {
    await handle.close();
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "mps-bench-"));
  const floorDir = mkdtempSync(path.join(tmpdir(), "mps-floor-"));
  const headers = { Authorization: `Bearer ${await prepareDatabase(dataDir)}` };
  // The limit is not what is measured here: lift it out of the way.
  const app = await startApp({
    DATABASE_URL: "",
    DATA_DIR: dataDir,
    BENCH_FLOOR_DIR: floorDir,
    RATE_LIMIT: "1000000000",
  });
  try {
    const readings = {
      snapshot: `${app.url}/v1/markets/foundation-model-apis/snapshot`,
      delta: `${app.url}/v1/markets/foundation-model-apis/delta?country=FR`,
    };
    for (const [name, url] of Object.entries(readings)) {
      const response = await fetch(url, { headers });
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      writeFileSync(path.join(floorDir, `${name}.json`), Buffer.from(await response.arrayBuffer()));
    }
    console.log(`REST benchmark: ${CONNECTIONS} connections, ${SECONDS} s per target, loopback, embedded PGlite`);
    console.log(
      [
        "target".padEnd(34),
        "req/s".padStart(8),
        "p50".padStart(10),
        "p99".padStart(10),
        "body".padStart(11),
        "ratio".padStart(8),
      ].join(" "),
    );
    for (const [name, url] of Object.entries(readings)) {
      const floor = await measure(`bare Next route, ${name} bytes`, `${app.url}/bench/floor?name=${name}`);
      const api = await measure(`GET /v1 … /${name}`, url, headers);
      console.log(row(floor));
      console.log(row(api, floor));
    }
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(floorDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
