/**
 * A fresh, migrated database for one test file: embedded PGlite (in memory) by default, or a new
 * database on the PostgreSQL server of TEST_DATABASE_URL, dropped afterwards.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll } from "vitest";
import { type Database, type DatabaseHandle, openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { seedDemoCatalogue } from "@/server/5-startup/seed";
import { sessionCaller } from "@/server/6-auth/session-caller";
import { createApiContext } from "@/server/7-procedures/context";
import { createCaller } from "@/server/7-routers/root";
import { migratedTemplate } from "./database-template";

export const testServerUrl = process.env.TEST_DATABASE_URL;
export const testDatabaseKind = testServerUrl ? "postgres" : "pglite";

export interface TestDatabase extends DatabaseHandle {
  /** The connection URL of this database, when it is on PostgreSQL (for child processes). */
  url?: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (!testServerUrl) {
    const handle = await openDatabase({ kind: "pglite", dataDir: null }, { loadDataDir: await migratedTemplate() });
    // Migrated already (the template): proves the app's own migration step finds nothing to do.
    await migrateDatabase(handle);
    return { ...handle, drop: () => handle.close() };
  }
  const name = `mps_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(testServerUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(testServerUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: "postgres", url: url.toString() });
  await migrateDatabase(handle);
  return {
    ...handle,
    url: url.toString(),
    drop: async () => {
      await handle.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * The test file's database, in one line: made before its tests (with the demo catalogue when
 * `seeded`), dropped after them. Hooks the file registers after this line run after it, so they
 * find it made.
 *
 *   const database = testDatabase({ seeded: true });
 *   it("reads", async () => { await database.db.select()… });
 */
export function testDatabase(options: { seeded?: boolean } = {}): TestDatabase {
  // Filled in place when made: a plain object, so it can be spread and passed like any handle.
  const database = {} as TestDatabase;
  beforeAll(async () => {
    Object.assign(database, await createTestDatabase());
    if (options.seeded) await seedDemoCatalogue(database.db);
  }, 120_000);
  afterAll(async () => {
    await database.drop?.();
  });
  return database;
}

/** A database prepared for an app under test, before the app starts on it. */
export interface AppDatabase<T> {
  prepared: T;
  /** What the app needs to find it: DATABASE_URL (empty: embedded) and DATA_DIR. */
  env: { DATABASE_URL: string; DATA_DIR: string };
  /** The PostgreSQL database's URL, or "" for the embedded one. */
  url: string;
  /** Reads it once the app has stopped (the embedded folder takes one process at a time). */
  read<R>(reading: (db: Database) => Promise<R>): Promise<R>;
  /** Removes a PostgreSQL database once the app has stopped (the embedded one goes with DATA_DIR). */
  drop(): Promise<void>;
}

/**
 * The database an app under test will run on: a new database on TEST_DATABASE_URL's server, or an
 * embedded one in `<dataDir>/pglite` started from the migrated template, holding the demo
 * catalogue and whatever `prepare` writes. The embedded one is closed before this returns: the app
 * cannot open it while this process holds it.
 */
export async function prepareAppDatabase<T>(
  dataDir: string,
  prepare: (db: Database) => Promise<T>,
): Promise<AppDatabase<T>> {
  const postgres = testServerUrl ? await createTestDatabase() : undefined;
  const handle =
    postgres ??
    (await openDatabase(
      { kind: "pglite", dataDir: path.join(dataDir, "pglite") },
      { loadDataDir: await migratedTemplate() },
    ));
  let prepared: T;
  try {
    if (!postgres) await migrateDatabase(handle);
    await seedDemoCatalogue(handle.db);
    prepared = await prepare(handle.db);
  } catch (error) {
    await postgres?.drop();
    throw error;
  } finally {
    if (!postgres) await handle.close();
  }
  return {
    prepared,
    env: { DATABASE_URL: postgres?.url ?? "", DATA_DIR: dataDir },
    url: postgres?.url ?? "",
    read: async (reading) => {
      if (postgres) return reading(postgres.db);
      const embedded = await openDatabase(
        { kind: "pglite", dataDir: path.join(dataDir, "pglite") },
        { lockWaitMs: 15_000 },
      );
      try {
        return await reading(embedded.db);
      } finally {
        await embedded.close();
      }
    },
    drop: async () => {
      await postgres?.drop();
    },
  };
}

/** Every row of every catalogue table, in a stable order: to prove a refused command wrote nothing. */
export async function dumpCatalogue(handle: DatabaseHandle): Promise<string> {
  const tables = ["controls", "geographies", "geography_controls", "markets", "releases", "release_country_results"];
  const dump: Record<string, unknown> = {};
  for (const table of tables) {
    // PGlite answers { rows }, postgres.js an array of rows.
    const result = (await handle.db.execute(`select * from ${table} order by 1, 2`)) as unknown;
    dump[table] = Array.isArray(result) ? [...result] : (result as { rows: unknown[] }).rows;
  }
  return JSON.stringify(dump);
}

/** A tRPC caller acting as a signed-in person, as the dashboard builds one, straight on `db`. */
export async function dashboardCallerAs(db: Database, userId: string, headers: HeadersInit = {}) {
  const caller = await sessionCaller(db, userId);
  return createCaller(
    createApiContext({
      db,
      headers: new Headers(headers),
      requestId: "test",
      origin: "http://dashboard.test",
      authenticate: async () => caller,
    }),
  );
}
