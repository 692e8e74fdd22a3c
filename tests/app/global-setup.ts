/**
 * One running app for the HTTP suites of a run: `npm start` on a fresh database — an empty
 * embedded folder, or a fresh PostgreSQL database when TEST_DATABASE_URL is set — holding the
 * demo catalogue and the account fixtures, created before the app starts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { seedDemoCatalogue } from "@/db/seed";
import { type AccountFixtures, createAccountFixtures, fixtureSecrets } from "../helpers/accounts";
import { createTestDatabase } from "../helpers/database";
import { startApp } from "../helpers/server";

declare module "vitest" {
  export interface ProvidedContext {
    appUrl: string;
    appDatabase: "pglite" | "postgres";
    /** Everything the app has printed so far (stdout and stderr). */
    appLogFile: string;
    /** The app's PostgreSQL database, for suites that check rows directly; "" on PGlite. */
    appDatabaseUrl: string;
    accounts: AccountFixtures;
  }
}

/** The window of the app's rate limit: short, so the suite can see one reset. */
export const TEST_RATE_LIMIT_WINDOW_SECONDS = 2;

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "mps-app-"));
  const postgres = process.env.TEST_DATABASE_URL ? await createTestDatabase() : undefined;
  const handle = postgres ?? (await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") }));
  let accounts: AccountFixtures;
  try {
    if (!postgres) await migrateDatabase(handle);
    await seedDemoCatalogue(handle.db);
    accounts = await createAccountFixtures(handle.db);
  } finally {
    if (!postgres) await handle.close();
  }
  const logFile = path.join(dataDir, "app.log");
  const app = await startApp(
    {
      ...(postgres?.url ? { DATABASE_URL: postgres.url } : { DATABASE_URL: "", DATA_DIR: dataDir }),
      RATE_LIMIT_WINDOW_SECONDS: String(TEST_RATE_LIMIT_WINDOW_SECONDS),
      // CI's PostgreSQL run also counts rate limits in its real Redis.
      REDIS_URL: process.env.TEST_REDIS_URL ?? "",
    },
    undefined,
    logFile,
  );
  project.provide("appUrl", app.url);
  project.provide("appLogFile", logFile);
  project.provide("appDatabase", postgres ? "postgres" : "pglite");
  project.provide("appDatabaseUrl", postgres?.url ?? "");
  project.provide("accounts", accounts);
  return async () => {
    await app.stop();
    // Whatever ran, no fixture secret may have reached the log (tests/app/security.test.ts checks
    // it mid-run too; this catches what later suites provoked).
    const leaked = fixtureSecrets(accounts).filter((secret) => app.output().includes(secret));
    if (leaked.length > 0) throw new Error(`${leaked.length} fixture secret(s) appear in the app's log`);
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
