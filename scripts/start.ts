/**
 * `npm start`: builds the app when there is no build or the sources are newer than it, then runs
 * the server (scripts/serve.ts: Next.js on our own HTTP server) on PORT (default 3000).
 * Migrations and demo seeding happen in the server's start-up hook (instrumentation.ts), so no
 * database step is needed here. A configuration the server would refuse (production without
 * SMTP_URL or DEV_OUTBOX=1) is refused before building.
 */
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { appUrlOrExit } from "../server/5-startup/app-url";
import { billingOrExit } from "../server/5-startup/billing";
import { outboxOrExit } from "../server/5-startup/dev-outbox";
import { buildIsCurrent } from "./build-freshness";
import { buildMcpViews } from "./build-mcp-views";

const root = process.cwd();
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const tsxLoader = path.join(root, "node_modules", "tsx", "dist", "loader.mjs");

appUrlOrExit(process.env);
billingOrExit(process.env);
outboxOrExit(process.env);

if (!buildIsCurrent(root)) {
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
