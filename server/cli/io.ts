/** Where a CLI command writes, and how it reaches the database; injectable for tests. */
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
