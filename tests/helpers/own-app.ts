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
import type { Database } from "@/db/client";
import { prepareAppDatabase } from "./database";
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
  const database = await prepareAppDatabase(dataDir, prepare);
  const app = await startApp({
    REDIS_URL: "",
    CIMD_ALLOW_PRIVATE_HOSTS: "0",
    WEBHOOK_ALLOW_PRIVATE_HOSTS: "0",
    APP_URL: "",
    TRUST_PROXY: "",
    DNS_SERVERS: "",
    THROTTLE_KEY_PREFIX: `mps:test:${path.basename(dataDir)}`,
    ...env,
    ...database.env,
  });
  return {
    ...app,
    prepared: database.prepared,
    databaseUrl: database.url,
    close: async () => {
      await app.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
