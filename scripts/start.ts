/**
 * `npm start`: builds the app when there is no build or the sources are newer than it, then runs
 * the server (scripts/serve.ts: Next.js on our own HTTP server) on PORT (default 3000).
 * Migrations and demo seeding happen in the server's start-up hook (instrumentation.ts), so no
 * database step is needed here. A configuration the server would refuse (production without
 * SMTP_URL or DEV_OUTBOX=1) is refused before building.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { appUrlOrExit } from "../server/startup/app-url";
import { billingOrExit } from "../server/startup/billing";
import { outboxOrExit } from "../server/startup/dev-outbox";
import { buildMcpViews, VIEW_OUTPUT } from "./build-mcp-views";

const root = process.cwd();
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const tsxLoader = path.join(root, "node_modules", "tsx", "dist", "loader.mjs");
const SOURCES = [
  "app",
  "server",
  "db",
  "components",
  "instrumentation.ts",
  "next.config.ts",
  "package-lock.json",
  "tsconfig.json",
];
const BUILT_FROM = /\.(tsx?|css|json|html)$/;

function newestSourceTime(entry: string): number {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return BUILT_FROM.test(entry) ? stat.mtimeMs : 0;
  return readdirSync(full).reduce((newest, name) => Math.max(newest, newestSourceTime(path.join(entry, name))), 0);
}

function buildIsCurrent(): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return false;
  const builtAt = statSync(buildId).mtimeMs;
  if (!existsSync(VIEW_OUTPUT)) return false;
  return SOURCES.every((entry) => newestSourceTime(entry) <= builtAt);
}

appUrlOrExit(process.env);
billingOrExit(process.env);
outboxOrExit(process.env);

if (!buildIsCurrent()) {
  console.log("[start] building the app (MCP views, then next build)…");
  await buildMcpViews();
  const build = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit" });
  if (build.status !== 0) {
    console.error("[start] the build failed; not starting");
    process.exit(build.status ?? 1);
  }
}

// The IPC channel is how the server notices this process die (instrumentation.ts exits with it).
// CPU_PROFILE_DIR: the server writes a V8 CPU profile there when it exits (npm run bench:profile).
const profile = process.env.CPU_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.CPU_PROFILE_DIR}`] : [];
const server = spawn(process.execPath, [...profile, "--import", tsxLoader, path.join(root, "scripts", "serve.ts")], {
  stdio: ["inherit", "inherit", "inherit", "ipc"],
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
