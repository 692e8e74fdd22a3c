/**
 * `npm run bench`: every benchmark, figures printed and compared in the same run with their
 * baselines (the framework's and the machine's floor for REST, REST for MCP, the targets for
 * scoring). Never part of the test suite: numbers here inform, they do not pass or fail a build.
 *
 *   BENCH_SECONDS=8 BENCH_CONNECTIONS=20,100 npm run bench
 *   BENCH_ONLY=scoring,sensitivity,matrix,export,start,pglite,postgres,operations,isolation   (a subset)
 *   BENCH_ONLY=stages                          (where a call's time goes, stage by stage; not in the default set)
 *   BENCH_ONLY=size                            (pure work per surface at 10, 1,000 and 10,000 products; not in the default set)
 *   BENCH_ONLY=paired BENCH_BASELINE=<commit>  (this tree against an earlier build, A/B/B/A on PostgreSQL;
 *                                              BENCH_PAIRS=2; not in the default set, nor in CI: minutes of
 *                                              load, on a quiet machine, before and after a change to the
 *                                              metered path; tests/bench/paired.ts, docs/performance.md)
 *   BENCH_OPERATIONS_DATABASE=pglite           (the per-operation rows on PGlite; default PostgreSQL)
 *   BENCH_DATABASE_URL=postgres://…            (the server for the PostgreSQL run; default 127.0.0.1:5432)
 */

import { CONNECTION_COUNTS } from "./measure";
import { scoringBench } from "./scoring";
import { startupBench } from "./startup";

const only = new Set(
  (process.env.BENCH_ONLY ?? "scoring,sensitivity,matrix,export,start,pglite,postgres,operations,isolation").split(","),
);
const NODE_GOAL = 0.3;
const P99_GOAL_MS = 10;
const MCP_GOAL = 0.9;

async function main() {
  // Read by the database helper when it is first imported (below, with the REST benchmark).
  if (["postgres", "isolation", "operations", "stages"].some((name) => only.has(name)))
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
  if (only.has("paired")) {
    const { pairedBench } = await import("./paired");
    await pairedBench();
  }
  if (only.has("size")) {
    const { sizeBench } = await import("./size");
    sizeBench();
  }
  if (only.has("sensitivity")) {
    const { sensitivityBench } = await import("./sensitivity");
    sensitivityBench();
  }
  if (only.has("matrix")) {
    const { matrixBench } = await import("./matrix");
    await matrixBench();
  }
  if (only.has("export")) {
    const { exportBench } = await import("./export");
    await exportBench();
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
    console.log(
      `\nRatios on ${database} (goals: metered ≥ ${NODE_GOAL}× bare Node, p99 ≤ ${P99_GOAL_MS} ms at 20 connections, MCP ≥ ${MCP_GOAL}× REST)`,
    );
    for (const connections of CONNECTION_COUNTS) {
      const f = (name: string) => figures[`${name}@${connections}`];
      for (const reading of ["snapshot", "delta"]) {
        const api = f(`api-${reading}`);
        const ratio = (api?.rps ?? 0) / (f(`node-${reading}`)?.rps ?? 1);
        const p99 = api?.p99 ?? Number.POSITIVE_INFINITY;
        const p99Said =
          connections === 20 ? `, p99 ${p99.toFixed(1)} ms (${p99 <= P99_GOAL_MS ? "met" : "MISSED"})` : "";
        console.log(
          `  ${connections} connections, metered ${reading} / bare Node = ${ratio.toFixed(2)}× (${ratio >= NODE_GOAL ? "met" : "MISSED"})${p99Said}`,
        );
        // What a ledger row per call allows at best, and how much of that the service keeps.
        const debitFloor = f(`debit-${reading}`)?.rps ?? 0;
        console.log(
          `    the debit alone allows ${(debitFloor / (f(`node-${reading}`)?.rps ?? 1)).toFixed(2)}× bare Node; metered / that floor = ${((api?.rps ?? 0) / (debitFloor || 1)).toFixed(2)}×`,
        );
      }
      // What the SDK alone allows (one tool, nothing of ours): the ceiling of any tool call here.
      const sdkFloor = (f("mcp-floor")?.rps ?? 0) / (f("api-snapshot")?.rps ?? 1);
      console.log(
        `  ${connections} connections, the bare MCP SDK alone allows ${sdkFloor.toFixed(2)}× REST; metered MCP / that floor = ${((f("mcp")?.rps ?? 0) / (f("mcp-floor")?.rps || 1)).toFixed(2)}×`,
      );
      for (const [name, label] of [
        ["mcp", "MCP snapshot (2025 client)"],
        ["mcp-modern", "MCP snapshot (2026-07-28 client)"],
      ] as const) {
        const mcp = (f(name)?.rps ?? 0) / (f("api-snapshot")?.rps ?? 1);
        console.log(
          `  ${connections} connections, ${label} / REST snapshot = ${mcp.toFixed(2)}× (${mcp >= MCP_GOAL ? "met" : "MISSED"})`,
        );
      }
    }
  }
  if (only.has("operations")) {
    const { operationsBench } = await import("./operations");
    await operationsBench(process.env.BENCH_OPERATIONS_DATABASE === "pglite" ? "pglite" : "postgres");
  }
  if (only.has("stages")) {
    const { operationsBench } = await import("./operations");
    await operationsBench(process.env.BENCH_OPERATIONS_DATABASE === "pglite" ? "pglite" : "postgres", { stages: true });
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
