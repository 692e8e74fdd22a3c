/**
 * `npm run bench`: every benchmark, figures printed and compared in the same run with their
 * baselines (the framework's and the machine's floor for REST, REST for MCP, the targets for
 * scoring). Never part of the test suite: numbers here inform, they do not pass or fail a build.
 *
 *   BENCH_SECONDS=8 BENCH_CONNECTIONS=10 npm run bench
 *   BENCH_ONLY=scoring,matrix,start,pglite,postgres,isolation   (a subset)
 *   BENCH_DATABASE_URL=postgres://…            (the server for the PostgreSQL run; default 127.0.0.1:5432)
 */
import { scoringBench } from "./scoring";
import { startupBench } from "./startup";

const only = new Set((process.env.BENCH_ONLY ?? "scoring,matrix,start,pglite,postgres,isolation").split(","));
const SNAPSHOT_TARGET = 0.8;

async function main() {
  // Read by the database helper when it is first imported (below, with the REST benchmark).
  if (only.has("postgres") || only.has("isolation"))
    process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  // The build is a precondition of `npm start`; the start helper makes one when it is stale.
  if (only.has("scoring")) {
    const s = await scoringBench();
    console.log("\nScoring: a generated market of 1,000 products × 50 indicators under 60 geographies");
    console.log(
      `  check and score, fresh process: ${s.scoreMs.toFixed(0)} ms, peak ${s.scorePeakMiB.toFixed(0)} MiB (targets < 2,000 ms, < 500 MiB: ${s.scoreMs < 2000 && s.scorePeakMiB < 500 ? "met" : "MISSED"}); ${s.controlSets} control sets, ${s.payloadMiB.toFixed(1)} MiB of results`,
    );
    console.log(
      `  ops catalog publish into embedded PGlite, end to end: ${s.publishMs.toFixed(0)} ms, peak ${s.publishPeakMiB.toFixed(0)} MiB (the same CLI opening a new database: ${s.cliBaselineMs.toFixed(0)} ms, ${s.cliBaselinePeakMiB.toFixed(0)} MiB)`,
    );
    if (s.postgres)
      console.log(
        `  ops catalog publish into PostgreSQL, end to end: ${s.postgres.publishMs.toFixed(0)} ms, peak ${s.postgres.publishPeakMiB.toFixed(0)} MiB (targets < 2,000 ms, < 500 MiB: ${s.postgres.publishMs < 2000 && s.postgres.publishPeakMiB < 500 ? "met" : "MISSED"})`,
      );
    for (const [database, f] of Object.entries(s.inside))
      console.log(
        `  the publish call alone into ${database}: ${f.ms.toFixed(0)} ms, peak ${f.peakMiB.toFixed(0)} MiB with the database open (${f.openedRssMiB.toFixed(0)} MiB before publishing)`,
      );
    console.log(`  progress shown: ${s.progressLines.length} lines, e.g. "${s.progressLines.slice(-2).join('", "')}"`);
  }
  if (only.has("matrix")) {
    const { matrixBench } = await import("./matrix");
    await matrixBench();
  }
  if (only.has("start")) {
    const { fresh, again } = await startupBench();
    console.log("\nStart (npm start on a built tree, embedded PGlite) to the first 200");
    console.log(
      `  new folder (migrate, seed): /api/health ${fresh.health.toFixed(0)} ms, / ${fresh.page.toFixed(0)} ms`,
    );
    console.log(
      `  same folder again:          /api/health ${again.health.toFixed(0)} ms, / ${again.page.toFixed(0)} ms`,
    );
  }
  for (const database of ["pglite", "postgres"] as const) {
    if (!only.has(database)) continue;
    const { restBench } = await import("./rest");
    const figures = await restBench(database);
    const ratio = (figures["api-snapshot"]?.rps ?? 0) / (figures["next-snapshot"]?.rps ?? 1);
    console.log(
      `  metered snapshot / bare Next route = ${ratio.toFixed(2)}× (target ≥ ${SNAPSHOT_TARGET}×: ${ratio >= SNAPSHOT_TARGET ? "met" : "MISSED"})`,
    );
  }
  if (only.has("isolation")) {
    const { isolationBench } = await import("./isolation");
    for (const database of ["postgres", "pglite"] as const) await isolationBench(database);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
