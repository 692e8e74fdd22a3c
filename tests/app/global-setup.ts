/**
 * One running app for the HTTP suites of a run: `npm start` on a fresh database — an empty
 * embedded folder, or a fresh PostgreSQL database when TEST_DATABASE_URL is set.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createTestDatabase } from "../helpers/database";
import { startApp } from "../helpers/server";

declare module "vitest" {
  export interface ProvidedContext {
    appUrl: string;
    appDatabase: "pglite" | "postgres";
  }
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "mps-app-"));
  const postgres = process.env.TEST_DATABASE_URL ? await createTestDatabase() : undefined;
  const app = await startApp(postgres?.url ? { DATABASE_URL: postgres.url } : { DATABASE_URL: "", DATA_DIR: dataDir });
  project.provide("appUrl", app.url);
  project.provide("appDatabase", postgres ? "postgres" : "pglite");
  return async () => {
    await app.stop();
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
