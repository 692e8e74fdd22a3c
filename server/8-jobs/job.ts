/** What a background job is: its name, schedule, queue options and work. */
import type PgBoss from "pg-boss";
import type { Database } from "../../db/client";

/** What a running job may do besides its own work: queue more jobs. */
export interface JobContext {
  send(name: string, data: object, options?: PgBoss.SendOptions): Promise<string | null>;
}

export interface JobDefinition {
  name: string;
  /** Cron expression for a recurring job, and its time zone (default UTC). */
  cron?: string;
  tz?: string;
  /** The queue's policy and retries (pg-boss); default: standard, no retry. */
  queue?: Omit<PgBoss.Queue, "name">;
  run(db: Database, data: unknown, context: JobContext): Promise<unknown>;
}
