/**
 * One customer's trouble is nobody else's, on two app instances sharing one PostgreSQL (a private
 * server) and, when TEST_REDIS_URL is set, one Redis: a row of one organization held by another
 * transaction, and one organization's burst. Each time the other organization is answered as if
 * alone, the troubled one within its deadline, and every success is charged exactly once.
 */
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { queryRows } from "@/db/rows";
import { loadDefinitionFile } from "@/server/3-catalog/load";
import { publishMarket } from "@/server/3-catalog/store";
import { DEMO_FOLDER } from "@/server/5-startup/seed";
import {
  creditBooks,
  demoCatalogueWithOrganization,
  type FixtureOrganization,
  organization,
} from "../helpers/accounts";
import { generatedMarket } from "../helpers/generated-catalogue";
import { signInRequest } from "../helpers/logs";
import { createPgCluster, type PgCluster } from "../helpers/pg-cluster";
import { type RunningApp, startInstances } from "../helpers/server";
import { percentile } from "../helpers/stats";

const SNAPSHOT = "/v1/markets/foundation-model-apis/snapshot";
/** A generated market of 1,000 products: its whole-release archive takes seconds to build. */
const LARGE_MARKET = "generated-flood";
const CREDITS = 10_000_000;
/** The deadline and lock timeout the instances run with (shorter than the defaults, same shape). */
const DEADLINE_MS = 3000;
const LOCK_TIMEOUT_MS = 1000;

interface Answer {
  status: number;
  code?: string;
  retryAfter: string | null;
  requestId: string;
  ms: number;
}

async function call(url: string, token: string): Promise<Answer> {
  const began = performance.now();
  const response = await fetch(`${url}${SNAPSHOT}`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    code: response.status >= 400 ? (JSON.parse(text) as { code: string }).code : undefined,
    retryAfter: response.headers.get("retry-after"),
    requestId: response.headers.get("x-request-id") ?? "",
    ms: performance.now() - began,
  };
}

/** `count` calls one after another, alternating between the instances. */
async function steady(apps: RunningApp[], token: string, count: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i++) answers.push(await call((apps[i % apps.length] as RunningApp).url, token));
  return answers;
}

/** Two app instances on a private PostgreSQL, with whatever `prepare` puts in the database first. */
async function twoInstances(prepare: (handle: DatabaseHandle) => Promise<void>, env: Record<string, string> = {}) {
  const cluster = await createPgCluster();
  const handle = await openDatabase({ kind: "postgres", url: cluster.url });
  await prepare(handle);
  const apps = await startInstances(2, {
    DATABASE_URL: cluster.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? "",
    THROTTLE_KEY_PREFIX: `mps:isolation:${cluster.port}`,
    ...env,
  });
  return {
    cluster,
    handle,
    apps,
    stop: async () => {
      await Promise.all(apps.map((app) => app.stop()));
      await handle.close();
      cluster.destroy();
    },
  };
}

describe("two instances, one PostgreSQL", () => {
  let cluster: PgCluster;
  let handle: DatabaseHandle;
  let apps: RunningApp[];
  let troubled: FixtureOrganization;
  let bystander: FixtureOrganization;

  let stop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    ({ cluster, handle, apps, stop } = await twoInstances(
      async (db) => {
        troubled = await demoCatalogueWithOrganization(db, "Troubled", CREDITS);
        bystander = await organization(db.db, "Bystander", { homeCountry: "FR", credits: CREDITS });
        const demo = await loadDefinitionFile(path.join(DEMO_FOLDER, "geographies.yaml"));
        const controls = demo.kind === "geographies" ? demo.controls.map((c) => c.id).slice(0, 12) : [];
        const large = generatedMarket(1000, 50, { seed: 5, marketId: LARGE_MARKET, controls });
        await publishMarket(db.db, "generated.json", large, {
          notes: "Generated for the download flood.",
          material: false,
          publishedAt: new Date(),
        });
      },
      {
        RATE_LIMIT: "1000000000",
        REQUEST_DEADLINE_MS: String(DEADLINE_MS),
        DEBIT_LOCK_TIMEOUT_MS: String(LOCK_TIMEOUT_MS),
      },
    ));
  }, 400_000);

  afterAll(() => stop());

  it("answers an organization whose row is held within its deadline, uncharged, and the others as before", async () => {
    const alone = await steady(apps, bystander.token, 60);
    expect(alone.every((a) => a.status === 200)).toBe(true);

    // An operator's long transaction holds the troubled organization's row.
    const holder = postgres(cluster.url, { max: 1, onnotice: () => {} });
    const before = await creditBooks(handle, troubled.id);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: () => void = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const transaction = holder.begin(async (tx) => {
      await tx`select id from organizations where id = ${troubled.id} for update`;
      locked();
      await held;
    });
    await lockTaken;
    try {
      // Many of its calls at once, on both instances: enough to take every pooled connection if they could.
      const troubledCalls = Promise.all(
        Array.from({ length: 40 }, (_, i) => call((apps[i % 2] as RunningApp).url, troubled.token)),
      );
      const during = await steady(apps, bystander.token, 60);
      const troubledAnswers = await troubledCalls;

      for (const answer of troubledAnswers) {
        expect(answer.status).toBe(503);
        expect(answer.code).toBe("unavailable");
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
        expect(answer.ms).toBeLessThan(DEADLINE_MS + 2000);
      }
      expect(during.every((a) => a.status === 200)).toBe(true);
      const p99 = (answers: Answer[]) =>
        percentile(
          answers.map((a) => a.ms),
          99,
        );
      console.log(
        `[isolation] held row: troubled p50 ${percentile(
          troubledAnswers.map((a) => a.ms),
          50,
        ).toFixed(0)} ms; bystander p99 alone ${p99(alone).toFixed(1)} ms, during ${p99(during).toFixed(1)} ms`,
      );
      // Nobody else waits for the lock: not one bystander call came near the lock timeout.
      expect(Math.max(...during.map((a) => a.ms))).toBeLessThan(LOCK_TIMEOUT_MS);
    } finally {
      release();
      await transaction;
      await holder.end();
    }
    // Nothing of the refused calls was charged; once the row is free the organization is served.
    expect(await creditBooks(handle, troubled.id)).toEqual(before);
    const after = await steady(apps, troubled.token, 4);
    expect(after.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const books2 = await creditBooks(handle, troubled.id);
    expect(books2.balance).toBe(books2.ledger);
    expect(books2.debits).toBe(before.debits + 4);
  });

  it("keeps one organization's burst to itself: the other's calls all succeed, every success is charged once", async () => {
    const before = await creditBooks(handle, troubled.id);
    const burst = Promise.all(
      Array.from({ length: 500 }, (_, i) => call((apps[i % 2] as RunningApp).url, troubled.token)),
    );
    const during = await steady(apps, bystander.token, 40);
    const burstAnswers = await burst;

    expect(during.every((a) => a.status === 200)).toBe(true);
    const codes = new Set(burstAnswers.map((a) => (a.status === 200 ? "200" : `${a.status} ${a.code}`)));
    for (const code of codes) expect(["200", "429 too_many_concurrent"]).toContain(code);
    for (const refused of burstAnswers.filter((a) => a.status === 429)) expect(refused.retryAfter).toBe("1");
    const succeeded = burstAnswers.filter((a) => a.status === 200).length;
    expect(succeeded).toBeGreaterThan(0);
    const after = await creditBooks(handle, troubled.id);
    expect(after.debits - before.debits).toBe(succeeded);
    expect(before.balance - after.balance).toBe(5 * succeeded);
    expect(after.balance).toBe(after.ledger);
    console.log(
      `[isolation] burst of 500: ${succeeded} × 200, ${500 - succeeded} × 429; bystander p99 ${percentile(
        during.map((a) => a.ms),
        99,
      ).toFixed(1)} ms`,
    );
  });

  it("refuses a flood with a token it knows at the door: the procedure's problem and headers, held, logged", async () => {
    const app = apps[0] as RunningApp;
    await call(app.url, troubled.token); // this instance knows the token
    const answers = await Promise.all(
      Array.from({ length: 300 }, async () => {
        const began = performance.now();
        const response = await fetch(`${app.url}${SNAPSHOT}`, {
          headers: { Authorization: `Bearer ${troubled.token}` },
        });
        const body = await response.text();
        return { status: response.status, headers: response.headers, body, ms: performance.now() - began };
      }),
    );
    const refused = answers.filter((a) => a.status === 429);
    // The door holds its refusals for ½–1 × ORG_REFUSAL_HOLD_MS (1,000 ms); the procedure answers at once.
    const held = refused.filter((a) => a.ms >= 500);
    expect(held.length).toBeGreaterThan(100);
    const shape = (a: (typeof refused)[number]) => {
      const { requestId, ...problem } = JSON.parse(a.body) as Record<string, unknown>;
      expect(requestId).toBe(a.headers.get("x-request-id"));
      const headers = [
        "content-type",
        "retry-after",
        "vary",
        "cache-control",
        "x-content-type-options",
        "x-frame-options",
        "content-security-policy",
        "referrer-policy",
      ].map((name) => `${name}: ${a.headers.get(name)}`);
      return JSON.stringify({ problem, headers });
    };
    // Every refusal, at the door or in the procedure, is one and the same answer.
    expect(new Set(refused.map(shape)).size).toBe(1);
    const first = JSON.parse((held[0] as (typeof refused)[number]).body) as { code: string; status: number };
    expect(first).toMatchObject({ code: "too_many_concurrent", status: 429 });
    const ids = held.map((a) => `"requestId":"${a.headers.get("x-request-id")}"`);
    const loggedLines = () =>
      app
        .output()
        .split("\n")
        .filter((line) => ids.some((id) => line.includes(id)))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    // The log reaches us through a pipe of its own: wait for the last lines.
    await expect.poll(() => loggedLines().length, { timeout: 5_000 }).toBe(held.length);
    const logged = loggedLines();
    for (const line of logged)
      expect(line).toMatchObject({
        status: 429,
        problem: "too_many_concurrent",
        operation: "readings.snapshot",
        organizationId: troubled.id,
      });
  });

  it("keeps one organization's downloads to their places, and another's free calls fast", async () => {
    const organizationCall = async (url: string, token: string) => {
      const began = performance.now();
      const response = await fetch(`${url}/v1/organization`, { headers: { Authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      return { status: response.status, ms: performance.now() - began };
    };
    const steadyFree = async (count: number) => {
      const answers = [];
      for (let i = 0; i < count; i++)
        answers.push(await organizationCall((apps[i % 2] as RunningApp).url, bystander.token));
      return answers;
    };
    // The release loaded on both instances first (a free read): loading a large release once is
    // what any reading of it costs; the flood is what is measured.
    for (const app of apps)
      expect(
        (
          await fetch(`${app.url}/v1/markets/${LARGE_MARKET}/products?limit=1`, {
            headers: { Authorization: `Bearer ${troubled.token}` },
          })
        ).status,
      ).toBe(200);
    const alone = await steadyFree(40);
    const before = await creditBooks(handle, troubled.id);
    // Twelve whole-release archives of a 1,000-product market at once from each instance.
    const flood = Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const response = await fetch(`${(apps[i % 2] as RunningApp).url}/v1/markets/${LARGE_MARKET}/export/zip`, {
          headers: { Authorization: `Bearer ${troubled.token}` },
        });
        const bytes = (await response.arrayBuffer()).byteLength;
        return { status: response.status, bytes, length: Number(response.headers.get("content-length")) };
      }),
    );
    const during = await steadyFree(60);
    const answers = await flood;

    const sent = answers.filter((a) => a.status === 200);
    // Two places per organization on each instance: at most four archives at once, the rest refused.
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThanOrEqual(4);
    for (const answer of sent) expect(answer.bytes).toBe(answer.length);
    for (const answer of answers.filter((a) => a.status !== 200)) expect(answer.status).toBe(429);
    const after = await creditBooks(handle, troubled.id);
    expect(before.balance - after.balance).toBe(25 * sent.length);
    expect(during.every((a) => a.status === 200)).toBe(true);
    const p99 = (list: { ms: number }[]) =>
      percentile(
        list.map((a) => a.ms),
        99,
      );
    console.log(
      `[isolation] download flood: ${sent.length} sent, ${answers.length - sent.length} refused; bystander's free call p99 alone ${p99(alone).toFixed(1)} ms, during ${p99(during).toFixed(1)} ms`,
    );
    // Before downloads had places of their own, the same flood held it at 0.6–1.1 s.
    expect(Math.max(...during.map((a) => a.ms))).toBeLessThan(500);
  }, 300_000);
});

/** Asks for a sign-in link as the sign-in form does; where it sends the browser. */
async function requestSignIn(url: string, email: string): Promise<string> {
  const { status, location } = await signInRequest(url, email);
  return `${status} ${new URL(location, url).pathname}`;
}

describe("abuse throttles across two instances", () => {
  let cluster: PgCluster;
  let handle: DatabaseHandle;
  let apps: RunningApp[];

  let stop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    ({ cluster, handle, apps, stop } = await twoInstances(async (db) => {
      await demoCatalogueWithOrganization(db, "Throttled", 100);
    }));
  }, 400_000);

  afterAll(() => stop());

  it("sends at most five sign-in mails to one address however often it is asked, and answers the same every time", async () => {
    const victim = `victim-${cluster.port}@example.com`;
    const answers = [];
    for (let i = 0; i < 40; i++) answers.push(await requestSignIn((apps[i % 2] as RunningApp).url, victim));
    // The same redirect every time, to the page that says "check your e-mail".
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(/^302 \/(api\/auth\/verify-request|signin\/check-email)$/);
    const [row] = await queryRows<{ mails: number }>(
      handle.db,
      sql`select count(*)::int as mails from mail_outbox where recipient = ${victim}`,
    );
    expect(Number(row?.mails)).toBe(5);
    // Another address is not affected.
    expect(await requestSignIn((apps[0] as RunningApp).url, `other-${cluster.port}@example.com`)).toBe(answers[0]);
    const [other] = await queryRows<{ mails: number }>(
      handle.db,
      sql`select count(*)::int as mails from mail_outbox where recipient = ${`other-${cluster.port}@example.com`}`,
    );
    expect(Number(other?.mails)).toBe(1);
  });

  it("accepts a burst of twenty client registrations from one address, then refuses with Retry-After", async () => {
    const register = async (i: number) => {
      const response = await fetch(`${(apps[i % 2] as RunningApp).url}/oauth/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          client_name: `Client ${i}`,
          redirect_uris: ["http://127.0.0.1:33418/callback"],
          token_endpoint_auth_method: "none",
        }),
      });
      const body = (await response.json()) as { error?: string };
      return { status: response.status, error: body.error, retryAfter: response.headers.get("retry-after") };
    };
    const answers = [];
    for (let i = 0; i < 60; i++) answers.push(await register(i));
    const accepted = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted).toHaveLength(20);
    expect(refused).toHaveLength(40);
    for (const answer of refused) {
      expect(answer.error).toBe("temporarily_unavailable");
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    const [row] = await queryRows<{ clients: number }>(
      handle.db,
      sql`select count(*)::int as clients from oauth_records where model = 'Client'`,
    );
    expect(Number(row?.clients)).toBe(20);
  });
});
