/**
 * The job queue: pg-boss on the service's own database (its tables in the `pgboss` schema), on
 * PostgreSQL and on embedded PGlite alike, through one small executor over the connection the app
 * already has. Every instance runs workers; a job is fetched by one worker (SKIP LOCKED), a
 * schedule sends one job per slot however many instances run it, and jobs survive restarts.
 * Background work never runs on a timer of one process.
 */
import type { PGlite } from "@electric-sql/pglite";
import PgBoss from "pg-boss";
import postgres, { type Sql } from "postgres";
import type { DatabaseHandle } from "../../db/client";
import { errorMessage, log } from "../3-observability/logger";

type Rows = { rows: Record<string, unknown>[] };

/** node-postgres sends an object parameter as JSON and undefined as null; postgres.js wants it said. */
const asParameter = (value: unknown): never => {
  if (value === undefined) return null as never;
  if (value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date))
    return JSON.stringify(value) as never;
  return value as never;
};

/** pg-boss's `executeSql` over our connection: parameters take one statement, none may take several. */
export function sqlExecutor(handle: DatabaseHandle): (text: string, values?: unknown[]) => Promise<Rows> {
  const client = (handle.db as unknown as { $client: unknown }).$client;
  if (handle.config.kind === "postgres") {
    const sql = client as Sql;
    // Several statements (pg-boss's own BEGIN … COMMIT) go as one simple-protocol message on a
    // connection of their own: a one-connection client, which postgres.js lets run a transaction,
    // closed whenever it idles. Not sql.reserve() on the app's pool: a reserve queued while a
    // pooled connection is killed is never settled and its pool slot is lost for good (postgres.js
    // 3.4.9, porsager/postgres#1195); under the fault suite that starved the pool until every
    // query of the instance hung.
    const serial = postgres(handle.config.url, {
      max: 1,
      idle_timeout: 30,
      connect_timeout: 3,
      onnotice: () => {},
      connection: { application_name: "mps-queue" },
    });
    return async (text, values) => {
      if (values && values.length > 0) return { rows: [...(await sql.unsafe(text, values.map(asParameter)))] };
      const result = (await serial.unsafe(text).simple()) as unknown as unknown[];
      // Several statements answer one result each: pg-boss reads the last, as node-postgres gives it.
      const last = Array.isArray(result[0]) || result.length === 0 ? (result.at(-1) ?? []) : result;
      return { rows: [...(last as Record<string, unknown>[])] };
    };
  }
  const pglite = client as PGlite;
  return async (text, values) => {
    if (values && values.length > 0) return { rows: (await pglite.query<Record<string, unknown>>(text, values)).rows };
    const results = await pglite.exec(text);
    return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
  };
}

export interface QueueOptions {
  /** Whether this process fetches and runs jobs (false: it only sends them, e.g. the CLI). */
  work: boolean;
}

/** A started queue on this database. */
export async function startQueue(handle: DatabaseHandle, options: QueueOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    db: { executeSql: sqlExecutor(handle) as PgBoss.Db["executeSql"] },
    schema: "pgboss",
    supervise: options.work,
    schedule: options.work,
    // Completed jobs are kept a week for inspection, then archived and dropped by pg-boss itself.
    deleteAfterDays: 7,
  });
  boss.on("error", (error) => log().error({ error: errorMessage(error) }, "queue: error"));
  await boss.start();
  return boss;
}

/** Sends jobs to the queue from where no worker runs (a dashboard request on any instance). */
export interface JobSender {
  send(name: string, data: object, options?: PgBoss.SendOptions): Promise<string | null>;
}

const senders = new WeakMap<DatabaseHandle, Promise<PgBoss>>();

/** A sender on this database: one send-only queue per handle, started when first used. */
export function jobSender(handle: DatabaseHandle): JobSender {
  return {
    send: async (name, data, options) => {
      let boss = senders.get(handle);
      if (!boss) {
        boss = startQueue(handle, { work: false });
        senders.set(handle, boss);
        boss.catch(() => senders.delete(handle)); // the next send tries again
      }
      return (await boss).send(name, data, options ?? {});
    },
  };
}
