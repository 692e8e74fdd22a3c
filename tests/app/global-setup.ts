/**
 * One running app for the HTTP suites of a run: `npm start` on a fresh database — an empty
 * embedded folder, or a fresh PostgreSQL database when TEST_DATABASE_URL is set — holding the
 * demo catalogue and the account fixtures, created before the app starts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import type { Database } from "@/db/client";
import { mailOutbox } from "@/db/schema";
import { latestSlot, weeklyScheduleFromEnv } from "@/server/2-notifications/week";
import { loadDefinitionFile } from "@/server/3-catalog/load";
import { publishMarket } from "@/server/3-catalog/store";
import { followMarket, updatePreferences } from "@/server/4-following/following";
import { queueWeeklySummaries } from "@/server/4-following/weekly";
import { DEMO_FOLDER } from "@/server/5-startup/seed";
import { type AccountFixtures, createAccountFixtures, fixtureSecrets } from "../helpers/accounts";
import { prepareAppDatabase } from "../helpers/database";
import { FIXTURES, TEST_CA_FILE } from "../helpers/fixtures";
import { generatedMarket } from "../helpers/generated-catalogue";
import { apiCallLines, apiLineProblems, secretsIn } from "../helpers/logs";
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

/**
 * Markets of tests/fixtures published for one project only, beside the demo catalogue (the app
 * suites check the demo's market list, and the size tests' generated market, exactly): the browser suite's names that start like
 * spreadsheet formulas, for its CSV downloads.
 */
const PROJECT_MARKETS: Record<string, string[]> = { browser: ["formula-names.yaml"] };

/**
 * Projects that also hold the generated market of SIZED_MARKET: the app suite's size tests, and the
 * browser suite, which holds every page of it to a height budget (tests/browser/bounded-pages.test.ts).
 */
const SIZED_PROJECTS = new Set(["app", "browser"]);

/** The market of the size tests (tests/app/size.test.ts): 1,000 products × 50 indicators, two releases. */
export const SIZED_MARKET = { marketId: "generated-1000", products: 1000, indicators: 50 };

/**
 * Publishes the generated market of SIZED_MARKET twice as the operator CLI would (the second
 * release re-measures every value, so the comparison of releases has something to say of every
 * product), its sovereign offerings over the demo catalogue's own controls.
 */
async function publishSizedMarket(db: Database) {
  const geographies = await loadDefinitionFile(path.join(DEMO_FOLDER, "geographies.yaml"));
  if (geographies.kind !== "geographies") throw new Error("the demo geographies file is not one");
  const controls = geographies.controls.map((control) => control.id).slice(0, 12);
  for (const seed of [11, 12]) {
    const market = generatedMarket(SIZED_MARKET.products, SIZED_MARKET.indicators, {
      seed,
      marketId: SIZED_MARKET.marketId,
      controls,
    });
    await publishMarket(db, "generated-1000.json", market, {
      notes: `Generated for the size tests (seed ${seed}).`,
      material: false,
      publishedAt: new Date(),
    });
  }
}

/**
 * The browser suite's follower (tests/browser/notifications.test.ts): follows the formula-names
 * market, wants every e-mail, and then a release of it is published — before the app starts, so
 * the app's first fan-out notifies them and mails the dev outbox. The current week's summary is
 * queued too (a quiet week: the one-line note they asked for).
 */
async function prepareFollower(db: Database, accounts: AccountFixtures) {
  const userId = accounts.follower.userId;
  await followMarket(db, userId, "formula-names");
  await updatePreferences(db, userId, { releaseEmails: true, weeklySummary: true, weeklyQuietNote: true });
  await publishFixtureMarket(db, "formula-names.yaml");
  await queueWeeklySummaries(db, latestSlot(new Date(), weeklyScheduleFromEnv({} as NodeJS.ProcessEnv)));
}

/** Publishes a market file of tests/fixtures as the operator CLI would, against the published controls. */
async function publishFixtureMarket(db: Database, fileName: string) {
  const file = path.join(FIXTURES, fileName);
  const definition = await loadDefinitionFile(file);
  if (definition.kind !== "market") throw new Error(`${fileName} is not a market fixture`);
  await publishMarket(db, file, definition, {
    notes: `Test fixture ${fileName}.`,
    material: false,
    publishedAt: new Date(),
  });
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "mps-app-"));
  const database = await prepareAppDatabase(dataDir, async (db) => {
    for (const file of PROJECT_MARKETS[project.name] ?? []) await publishFixtureMarket(db, file);
    if (SIZED_PROJECTS.has(project.name)) await publishSizedMarket(db);
    const accounts = await createAccountFixtures(db);
    if (project.name === "browser") await prepareFollower(db, accounts);
    return accounts;
  });
  const accounts = database.prepared;
  const logFile = path.join(dataDir, "app.log");
  const app = await startApp(
    {
      ...database.env,
      RATE_LIMIT_WINDOW_SECONDS: String(TEST_RATE_LIMIT_WINDOW_SECONDS),
      // CI's PostgreSQL run also counts rate limits in its real Redis.
      REDIS_URL: process.env.TEST_REDIS_URL ?? "",
      // Throttles count per client address, and every test client is 127.0.0.1: each run its own.
      // Races of 100 concurrent calls of one organization test the credits, not the bulkhead: let them queue.
      ORG_MAX_QUEUED: "1000",
      THROTTLE_KEY_PREFIX: `mps:test:${path.basename(dataDir)}`,
      // Client metadata documents served by the tests from this machine, over TLS with a test CA.
      CIMD_ALLOW_PRIVATE_HOSTS: "1",
      NODE_EXTRA_CA_CERTS: TEST_CA_FILE,
      // Webhook receivers run on this machine; their retries come quickly.
      WEBHOOK_ALLOW_PRIVATE_HOSTS: "1",
      WEBHOOK_RETRY_DELAY_SECONDS: "1",
    },
    undefined,
    logFile,
  );
  project.provide("appUrl", app.url);
  project.provide("appLogFile", logFile);
  project.provide("appDatabase", database.url ? "postgres" : "pglite");
  project.provide("appDatabaseUrl", database.url);
  project.provide("accounts", accounts);
  return async () => {
    await app.stop();
    const log = app.output();
    // Whatever ran, no fixture secret and no sign-in link may have reached the log
    // (tests/app/security.test.ts checks it mid-run too; this catches what later suites provoked).
    const links = await database.read(signInLinks);
    const leaked = secretsIn(log, [...fixtureSecrets(accounts), ...links, ...links.map(linkToken)]);
    // Every /v1 and /mcp call of the run is logged with its fields.
    const lines = apiCallLines(log);
    const malformed = lines.flatMap(apiLineProblems);
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
    if (leaked.length > 0) fail(`${leaked.length} secret(s) or sign-in link(s) appear in the app's log`);
    if (lines.length === 0) fail("the app logged no /v1 or /mcp call");
    if (malformed.length > 0)
      fail(`${malformed.length} /v1 or /mcp log line problem(s), first: ${malformed.slice(0, 5).join("; ")}`);
  };
}

/**
 * Fails the run from the teardown: vitest only prints a teardown's error ("error during close")
 * and would still exit 0, so the exit code is set too.
 */
function fail(message: string): never {
  process.exitCode = 1;
  throw new Error(message);
}

/** Every sign-in link the app mailed during the run (the dev outbox table keeps them all). */
async function signInLinks(db: Database): Promise<string[]> {
  const rows = await db.select({ url: mailOutbox.url }).from(mailOutbox);
  return rows.flatMap((row) => (row.url ? [row.url] : []));
}

/** The one-time token of a sign-in link: the secret part, which must not appear even alone. */
const linkToken = (link: string) => new URL(link).searchParams.get("token") ?? link;
