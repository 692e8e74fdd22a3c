/** Runs the operator CLI in this process against a test database; returns exit code and output. */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import type { DatabaseHandle } from "@/db/client";
import { runCli } from "@/server/8-cli/run";
import { FIXTURES } from "./fixtures";

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

// biome-ignore lint/suspicious/noExplicitAny: each case reaches into the parsed YAML freely
export type Yaml = Record<string, any>;

/** tests/fixtures/market.yaml with one change, written to `dir` as NAME.yaml; returns its path. */
export function marketVariant(dir: string, name: string, change: (market: Yaml) => void): string {
  const market = parseYaml(readFileSync(path.join(FIXTURES, "market.yaml"), "utf8"));
  change(market);
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, stringifyYaml(market));
  return file;
}
