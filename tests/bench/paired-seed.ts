/**
 * Prepares one side's database for the paired bench (tests/bench/paired.ts) with that side's own
 * code: run with the side's tsx, its folder as the working directory, so its own migrations (read
 * from db/migrations under the working directory), demo catalogue and token format are used,
 * whatever the schema was at that commit. Nothing here is imported statically from the project,
 * for the same reason. Prints one JSON line, {"pairedSeedToken": "…"}, among whatever else the
 * seeding logs.
 *
 *   BENCH_SEED_DATABASE_URL=postgres://… node --import <side>/node_modules/tsx/dist/loader.mjs paired-seed.ts
 */
import path from "node:path";
import { pathToFileURL } from "node:url";

const side = process.cwd();
const url = process.env.BENCH_SEED_DATABASE_URL;
if (!url) throw new Error("BENCH_SEED_DATABASE_URL is not set");
const load = (file: string) => import(pathToFileURL(path.join(side, file)).href);
const { openDatabase } = await load("db/client.ts");
const { demoCatalogueWithOrganization } = await load("tests/helpers/accounts.ts");
const handle = await openDatabase({ kind: "postgres", url });
try {
  // The same organization as the REST bench's: home FR, credits that never run out.
  const organization = await demoCatalogueWithOrganization(handle, "Bench", 2_000_000_000);
  console.log(JSON.stringify({ pairedSeedToken: organization.token }));
} finally {
  await handle.close();
}
