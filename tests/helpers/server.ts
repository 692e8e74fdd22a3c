/** Starts the app as a real process on a free loopback port, for tests over HTTP. */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export interface RunningApp {
  url: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
}

/** Runs `npm start` (scripts/start.ts: build if needed, then next start) and waits until healthy. */
export async function startApp(
  env: Record<string, string>,
  timeoutMs = 240_000,
  logFile?: string,
): Promise<RunningApp> {
  const port = await freePort();
  const tsxLoader = path.join(ROOT, "node_modules", "tsx", "dist", "loader.mjs");
  const child = spawn(process.execPath, ["--import", tsxLoader, "scripts/start.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  // Everything the app prints, also to a file when asked (suites read it: secrets never logged).
  const record = (chunk: Buffer) => {
    log += chunk;
    if (logFile) appendFileSync(logFile, chunk);
  };
  child.stdout?.on("data", record);
  child.stderr?.on("data", record);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}:\n${log}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the app was not healthy within ${timeoutMs} ms:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    process: child,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
