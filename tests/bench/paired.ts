/**
 * `BENCH_ONLY=paired BENCH_BASELINE=<commit-ish> npm run bench`: the metered snapshot of this
 * tree against the same call of an earlier build, measured in A/B/B/A rounds (A the baseline, B
 * this tree), so "no slower than before" is a measurement. Not in the default set, and CI does not
 * run it: it is minutes of load, and only means something on a quiet machine.
 *
 * The baseline is a detached git worktree of that commit in .bench/baseline-<short sha> (git-ignored,
 * reused while it stays at that commit), with its own dependencies (the current node_modules
 * hard-linked when the two package-lock.json are byte-identical, else `npm ci`) and its own build
 * (made once per commit and dependencies; a marker in its .next says which). The current tree is
 * built first when its build is stale (the rule `npm start` uses). Every run: a new PostgreSQL
 * database, migrated and seeded (demo catalogue, one organization and token) by that side's own
 * code (tests/bench/paired-seed.ts run with its tsx in its folder: the schema may differ), that
 * side's `npm start` on it, a warm-up, autocannon on the snapshot, then the app stopped and the
 * database dropped. One app runs at a time.
 *
 *   BENCH_CURRENT=<commit> the B side another earlier commit, checked out as the baseline is (a bisection)
 *   BENCH_PAIRS=2          A/B/B/A blocks (8 runs)
 *   BENCH_CONNECTIONS=20   the first count given is used
 *   BENCH_SECONDS=8        measured per run, after a 2 s warm-up
 *   BENCH_DATABASE_URL     the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 *
 * Prints every run and, per block, current/baseline as the mean req/s of its two B runs over that
 * of its two A runs, then the median of those ratios; writes the same to artifacts/bench/paired.json.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import postgres from "postgres";
import { buildIsCurrent } from "../../scripts/build-freshness";
import { startApp } from "../helpers/server";
import { SECONDS } from "./measure";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SEED_SCRIPT = path.join(import.meta.dirname, "paired-seed.ts");
const SNAPSHOT = "/v1/markets/foundation-model-apis/snapshot";
const PAIRS = Number(process.env.BENCH_PAIRS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS?.split(",")[0] || 20);
const WARM_UP_SECONDS = 2;
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
// `npm start` builds a stale tree before it listens; both trees are built beforehand, but a
// build on this machine takes minutes, so a start that builds after all is not cut short.
const START_TIMEOUT_MS = 900_000;

interface Side {
  name: "baseline" | "current";
  /** The folder its code, dependencies and build are in. */
  root: string;
  commit: string;
  /** Its short commit, with "+changes" when it is this tree and the tree differs from it. */
  label: string;
}

interface Run {
  run: number;
  block: number;
  side: Side["name"];
  commit: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

const git = (args: string[], cwd = ROOT) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

/** Runs a preparation step in `cwd`, its output shown as it comes. */
function step(what: string, command: string, args: string[], cwd: string) {
  console.log(`[paired] ${what}: ${command} ${args.join(" ")} (in ${path.relative(ROOT, cwd) || "."})`);
  // No telemetry from the builds: this machine has no internet to send it to.
  const result = spawnSync(command, args, {
    cwd,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error(`${what} failed (${command} exited ${result.status ?? result.signal})`);
}

const readText = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : undefined);

/** The commit a folder is a git worktree at, or undefined when it is not the top of one. */
function worktreeCommit(folder: string): string | undefined {
  try {
    const [top, head] = git(["rev-parse", "--show-toplevel", "HEAD"], folder).split("\n");
    return top && realpathSync(top) === realpathSync(folder) ? head : undefined;
  } catch {
    return undefined;
  }
}

/** An earlier commit's worktree, dependencies and build, each made only when missing or out of date. */
function prepareCommit(ref: string, name: Side["name"]): Side {
  const commit = git(["rev-parse", "--verify", `${ref}^{commit}`]);
  const short = git(["rev-parse", "--short", commit]);
  const root = path.join(ROOT, ".bench", `baseline-${short}`);
  if (existsSync(root) && worktreeCommit(root) !== commit) {
    console.log(`[paired] ${path.relative(ROOT, root)} is not a worktree at ${short}: making it again`);
    spawnSync("git", ["worktree", "remove", "--force", root], { cwd: ROOT, stdio: "inherit" });
    rmSync(root, { recursive: true, force: true });
  }
  if (!existsSync(root)) {
    mkdirSync(path.dirname(root), { recursive: true });
    git(["worktree", "prune"]);
    step("the baseline's worktree", "git", ["worktree", "add", "--detach", root, commit], ROOT);
  }

  const lock = readFileSync(path.join(root, "package-lock.json"));
  const sameLock = lock.equals(readFileSync(path.join(ROOT, "package-lock.json")));
  const dependencies = `${sameLock ? "linked" : "installed"} ${createHash("sha256").update(lock).digest("hex")}`;
  const dependenciesMarker = path.join(root, "node_modules", ".bench-dependencies");
  if (readText(dependenciesMarker) !== dependencies) {
    rmSync(path.join(root, "node_modules"), { recursive: true, force: true });
    if (sameLock)
      step(
        "the baseline's dependencies (same package-lock.json: hard links)",
        "cp",
        ["-al", path.join(ROOT, "node_modules"), path.join(root, "node_modules")],
        ROOT,
      );
    else
      step(
        "the baseline's dependencies (another package-lock.json)",
        "npm",
        ["ci", "--no-audit", "--no-fund", "--loglevel=error"],
        root,
      );
    writeFileSync(dependenciesMarker, dependencies);
  }

  // Its sources never change (a detached commit): the build is current while it was made from
  // this commit on these dependencies. `next build` empties .next, the marker with it.
  const built = `${commit} ${dependencies}`;
  const buildMarker = path.join(root, ".next", "bench-built");
  if (!existsSync(path.join(root, ".next", "BUILD_ID")) || readText(buildMarker) !== built) {
    step("building the baseline", "npm", ["run", "build"], root);
    writeFileSync(buildMarker, built);
  }
  return { name, root, commit, label: short };
}

/** This tree: built when stale, named by its commit and whether it differs from it. */
function prepareCurrent(): Side {
  if (!buildIsCurrent(ROOT)) step("building the current tree (stale)", "npm", ["run", "build"], ROOT);
  const commit = git(["rev-parse", "HEAD"]);
  const changed = git(["status", "--porcelain"]) !== "";
  return { name: "current", root: ROOT, commit, label: `${commit.slice(0, 7)}${changed ? "+changes" : ""}` };
}

/** A new, empty database on the server, and how to drop it. */
async function freshDatabase(admin: postgres.Sql): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `mps_pair_${randomBytes(6).toString("hex")}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => void (await admin.unsafe(`drop database if exists ${name} with (force)`)),
  };
}

/** Migrates and seeds `url` with the side's own code; the organization's token. */
function seed(side: Side, url: string): string {
  const tsx = path.join(side.root, "node_modules", "tsx", "dist", "loader.mjs");
  const result = spawnSync(process.execPath, ["--import", tsx, SEED_SCRIPT], {
    cwd: side.root,
    env: { ...process.env, BENCH_SEED_DATABASE_URL: url },
    encoding: "utf8",
  });
  for (const line of (result.stdout ?? "").split("\n").reverse()) {
    if (!line.startsWith('{"pairedSeedToken"')) continue;
    const token = (JSON.parse(line) as { pairedSeedToken?: unknown }).pairedSeedToken;
    if (result.status === 0 && typeof token === "string") return token;
  }
  throw new Error(
    `seeding the ${side.name} (${side.label}) failed, exit ${result.status}:\n${result.stdout}\n${result.stderr}`,
  );
}

/** One run: a new database, that side's app on it, warm-up and load, then both gone. */
async function runOnce(admin: postgres.Sql, side: Side, run: number, block: number): Promise<Run> {
  const database = await freshDatabase(admin);
  try {
    const token = seed(side, database.url);
    const app = await startApp(
      {
        DATABASE_URL: database.url,
        // As in the REST bench: the rate limit lifted, the organization's calls queued, not refused.
        RATE_LIMIT: "1000000000",
        ORG_MAX_QUEUED: "1000",
        REDIS_URL: "",
      },
      START_TIMEOUT_MS,
      undefined,
      side.root,
    );
    try {
      const url = `${app.url}${SNAPSHOT}`;
      const headers = { Authorization: `Bearer ${token}` };
      const first = await fetch(url, { headers });
      const body = await first.text();
      if (!first.ok) throw new Error(`${side.name} ${side.label}: ${SNAPSHOT} answered ${first.status}: ${body}`);
      await autocannon({ url, headers, connections: CONNECTIONS, duration: WARM_UP_SECONDS });
      const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS });
      return {
        run,
        block,
        side: side.name,
        commit: side.label,
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors,
      };
    } finally {
      await app.stop();
    }
  } finally {
    await database.drop();
  }
}

const TABLE_HEADER = [
  "run".padStart(4),
  "block".padStart(6),
  "  side".padEnd(13),
  "commit".padEnd(16),
  "req/s".padStart(8),
  "p50".padStart(10),
  "p99".padStart(10),
  "non-2xx".padStart(8),
  "errors".padStart(7),
].join(" ");

const tableRow = (r: Run) =>
  [
    String(r.run).padStart(4),
    String(r.block).padStart(6),
    `  ${r.side === "baseline" ? "A" : "B"} ${r.side}`.padEnd(13),
    r.commit.padEnd(16),
    r.rps.toFixed(0).padStart(8),
    `${r.p50.toFixed(1)} ms`.padStart(10),
    `${r.p99.toFixed(1)} ms`.padStart(10),
    String(r.non2xx).padStart(8),
    String(r.errors).padStart(7),
  ].join(" ");

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? Number.NaN) : mean(sorted.slice(middle - 1, middle + 1));
}

export async function pairedBench(): Promise<void> {
  const ref = process.env.BENCH_BASELINE;
  if (!ref) throw new Error("BENCH_ONLY=paired needs BENCH_BASELINE=<commit-ish>: the earlier build to compare with");
  if (!(PAIRS >= 1)) throw new Error(`BENCH_PAIRS must be 1 or more, not ${process.env.BENCH_PAIRS}`);
  const baseline = prepareCommit(ref, "baseline");
  // BENCH_CURRENT names another earlier commit as the B side: two builds of the history compared (a bisection).
  const current = process.env.BENCH_CURRENT ? prepareCommit(process.env.BENCH_CURRENT, "current") : prepareCurrent();
  const settings = `${SNAPSHOT} (metered), PostgreSQL, ${CONNECTIONS} connections, ${WARM_UP_SECONDS} s warm-up then ${SECONDS} s per run, A/B/B/A × ${PAIRS}`;
  console.log(
    `\nPaired: current ${current.label} (B) against baseline ${baseline.label} (A, BENCH_BASELINE=${ref})\n  ${settings}`,
  );
  console.log(TABLE_HEADER);
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  const runs: Run[] = [];
  try {
    for (let block = 1; block <= PAIRS; block++)
      for (const side of [baseline, current, current, baseline]) {
        const result = await runOnce(admin, side, runs.length + 1, block);
        runs.push(result);
        console.log(tableRow(result));
      }
  } finally {
    await admin.end({ timeout: 5 });
  }

  const blocks = Array.from({ length: PAIRS }, (_, i) => {
    const of = (side: Side["name"]) => runs.filter((r) => r.block === i + 1 && r.side === side).map((r) => r.rps);
    const [a, b] = [of("baseline"), of("current")];
    return { block: i + 1, baseline: a, current: b, ratio: mean(b) / mean(a) };
  });
  const medianRatio = median(blocks.map((b) => b.ratio));
  const rounded = (values: number[]) => values.map((v) => v.toFixed(0)).join(", ");

  console.log(`\nPaired result: current ${current.label} / baseline ${baseline.label}, req/s (${settings})`);
  console.log(TABLE_HEADER);
  for (const r of runs) console.log(tableRow(r));
  for (const b of blocks)
    console.log(
      `  block ${b.block}: current/baseline = ${b.ratio.toFixed(2)}× (B ${rounded(b.current)} over A ${rounded(b.baseline)})`,
    );
  console.log(
    `  median over ${blocks.length} block${blocks.length === 1 ? "" : "s"}: ${medianRatio.toFixed(2)}× — current ${current.commit}${current.label.endsWith("+changes") ? " (+ uncommitted changes)" : ""} against baseline ${baseline.commit}`,
  );
  const unclean = runs.filter((r) => r.non2xx > 0 || r.errors > 0);
  if (unclean.length > 0)
    console.log(`  WARNING: runs ${unclean.map((r) => r.run).join(", ")} had answers other than 2xx or errors`);

  const file = path.join(ROOT, "artifacts", "bench", "paired.json");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        target: SNAPSHOT,
        database: "postgres",
        connections: CONNECTIONS,
        warmUpSeconds: WARM_UP_SECONDS,
        seconds: SECONDS,
        pairs: PAIRS,
        baseline: { ref, commit: baseline.commit, label: baseline.label },
        current: { commit: current.commit, label: current.label },
        runs,
        blocks,
        medianRatio,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`  written to ${path.relative(ROOT, file)}`);
}
