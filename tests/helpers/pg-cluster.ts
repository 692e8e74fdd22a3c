/**
 * A private PostgreSQL server for fault tests: its own data folder and port, so a test can stop
 * and restart it under load without touching the shared server on 5432. Uses Debian's server
 * binaries (the postgresql package); as root it runs them as the `postgres` user, as initdb asks.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./server";

function serverBinaries(): string {
  const root = "/usr/lib/postgresql";
  const version = existsSync(root) ? readdirSync(root).sort().at(-1) : undefined;
  const bin = version ? path.join(root, version, "bin") : "";
  if (!bin || !existsSync(path.join(bin, "pg_ctl")))
    throw new Error("PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)");
  return bin;
}

export interface PgCluster {
  url: string;
  port: number;
  stop(): void;
  start(): void;
  destroy(): void;
}

export async function createPgCluster(): Promise<PgCluster> {
  const bin = serverBinaries();
  const dir = mkdtempSync(path.join(tmpdir(), "mps-pg-"));
  chmodSync(dir, 0o700);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    chownSync(dir, uid, gid);
  }
  const run = (command: string, args: string[]) =>
    execFileSync(
      asRoot ? "runuser" : path.join(bin, command),
      asRoot ? ["-u", "postgres", "--", path.join(bin, command), ...args] : args,
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
  const data = path.join(dir, "data");
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const start = () => run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "server.log"), "-w", "start"]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    // pg_ctl's default ("fast") stop: new connections refused, sessions ended, in-flight work rolled back.
    stop: () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]),
    start,
    destroy: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
