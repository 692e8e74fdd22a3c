/**
 * A fresh, migrated database for one test file: embedded PGlite (in memory) by default, or a new
 * database on the PostgreSQL server of TEST_DATABASE_URL, dropped afterwards.
 */
import { randomBytes } from "node:crypto";
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
