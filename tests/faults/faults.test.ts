/**
 * Faults under load, against the real app: PostgreSQL stopped mid-load (calls answer 503
 * `unavailable` quickly, the app recovers by itself when the server is back), and the app killed
 * mid-load (on restart the balance equals the ledger), on PostgreSQL and on embedded PGlite.
 * Throughout, no ledger row exists without its 200 response and no 200 without its ledger row.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { queryRows } from "@/db/rows";
import { demoCatalogueWithOrganization, type FixtureOrganization } from "../helpers/accounts";
import { createPgCluster, type PgCluster } from "../helpers/pg-cluster";
import { type RunningApp, startApp } from "../helpers/server";
import { percentile } from "../helpers/stats";

const CREDITS = 10_000_000;
const WORKERS = 8;
const SNAPSHOT = "/v1/markets/foundation-model-apis/snapshot";

interface Answer {
  status: number;
  code?: string;
  requestId: string;
  cost: number;
  ms: number;
  /** When it was sent, ms since the load began. */
  at: number;
}

/** WORKERS clients calling the snapshot back to back until stopped; every answer is kept. */
function load(url: string, token: string) {
  const answers: Answer[] = [];
  const failures: string[] = [];
  let running = true;
  const began = performance.now();
  const worker = async () => {
    while (running) {
      const at = performance.now();
      try {
        const response = await fetch(`${url}${SNAPSHOT}`, {
          headers: { Authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(15_000),
        });
        const text = await response.text();
        const body = response.status >= 400 ? JSON.parse(text) : undefined;
        answers.push({
          status: response.status,
          code: body?.code,
          requestId: response.headers.get("x-request-id") ?? "",
          cost: Number(response.headers.get("x-credits-cost") ?? 0),
          ms: performance.now() - at,
          at: at - began,
        });
      } catch (error) {
        failures.push(String(error)); // the app went away (killed): no answer at all
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const workers = Array.from({ length: WORKERS }, worker);
  return {
    answers,
    failures,
    count: (predicate: (a: Answer) => boolean) => answers.filter(predicate).length,
    /** Answers so far by status and code, and the first failures: what a timeout reports. */
    summary: () => ({
      answers: Object.entries(
        answers.reduce<Record<string, number>>((acc, a) => {
          const key = `${a.status}${a.code ? ` ${a.code}` : ""}`;
          acc[key] = (acc[key] ?? 0) + 1;
          return acc;
        }, {}),
      ),
      failures: failures.slice(0, 3),
    }),
    stop: async () => {
      running = false;
      await Promise.all(workers);
    },
  };
}

/** SIGKILL of the server process itself (scripts/serve.ts, the child of `npm start`): a crash, no clean-up. */
async function crash(app: RunningApp) {
  const children = execFileSync("pgrep", ["-P", String(app.process.pid)])
    .toString()
    .trim()
    .split(/\s+/);
  for (const pid of children) process.kill(Number(pid), "SIGKILL");
  await app.stop();
}

const until = async (condition: () => boolean, timeoutMs: number, state: () => unknown = () => "") => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met in time: ${JSON.stringify(state())}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** Balance, ledger sum and the debits by request id, read straight from the tables. */
async function books(handle: DatabaseHandle, organizationId: string) {
  const [row] = await queryRows<{ balance: number; ledger: number }>(
    handle.db,
    sql`select credit_balance as balance,
          (select coalesce(sum(amount), 0)::int from credit_ledger where organization_id = ${organizationId}) as ledger
        from organizations where id = ${organizationId}`,
  );
  const debits = await queryRows<{ request_id: string; amount: number }>(
    handle.db,
    sql`select request_id, amount from credit_ledger where organization_id = ${organizationId} and kind = 'debit'`,
  );
  return {
    balance: Number(row?.balance),
    ledger: Number(row?.ledger),
    debits: new Map(debits.map((d) => [d.request_id, -Number(d.amount)])),
  };
}

/** Every 200 has its ledger row at its price, and every ledger row belongs to a 200 we saw. */
function expectOneRowPerSuccess(answers: Answer[], debits: Map<string, number>, unanswered = 0) {
  const paid = answers.filter((a) => a.status === 200);
  for (const answer of paid) expect(debits.get(answer.requestId), answer.requestId).toBe(5);
  for (const answer of answers.filter((a) => a.status !== 200)) expect(debits.has(answer.requestId)).toBe(false);
  // Requests cut off by a killed app have no answer; each may or may not have been debited.
  expect(debits.size - paid.length).toBeGreaterThanOrEqual(0);
  expect(debits.size - paid.length).toBeLessThanOrEqual(unanswered);
}

describe("PostgreSQL stopped under load", () => {
  let cluster: PgCluster;
  let app: RunningApp;
  let handle: DatabaseHandle;
  let fixture: FixtureOrganization;

  beforeAll(async () => {
    cluster = await createPgCluster();
    handle = await openDatabase({ kind: "postgres", url: cluster.url });
    fixture = await demoCatalogueWithOrganization(handle, "Faults", CREDITS);
    await handle.close();
    app = await startApp({ DATABASE_URL: cluster.url, RATE_LIMIT: "1000000000", REDIS_URL: "" });
  }, 300_000);

  afterAll(async () => {
    await app?.stop();
    cluster?.destroy();
  });

  it("answers 503 unavailable quickly while it is down and recovers without a restart", async () => {
    const traffic = load(app.url, fixture.token);
    await until(() => traffic.count((a) => a.status === 200) >= 200, 30_000, traffic.summary);
    const stoppedAt = performance.now();
    cluster.stop();
    const downSince = traffic.answers.length;
    await until(() => traffic.count((a) => a.code === "unavailable") >= 100, 30_000, traffic.summary);
    await new Promise((r) => setTimeout(r, 1000));
    cluster.start();
    const restartedAt = traffic.answers.length;
    await until(
      () => traffic.answers.slice(restartedAt).filter((a) => a.status === 200).length >= 200,
      60_000,
      traffic.summary,
    );
    await traffic.stop();

    const down = traffic.answers.slice(downSince, restartedAt);
    const unavailable = down.filter((a) => a.code === "unavailable");
    const statuses = new Set(traffic.answers.map((a) => a.status));
    console.log(
      `[faults] ${traffic.answers.length} answers: ${traffic.count((a) => a.status === 200)} × 200, ${unavailable.length} × 503 while down (p99 ${percentile(
        unavailable.map((a) => a.ms),
        99,
      ).toFixed(0)} ms); stopped for ${((performance.now() - stoppedAt) / 1000).toFixed(1)} s`,
    );
    // Nothing but successes and 503s: no 500, no hang (every answer came back, within seconds).
    expect([...statuses].sort()).toEqual([200, 503]);
    expect(traffic.failures).toEqual([]);
    expect(traffic.answers.filter((a) => a.status === 503).every((a) => a.code === "unavailable")).toBe(true);
    expect(
      percentile(
        unavailable.map((a) => a.ms),
        99,
      ),
    ).toBeLessThan(2000);
    // Back in service with the same process.
    expect(app.process.exitCode).toBeNull();
    expect(traffic.answers.at(-1)?.status).toBe(200);

    handle = await openDatabase({ kind: "postgres", url: cluster.url });
    try {
      const { balance, ledger, debits } = await books(handle, fixture.id);
      expect(balance).toBe(ledger);
      expectOneRowPerSuccess(traffic.answers, debits);
      expect(balance).toBe(CREDITS - 5 * debits.size);
    } finally {
      await handle.close();
    }
  }, 180_000);

  it("keeps the books whole when the app is killed mid-load", async () => {
    const traffic = load(app.url, fixture.token);
    await until(() => traffic.count((a) => a.status === 200) >= 100, 30_000, traffic.summary);
    await crash(app);
    await traffic.stop();
    app = await startApp({ DATABASE_URL: cluster.url, RATE_LIMIT: "1000000000", REDIS_URL: "" });
    handle = await openDatabase({ kind: "postgres", url: cluster.url });
    try {
      const { balance, ledger } = await books(handle, fixture.id);
      expect(balance).toBe(ledger);
      const response = await fetch(`${app.url}${SNAPSHOT}`, { headers: { Authorization: `Bearer ${fixture.token}` } });
      expect(response.status).toBe(200);
      expect(Number(response.headers.get("x-credits-remaining"))).toBe(balance - 5);
    } finally {
      await handle.close();
    }
  }, 300_000);
});

describe("the app killed under load on embedded PGlite", () => {
  it("restarts on the same folder with the balance equal to the ledger", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "mps-faults-"));
    const pglite = { kind: "pglite" as const, dataDir: path.join(dataDir, "pglite") };
    let handle = await openDatabase(pglite);
    const fixture = await demoCatalogueWithOrganization(handle, "Faults", CREDITS);
    await handle.close();
    const env = { DATABASE_URL: "", DATA_DIR: dataDir, RATE_LIMIT: "1000000000", REDIS_URL: "" };
    let app = await startApp(env);
    try {
      const traffic = load(app.url, fixture.token);
      await until(() => traffic.count((a) => a.status === 200) >= 100, 30_000, traffic.summary);
      await crash(app);
      await traffic.stop();
      const inFlight = WORKERS;
      const started = performance.now();
      app = await startApp(env);
      // The crashed server's lock on the folder goes stale after 10 s; the new one waits for it.
      console.log(`[faults] PGlite app restarted after SIGKILL in ${(performance.now() - started).toFixed(0)} ms`);
      const response = await fetch(`${app.url}${SNAPSHOT}`, { headers: { Authorization: `Bearer ${fixture.token}` } });
      expect(response.status).toBe(200);
      const remaining = Number(response.headers.get("x-credits-remaining"));
      await app.stop();
      handle = await openDatabase(pglite);
      try {
        const { balance, ledger, debits } = await books(handle, fixture.id);
        expect(balance).toBe(ledger);
        expect(balance).toBe(remaining);
        expectOneRowPerSuccess(
          [
            ...traffic.answers,
            { status: 200, requestId: response.headers.get("x-request-id") ?? "", cost: 5, ms: 0, at: 0 },
          ],
          debits,
          inFlight,
        );
      } finally {
        await handle.close();
      }
    } finally {
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
