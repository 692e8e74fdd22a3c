/**
 * Opens the database the configuration names: PostgreSQL through postgres.js when DATABASE_URL is
 * set, else embedded PGlite in the data folder. PGlite is one connection in one process, so its
 * folder is locked while open: a second process (the CLI beside the running app) fails fast with
 * a clear message instead of corrupting it.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import lockfile from "proper-lockfile";
import { noteDatabaseFault } from "./faults";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** How the database's connections are used, as far as the driver lets us see (the metrics report it). */
export interface PoolUse {
  database: "postgres" | "pglite";
  /** Connections the pool may open. */
  max: number;
  /** Connections open now. */
  open: number;
  /** Connections running a statement now; null where it cannot be known. */
  inUse: number | null;
}
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type DatabaseConfig =
  | {
      kind: "postgres";
      url: string;
      maxConnections?: number;
      /** statement_timeout of every connection (ms): no statement outlives it. Unset: none (the CLI). */
      statementTimeoutMs?: number;
    }
  | { kind: "pglite"; dataDir: string | null /* null: in memory, for tests */ };

export interface DatabaseHandle {
  db: Database;
  config: DatabaseConfig;
  close(): Promise<void>;
  /**
   * LISTEN on a channel: `onNotify` gets each payload; `onListen` runs once listening, and again
   * after every reconnection (notifications sent meanwhile are lost). Resolves to unlisten.
   */
  listen?(channel: string, onNotify: (payload: string) => void, onListen: () => void): Promise<() => Promise<void>>;
  /** How the connections are used now (for /metrics). */
  poolUse(): Promise<PoolUse>;
}

/** PGlite is one connection in this process, open while the handle is; it has no pool to watch. */
const pglitePoolUse = async (): Promise<PoolUse> => ({ database: "pglite", max: 1, open: 1, inUse: null });

/**
 * The application_name of this process's PostgreSQL connections: unique, so pg_stat_activity
 * tells its connections from other instances' (PostgreSQL keeps 63 bytes of it).
 */
function applicationName(env: NodeJS.ProcessEnv = process.env): string {
  const suffix = ` ${process.pid}-${randomBytes(3).toString("hex")}`;
  return (env.PGAPPNAME || "market-positioning").slice(0, 63 - suffix.length) + suffix;
}

type PgliteClient = InstanceType<typeof PGlite>;

/** PGlite delivers NOTIFY in process, from the one connection there is: it never reconnects. */
function pgliteListen(client: PgliteClient): NonNullable<DatabaseHandle["listen"]> {
  return async (channel, onNotify, onListen) => {
    const unlisten = await client.listen(channel, onNotify);
    onListen();
    return () => unlisten();
  };
}

export class DatabaseInUseError extends Error {
  constructor(dataDir: string) {
    super(
      `The embedded database in ${dataDir} is in use by another process (is the app running?). ` +
        "Stop that process, or set DATABASE_URL to use PostgreSQL, which many processes can share.",
    );
    this.name = "DatabaseInUseError";
  }
}

/** The project's data folder: DATA_DIR, else `.data` in the working directory (git-ignored). */
export function dataFolder(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR || ".data");
}

export function databaseConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseConfig {
  if (env.DATABASE_URL) return { kind: "postgres", url: env.DATABASE_URL };
  return { kind: "pglite", dataDir: path.join(dataFolder(env), "pglite") };
}

export interface OpenOptions {
  /** How long to wait for the embedded folder's lock, e.g. for a crashed holder's lock to go stale. */
  lockWaitMs?: number;
  /**
   * Embedded only: a tarball of a data folder (PGlite's dumpDataDir) to start an empty database
   * from, instead of PGlite's initdb. The test suites start each database from one migrated copy:
   * initdb is most of the three seconds a new embedded database costs.
   */
  loadDataDir?: Blob;
}

export async function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Promise<DatabaseHandle> {
  if (config.kind === "postgres") {
    const max = config.maxConnections ?? 10;
    const name = applicationName();
    const client = postgres(config.url, {
      max,
      connection: {
        application_name: name,
        ...(config.statementTimeoutMs ? { statement_timeout: config.statementTimeoutMs } : {}),
      },
      onnotice: () => {},
      // When the server is down, fail fast so calls answer 503 at once: postgres.js would otherwise
      // hold queued queries through a reconnect backoff that grows to 20 s (seen in the fault suite).
      connect_timeout: 3,
      backoff: (retries: number) => Math.min(0.05 * retries, 0.25),
      // A pooled connection lost (killed, the server gone) is a fault pages should answer 503 for.
      onclose: () => noteDatabaseFault(),
    });
    return {
      db: drizzlePostgres({ client, schema }),
      config,
      close: () => client.end({ timeout: 5 }),
      // postgres.js keeps a connection for LISTEN, reconnects it, and calls onListen each time.
      listen: async (channel, onNotify, onListen) => (await client.listen(channel, onNotify, onListen)).unlisten,
      // postgres.js does not expose its pool, so PostgreSQL says: this process's connections
      // (the change feed's LISTEN one included), and those running a statement besides this one.
      poolUse: async () => {
        const [row] = await client<{ open: number; inUse: number }[]>`
          select count(*)::int as open,
                 (count(*) filter (where state is distinct from 'idle' and pid <> pg_backend_pid()))::int as "inUse"
          from pg_stat_activity where application_name = ${name}`;
        return { database: "postgres", max, open: row?.open ?? 0, inUse: row?.inUse ?? 0 };
      },
    };
  }

  if (config.dataDir === null) {
    const client = new PGlite({ loadDataDir: options.loadDataDir });
    await client.waitReady;
    return {
      db: drizzlePglite({ client, schema }),
      config,
      close: () => client.close(),
      listen: pgliteListen(client),
      poolUse: pglitePoolUse,
    };
  }

  const dataDir = config.dataDir;
  mkdirSync(dataDir, { recursive: true });
  const release = await lockDataDir(dataDir, options.lockWaitMs ?? 0);
  try {
    // A folder that already holds a database is opened as it is; a tarball only fills an empty one.
    const fresh = options.loadDataDir && !existsSync(path.join(dataDir, "PG_VERSION"));
    const client = new PGlite(dataDir, fresh ? { loadDataDir: options.loadDataDir } : {});
    await client.waitReady;
    return {
      db: drizzlePglite({ client, schema }),
      config,
      close: async () => {
        await client.close();
        await release();
      },
      listen: pgliteListen(client),
      poolUse: pglitePoolUse,
    };
  } catch (error) {
    await release();
    throw error;
  }
}

const STALE_MS = 10_000;

async function lockDataDir(dataDir: string, waitMs: number): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: `${dataDir}.lock`,
      realpath: false,
      stale: STALE_MS,
      retries: waitMs > 0 ? { retries: Math.ceil(waitMs / 500), minTimeout: 500, maxTimeout: 500, factor: 1 } : 0,
      onCompromised: (error) => {
        // Another process took the folder over (e.g. this one was frozen past the stale time).
        console.error(`[db] lock on ${dataDir} compromised: ${error.message}`);
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOCKED") throw new DatabaseInUseError(dataDir);
    throw error;
  }
}
