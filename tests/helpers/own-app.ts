/**
 * An app of a test file's own, for settings the shared app of the run does not have (no private
 * hosts allowed, a resolver of the test's, tight download caps…): `npm start` on a fresh database
 * — an embedded folder, or a new database on TEST_DATABASE_URL's server — holding the demo
 * catalogue and whatever `prepare` writes before the app starts (the embedded database cannot be
 * opened while the app holds it).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Database, openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { seedDemoCatalogue } from "@/server/5-startup/seed";
import { createTestDatabase } from "./database";
import { migratedTemplate } from "./database-template";
import { type RunningApp, startApp } from "./server";

export interface OwnApp<T> extends RunningApp {
  prepared: T;
  /** The app's PostgreSQL database URL, or "" on the embedded one. */
  databaseUrl: string;
  /** Stops the app and removes its database. */
  close(): Promise<void>;
}

export async function startOwnApp<T>(
  env: Record<string, string>,
  prepare: (db: Database) => Promise<T>,
): Promise<OwnApp<T>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "mps-own-app-"));
  const postgres = process.env.TEST_DATABASE_URL ? await createTestDatabase() : undefined;
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
  } finally {
    if (!postgres) await handle.close();
  }
  const app = await startApp({
    REDIS_URL: "",
    CIMD_ALLOW_PRIVATE_HOSTS: "0",
    WEBHOOK_ALLOW_PRIVATE_HOSTS: "0",
    APP_URL: "",
    TRUST_PROXY: "",
    DNS_SERVERS: "",
    THROTTLE_KEY_PREFIX: `mps:test:${path.basename(dataDir)}`,
    ...env,
    ...(postgres?.url ? { DATABASE_URL: postgres.url, DATA_DIR: dataDir } : { DATABASE_URL: "", DATA_DIR: dataDir }),
  });
  return {
    ...app,
    prepared,
    databaseUrl: postgres?.url ?? "",
    close: async () => {
      await app.stop();
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
