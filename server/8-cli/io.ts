/** Where a CLI command writes, and how it reaches the database; injectable for tests. */
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { DatabaseHandle } from "../../db/client";

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export interface CliContext {
  io: CliIo;
  /** Opens (and migrates) the configured database; the command closes the handle it gets. */
  openDatabase(): Promise<DatabaseHandle>;
  now(): Date;
}

/** Wrong words on the command line: exit code 2 and the usage text. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** `--amount -40` means the value -40 (node's parser would take -40 for an option). */
function withNegativeValues(args: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const next = args[i + 1];
    if (arg.startsWith("--") && !arg.includes("=") && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return joined;
}

/** An option that must be given and not blank, trimmed. */
export function requiredOption(name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value.trim();
}

export function parse<T extends Options>(args: string[], options: T, positionals: number) {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: withNegativeValues(args), options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== positionals)
    throw new UsageError(`expected ${positionals} argument(s), got ${parsed.positionals.length}`);
  return parsed;
}

export async function withDatabase<T>(ctx: CliContext, work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = await ctx.openDatabase();
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}
