/** Starts the app as a real process on a free loopback port, for tests over HTTP. */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { createServer } from "node:net";
import { networkInterfaces } from "node:os";
import path from "node:path";
import { keepLog } from "./captured-logs";

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

/**
 * The app's URL at this machine's own address on a non-loopback interface (the app listens on
 * every interface), or undefined when it has none: a request there comes from that address, not
 * from loopback, so the app sees a remote client.
 */
export function nonLoopbackUrl(appUrl: string): string | undefined {
  const own = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && i.family === "IPv4");
  if (!own) return undefined;
  const url = new URL(appUrl);
  url.hostname = own.address;
  return url.origin;
}

export interface RunningApp {
  url: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
}

/**
 * Runs `npm start` (scripts/start.ts) on a free port, recording what it prints. `root` is the
 * repository folder whose start script, tsx and build run: this one unless told (the paired bench
 * starts an earlier commit's checkout, tests/bench/paired.ts).
 */
async function spawnStart(env: Record<string, string>, logFile?: string, root = ROOT) {
  const port = await freePort();
  const tsxLoader = path.join(root, "node_modules", "tsx", "dist", "loader.mjs");
  const child = spawn(process.execPath, ["--import", tsxLoader, "scripts/start.ts"], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  // Everything the app prints, also to a file when asked (suites read it: secrets never logged).
  // Not to the test output: printed for a failing test, or as it comes with TEST_SHOW_LOGS=1.
  const record = (chunk: Buffer) => {
    log += chunk;
    if (logFile) appendFileSync(logFile, chunk);
    keepLog(`the app on port ${port}`, chunk.toString("utf8"));
  };
  child.stdout?.on("data", record);
  child.stderr?.on("data", record);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { port, child, exited, log: () => log };
}

/** Runs `npm start` expecting it to refuse to start: its exit code and everything it printed. */
export async function startRefused(
  env: Record<string, string>,
  timeoutMs = 240_000,
): Promise<{ code: number | null; output: string }> {
  const { child, exited, log } = await spawnStart(env);
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const code = await exited;
  clearTimeout(timer);
  return { code, output: log() };
}

/**
 * Runs `npm start` (scripts/start.ts: build if needed, then the server) and waits until healthy;
 * in another checkout of the repository when `root` names one.
 */
export async function startApp(
  env: Record<string, string>,
  timeoutMs = 240_000,
  logFile?: string,
  root?: string,
): Promise<RunningApp> {
  const { port, child, exited, log: output } = await spawnStart(env, logFile, root);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the app was not healthy within ${timeoutMs} ms:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    process: child,
    output,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Several instances of the app on the same settings, one after the other (the first may build). */
export async function startInstances(count: number, env: Record<string, string>): Promise<RunningApp[]> {
  const apps: RunningApp[] = [];
  for (let i = 0; i < count; i++) apps.push(await startApp(env));
  return apps;
}
