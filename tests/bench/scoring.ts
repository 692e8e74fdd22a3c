/**
 * Scoring at size: a generated market of 1,000 products × 50 indicators under 60 geographies,
 * scored in a fresh process (time, peak memory), then published end to end by the operator CLI
 * into an empty embedded database (wall time, peak memory, the progress it shows).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generatedGeographies, generatedMarket } from "../helpers/generated-catalogue";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "loader.mjs");
const PEAK = path.join(ROOT, "tests", "bench", "report-peak.mjs");

export interface ScoringFigures {
  scoreMs: number;
  scorePeakMiB: number;
  controlSets: number;
  payloadMiB: number;
  publishMs: number;
  publishPeakMiB: number;
  /** The same CLI publishing only the geographies file: what opening the database costs. */
  cliBaselinePeakMiB: number;
  cliBaselineMs: number;
  progressLines: string[];
  /** The same publish into a fresh PostgreSQL database (when TEST_DATABASE_URL names a server). */
  postgres?: { publishMs: number; publishPeakMiB: number };
  /** The publish call alone (no process start, no database open), per database. */
  inside: Record<string, { ms: number; openedRssMiB: number; peakMiB: number }>;
}

function run(args: string[], env: Record<string, string> = {}) {
  const started = performance.now();
  const result = spawnSync(process.execPath, ["--import", PEAK, "--import", TSX, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 64 * 2 ** 20,
  });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  const peak = Number(/\[peak-rss-kib\] (\d+)/.exec(result.stderr)?.[1] ?? 0) / 1024;
  return { ms, peak, stdout: result.stdout, stderr: result.stderr };
}

export async function scoringBench(products = 1000, indicators = 50, geographies = 60): Promise<ScoringFigures> {
  const scored = run(["tests/bench/score-generated.ts", String(products), String(indicators), String(geographies)]);
  const figures = JSON.parse(scored.stdout.trim().split("\n").at(-1) ?? "{}");

  const dir = mkdtempSync(path.join(tmpdir(), "mps-bench-publish-"));
  try {
    writeFileSync(path.join(dir, "geographies.json"), JSON.stringify(generatedGeographies(geographies)));
    writeFileSync(path.join(dir, "market.json"), JSON.stringify(generatedMarket(products, indicators)));
    const env = { DATABASE_URL: "", DATA_DIR: path.join(dir, "data") };
    const baseline = run(["server/8-cli/main.ts", "catalog", "publish", path.join(dir, "geographies.json")], env);
    const cli = ["server/8-cli/main.ts", "catalog", "publish", path.join(dir, "market.json"), "--notes", "benchmark"];
    const published = run(cli, env);
    const inside: ScoringFigures["inside"] = {};
    const publishAlone = (env: Record<string, string>) =>
      JSON.parse(
        run(["tests/bench/publish-generated.ts", String(products), String(indicators), String(geographies)], env)
          .stdout.trim()
          .split("\n")
          .at(-1) ?? "{}",
      );
    inside.pglite = publishAlone({ DATABASE_URL: "", DATA_DIR: path.join(dir, "alone") });
    let onPostgres: ScoringFigures["postgres"];
    if (process.env.TEST_DATABASE_URL) {
      const { createTestDatabase } = await import("../helpers/database");
      const database = await createTestDatabase();
      try {
        const pgEnv = { DATABASE_URL: database.url ?? "" };
        run(["server/8-cli/main.ts", "catalog", "publish", path.join(dir, "geographies.json")], pgEnv);
        const onServer = run(cli, pgEnv);
        onPostgres = { publishMs: onServer.ms, publishPeakMiB: onServer.peak };
      } finally {
        await database.drop();
      }
      const fresh = await createTestDatabase();
      try {
        inside.postgres = publishAlone({ DATABASE_URL: fresh.url ?? "" });
      } finally {
        await fresh.drop();
      }
    }
    return {
      inside,
      postgres: onPostgres,
      scoreMs: figures.ms,
      scorePeakMiB: scored.peak,
      controlSets: figures.controlSets,
      payloadMiB: figures.payloadMiB,
      publishMs: published.ms,
      publishPeakMiB: published.peak,
      cliBaselinePeakMiB: baseline.peak,
      cliBaselineMs: baseline.ms,
      progressLines: published.stderr.split("\n").filter((line) => line && !line.startsWith("[peak")),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
