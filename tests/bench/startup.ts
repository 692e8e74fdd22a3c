/**
 * Start: the time from `npm start` on a built tree to the first 200 of /api/health and of a
 * page, on a new embedded folder (migrations and demo data) and again on the same folder.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../helpers/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "loader.mjs");

async function firstOk(url: string, since: number, deadline: number): Promise<number> {
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error(`${url} never answered 200`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function startOnce(dataDir: string): Promise<{ health: number; page: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", TSX, "scripts/start.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATABASE_URL: "", DATA_DIR: dataDir, REDIS_URL: "" },
    stdio: "ignore",
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    const health = await firstOk(`${base}/api/health`, started, started + 120_000);
    const page = await firstOk(`${base}/`, started, started + 120_000);
    return { health, page };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

export async function startupBench(): Promise<{
  fresh: { health: number; page: number };
  again: { health: number; page: number };
}> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "mps-bench-start-"));
  try {
    const fresh = await startOnce(dataDir);
    const again = await startOnce(dataDir);
    return { fresh, again };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
