/**
 * The log's stdout (server/3-observability/log-buffer.ts) in a real process: lines are gathered and
 * written in batches, so this checks what that must not cost — a line written soon while the
 * process runs, every line written when it exits at once (process.exit, an uncaught exception),
 * in order, whole — and what bounds it: a stdout nobody reads drops lines past LOG_BUFFER_BYTES
 * and says so, without blocking the process.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOG_EXIT_WAIT_MS } from "@/server/3-observability/log-buffer";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "loader.mjs");

/** Runs `script` (TypeScript, with the app's log) in a new Node process; what it printed and how it ended. */
function run(script: string, env: Record<string, string> = {}, readStdout = true) {
  const child = spawn(process.execPath, ["--import", TSX, "--input-type=module", "-e", script], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const reading = () => child.stdout.on("data", (chunk) => (stdout += chunk));
  if (readStdout) reading();
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return { child, exited, reading, out: () => stdout, err: () => stderr };
}

const LOGGER = `import { log, accessLog } from "${path.join(ROOT, "server/3-observability/logger.ts")}";`;

describe("the log's stdout", () => {
  it("writes every line, in order and whole, when the process exits at once", async () => {
    const script = `${LOGGER}
      for (let i = 0; i < 20000; i++) (i % 2 ? log() : accessLog()).info({ i, text: "ünïcode ☃ ".repeat(5) }, "line");
      process.exit(3);`;
    const child = run(script);
    expect(await child.exited).toBe(3);
    const lines = child.out().trim().split("\n");
    expect(lines).toHaveLength(20000);
    expect(lines.map((line) => JSON.parse(line).i)).toEqual(Array.from({ length: 20000 }, (_, i) => i));
  });

  it("writes a line soon after it is logged, while the process goes on", async () => {
    const script = `${LOGGER}
      log().info({ first: true }, "line");
      setTimeout(() => accessLog().info({ second: true }, "line"), 300);
      setInterval(() => undefined, 1000);`;
    const child = run(script);
    try {
      await expect.poll(() => child.out().trim().split("\n").filter(Boolean).length, { timeout: 5_000 }).toBe(2);
    } finally {
      child.child.kill("SIGKILL");
    }
  });

  it("writes what waits when an uncaught exception ends the process", async () => {
    const script = `${LOGGER}
      for (let i = 0; i < 5000; i++) log().info({ i }, "line");
      setImmediate(() => { throw new Error("boom"); });`;
    const child = run(script);
    expect(await child.exited).not.toBe(0);
    expect(child.out().trim().split("\n")).toHaveLength(5000);
    expect(child.err()).toContain("boom");
  });

  it("writes what waits when the process ends while a write is still on its way", async () => {
    // The one thread of libuv's pool is busy (a slow key derivation), as on a loaded machine: a
    // write handed to the pool has not run when the exception ends the process.
    const script = `${LOGGER}
      import { pbkdf2 } from "node:crypto";
      pbkdf2("p", "s", 3_000_000, 32, "sha256", () => undefined);
      for (let i = 0; i < 5000; i++) log().info({ i }, "line");
      setImmediate(() => { throw new Error("boom"); });`;
    const child = run(script, { UV_THREADPOOL_SIZE: "1" });
    expect(await child.exited).not.toBe(0);
    const lines = child.out().trim().split("\n");
    expect(lines.map((line) => JSON.parse(line).i)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(child.err()).toContain("boom");
  });

  it("drops lines past LOG_BUFFER_BYTES when stdout is not read, and says so", async () => {
    // 4,000 lines of about 1 KiB: far past a 64 KiB pipe and the 256 KiB buffer allowed.
    const script = `${LOGGER}
      const text = "x".repeat(1000);
      for (let i = 0; i < 4000; i++) log().info({ i, text }, "line");
      process.stderr.write("logged\\n");
      setTimeout(() => process.exit(0), 200);`;
    const child = run(script, { LOG_BUFFER_BYTES: String(256 * 1024) }, false);
    await expect.poll(() => child.err(), { timeout: 20_000 }).toContain("logged");
    child.reading();
    expect(await child.exited).toBe(0);
    const lines = child.out().trim().split("\n");
    expect(lines.length).toBeGreaterThan(100);
    expect(lines.length).toBeLessThan(4000);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(child.err()).toMatch(/stdout is not keeping up: \d+ log line\(s\) dropped so far/);
  });

  it("gives up on a stdout nobody reads a few seconds into the exit, and says so", async () => {
    // About 1 MiB: far past the pipe, within the buffer allowed; nobody ever reads stdout.
    const script = `${LOGGER}
      const text = "x".repeat(1000);
      for (let i = 0; i < 1000; i++) log().info({ i, text }, "line");
      process.exit(0);`;
    const child = run(script, {}, false);
    const started = Date.now();
    expect(await child.exited).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LOG_EXIT_WAIT_MS);
    expect(child.err()).toMatch(/stdout did not take the last \d+ byte\(s\) of the log before exit/);
  });

  it("goes on when stdout and stderr both fail, as `> app.log 2>&1` on a full disk", async () => {
    // Both on /dev/full (every write: ENOSPC); fd 3 is where the script says how far it got.
    const script = `${LOGGER}
      import { writeSync } from "node:fs";
      log().info("one line");
      setTimeout(() => {
        for (let i = 0; i < 3000; i++) log().info({ i }, "line");
        setTimeout(() => { writeSync(3, "alive\\n"); process.exit(7); }, 400);
      }, 400);`;
    const full = openSync("/dev/full", "w");
    try {
      const child = spawn(process.execPath, ["--import", TSX, "--input-type=module", "-e", script], {
        cwd: ROOT,
        env: { ...process.env, LOG_LEVEL: "info" },
        stdio: ["ignore", full, full, "pipe"],
      });
      let said = "";
      child.stdio[3]?.on("data", (chunk) => (said += chunk));
      const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
      expect(said).toBe("alive\n");
      expect(code).toBe(7);
    } finally {
      closeSync(full);
    }
  });
});
