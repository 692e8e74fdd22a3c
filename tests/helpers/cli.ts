/** Runs the operator CLI in this process against a test database; returns exit code and output. */
import type { DatabaseHandle } from "@/db/client";
import { runCli } from "@/server/cli/run";

export async function runOps(database: DatabaseHandle, argv: string[], now = new Date("2026-06-01T12:00:00Z")) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    io: { out: (line) => out.push(line), err: (line) => err.push(line) },
    openDatabase: async () => ({ ...database, close: async () => {} }),
    now: () => now,
  });
  return { code, out, stdout: out.join("\n"), stderr: err.join("\n") };
}
