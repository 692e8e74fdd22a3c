/**
 * The app's one database handle, which every surface asks for (REST, MCP, OAuth, the dashboard):
 * opened, migrated and seeded once per process. Kept on
 * globalThis because Next.js may load this module in more than one bundle (instrumentation,
 * route handlers, dev reloads) and PGlite must only be opened once.
 */
import { announceChange, CHANGE_CHANNEL, feedListening, isTopic } from "../../db/change-feed";
import { type DatabaseHandle, databaseConfigFromEnv, openDatabase } from "../../db/client";
import { migrateDatabase } from "../../db/migrate";
import { requestLimits } from "../3-limits/request-limits";
import { errorMessage, log } from "../3-observability/logger";
import { serviceMetrics } from "../3-observability/metrics";
import { seedDemoCatalogue } from "../5-startup/seed";

const state = globalThis as typeof globalThis & { __mpsDatabase?: Promise<DatabaseHandle> };

export function getDatabase(): Promise<DatabaseHandle> {
  if (!state.__mpsDatabase) {
    state.__mpsDatabase = start().catch((error: unknown) => {
      state.__mpsDatabase = undefined; // let the next request try again (e.g. PostgreSQL was down)
      throw error;
    });
  }
  return state.__mpsDatabase;
}

async function start(): Promise<DatabaseHandle> {
  const fromEnv = databaseConfigFromEnv();
  // Requests run under a statement timeout; migrations take their own connection (db/migrate.ts).
  const config =
    fromEnv.kind === "postgres" ? { ...fromEnv, statementTimeoutMs: requestLimits().statementTimeoutMs } : fromEnv;
  // A crashed previous process leaves a lock that goes stale after 10 s: wait for it rather than fail.
  const handle = await openDatabase(config, { lockWaitMs: 15_000 });
  try {
    let seeded = false;
    await migrateDatabase(handle, async (db) => {
      seeded = await seedDemoCatalogue(db);
    });
    await listenForChanges(handle);
    serviceMetrics().watchPool(() => handle.poolUse());
    const where = config.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.dataDir}`;
    log().info(`database ready: ${where}${seeded ? "; seeded the demo catalogue" : ""}`);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Listens for changes other processes make (db/migrations/0005), so the app may cache token
 * holders and release pointers. Without the feed the app still works, uncached.
 */
export async function listenForChanges(handle: DatabaseHandle): Promise<void> {
  try {
    await handle.listen?.(
      CHANGE_CHANNEL,
      (payload) => {
        if (isTopic(payload)) announceChange(payload);
      },
      () => feedListening(handle.db),
    );
  } catch (error) {
    log().warn({ error: errorMessage(error) }, "database: no change feed; caches stay off");
  }
}
