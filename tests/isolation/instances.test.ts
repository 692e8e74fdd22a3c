/**
 * Several instances are one service: two app processes on one private PostgreSQL and one Redis
 * (TEST_REDIS_URL), as docs/operations.md runs them. Credits are exact across both under a
 * thousand concurrent calls on REST and MCP; the rate limit is one count; a token revoked through
 * one instance is refused by the other, and a release the CLI publishes is served by both, within
 * a second.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { memberships, users } from "@/db/schema";
import { createApiToken, TOKEN_SCOPES } from "@/server/4-api-access/tokens";
import { OPERATIONS } from "@/server/7-procedures/operations";
import {
  creditBooks,
  demoCatalogueWithOrganization,
  type FixtureOrganization,
  organization,
} from "../helpers/accounts";
import { runOps } from "../helpers/cli";
import { dashboardCall } from "../helpers/dashboard";
import { postToolCall } from "../helpers/mcp";
import { createPgCluster, type PgCluster } from "../helpers/pg-cluster";
import { type RunningApp, startInstances } from "../helpers/server";

const MARKET = "foundation-model-apis";
const SNAPSHOT = `/v1/markets/${MARKET}/snapshot`;
const PRICE = OPERATIONS.snapshot.credits;
/** Calls that can be paid for, of the thousand made. */
const AFFORDABLE = 387;
const CALLS = 1000;
const RATE_LIMIT = 30;

type Outcome = { surface: "rest" | "mcp"; paid: boolean; code: string };

async function restCall(base: string, token: string): Promise<Outcome> {
  const response = await fetch(`${base}${SNAPSHOT}`, { headers: { Authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { code?: string };
  return { surface: "rest", paid: response.status === 200, code: response.status === 200 ? "ok" : String(body.code) };
}

/** A tools/call on its own, as a stateless client may send it (the JSON answer, not a stream). */
async function mcpCall(base: string, token: string): Promise<Outcome> {
  const response = await postToolCall(base, token, "service_market_get_snapshot", { marketId: MARKET }, randomUUID());
  const text = await response.text();
  // Refused at the edge (401, 429, 503…): a problem+json body, not a JSON-RPC message.
  if (!response.ok)
    return {
      surface: "mcp",
      paid: false,
      code: (JSON.parse(text) as { code?: string }).code ?? String(response.status),
    };
  const json = response.headers.get("content-type")?.includes("text/event-stream")
    ? (text.split("\ndata: ")[1]?.split("\n")[0] ?? text.replace(/^data: /, ""))
    : text;
  const message = JSON.parse(json) as {
    result?: { isError?: boolean; _meta?: { problem?: { code: string } } };
    error?: { data?: { code: string } };
  };
  if (message.error) return { surface: "mcp", paid: false, code: message.error.data?.code ?? "rpc_error" };
  if (message.result?.isError)
    return { surface: "mcp", paid: false, code: message.result._meta?.problem?.code ?? "tool_error" };
  return { surface: "mcp", paid: true, code: "ok" };
}

/** Answers that say "not now": a client retries them, as the Retry-After they carry invites. */
const TRY_AGAIN = new Set(["too_many_concurrent", "rate_limited", "unavailable"]);

/** One client's call, retried after "not now" until it is paid or refused for good. */
async function untilDecided(call: () => Promise<Outcome>): Promise<Outcome & { attempts: number }> {
  for (let attempts = 1; ; attempts++) {
    const outcome = await call();
    if (!TRY_AGAIN.has(outcome.code)) return { ...outcome, attempts };
    await new Promise((resolve) => setTimeout(resolve, 250 + Math.random() * 750));
  }
}

/** Polls `check` until it holds; resolves with the ms it took, or rejects after `limitMs`. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const began = performance.now();
  for (;;) {
    if (await check()) return performance.now() - began;
    if (performance.now() - began > limitMs) throw new Error(`not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("two instances, one service", () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl) throw new Error("TEST_REDIS_URL is required: the instances share their rate limits through Redis");
  let cluster: PgCluster;
  let handle: DatabaseHandle;
  let apps: RunningApp[];
  let spender: FixtureOrganization;
  let limited: FixtureOrganization;
  let revoking: FixtureOrganization;
  let removing: FixtureOrganization;

  beforeAll(async () => {
    cluster = await createPgCluster();
    handle = await openDatabase({ kind: "postgres", url: cluster.url });
    spender = await demoCatalogueWithOrganization(handle, "Spender", AFFORDABLE * PRICE);
    limited = await organization(handle.db, "Limited", { credits: 1_000_000, rateLimit: RATE_LIMIT });
    revoking = await organization(handle.db, "Revoking", { credits: 1_000_000 });
    removing = await organization(handle.db, "Removing", { credits: 1_000_000 });
    apps = await startInstances(2, {
      DATABASE_URL: cluster.url,
      REDIS_URL: redisUrl,
      THROTTLE_KEY_PREFIX: `mps:instances:${cluster.port}:${randomUUID()}`,
      RATE_LIMIT: "1000000000",
    });
  }, 400_000);

  afterAll(async () => {
    await Promise.all((apps ?? []).map((app) => app.stop()));
    await handle?.close();
    cluster?.destroy();
  });

  const instance = (i: number) => (apps[i % apps.length] as RunningApp).url;

  it(`lets exactly ${AFFORDABLE} of ${CALLS} concurrent calls on both instances through, REST and MCP alike`, async () => {
    // A thousand clients at once; the per-organization bulkhead turns most away for now, and each
    // comes back until its call is decided: paid, or refused for want of credits.
    const outcomes = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        untilDecided(() => (i % 4 < 2 ? restCall(instance(i), spender.token) : mcpCall(instance(i), spender.token))),
      ),
    );
    const paid = outcomes.filter((o) => o.paid);
    const attempts = outcomes.reduce((sum, o) => sum + o.attempts, 0);
    console.log(`[instances] ${CALLS} calls decided in ${attempts} attempts: ${paid.length} paid`);
    expect(paid).toHaveLength(AFFORDABLE);
    // Both surfaces were served and both were refused: the race was real on each.
    for (const surface of ["rest", "mcp"] as const) {
      expect(paid.filter((o) => o.surface === surface).length, surface).toBeGreaterThan(0);
      expect(outcomes.filter((o) => o.surface === surface && !o.paid).length, surface).toBeGreaterThan(0);
    }
    expect(new Set(outcomes.filter((o) => !o.paid).map((o) => o.code))).toEqual(new Set(["insufficient_credits"]));
    expect(await creditBooks(handle, spender.id)).toEqual({
      balance: 0,
      ledger: 0,
      debits: AFFORDABLE,
      charged: AFFORDABLE * PRICE,
    });
  }, 120_000);

  it("counts one rate limit across both instances", async () => {
    const outcomes: Outcome[] = [];
    for (let i = 0; i < RATE_LIMIT * 2; i++) outcomes.push(await restCall(instance(i), limited.token));
    expect(outcomes.filter((o) => o.paid)).toHaveLength(RATE_LIMIT);
    expect(outcomes.slice(RATE_LIMIT).map((o) => o.code)).toEqual(Array(RATE_LIMIT).fill("rate_limited"));
    // Each instance alone would have let its own RATE_LIMIT through: the count was one.
    expect((await creditBooks(handle, limited.id)).debits).toBe(RATE_LIMIT);
  });

  it("refuses a token revoked through one instance on the other within a second", async () => {
    // The other instance knows (and caches) the token before it is revoked.
    for (const i of [0, 1]) expect((await restCall(instance(i), revoking.token)).paid).toBe(true);
    const listed = (await dashboardCall(instance(0), revoking.session, "tokens.list")).data as { id: string }[];
    expect(listed).toHaveLength(1);
    const revoked = await dashboardCall(
      instance(0),
      revoking.session,
      "tokens.revoke",
      { tokenId: listed[0]?.id },
      { mutation: true },
    );
    expect(revoked.status).toBe(200);
    const ms = await within(1000, async () => (await restCall(instance(1), revoking.token)).code === "unauthorized");
    console.log(`[instances] a token revoked on one instance was refused by the other after ${ms.toFixed(0)} ms`);
    expect((await mcpCall(instance(1), revoking.token)).paid).toBe(false);
  });

  it("refuses a removed member's token on the other instance within a second, and keeps the owner's", async () => {
    // A member with a token of their own, known (and cached) by both instances.
    const [member] = await handle.db
      .insert(users)
      .values({ email: `removed-${randomUUID()}@example.com`, emailVerified: new Date() })
      .returning({ id: users.id });
    const memberId = member?.id as string;
    await handle.db.insert(memberships).values({ organizationId: removing.id, userId: memberId, role: "member" });
    const { secret } = await createApiToken(handle.db, {
      organizationId: removing.id,
      name: "member's own",
      scopes: TOKEN_SCOPES,
      createdByUserId: memberId,
    });
    for (const i of [0, 1]) expect((await restCall(instance(i), secret)).paid).toBe(true);
    const removed = await dashboardCall(
      instance(0),
      removing.session,
      "members.remove",
      { userId: memberId },
      { mutation: true },
    );
    expect(removed.status).toBe(200);
    const ms = await within(1000, async () => (await restCall(instance(1), secret)).code === "unauthorized");
    console.log(`[instances] a removed member's token was refused by the other instance after ${ms.toFixed(0)} ms`);
    expect((await mcpCall(instance(1), secret)).paid).toBe(false);
    for (const i of [0, 1]) expect((await restCall(instance(i), removing.token)).paid).toBe(true);
  });

  it("serves a release the CLI published from both instances within a second", async () => {
    const release = async (i: number) => {
      // Listing markets is free: the spender, its credits spent, still may.
      const response = await fetch(`${instance(i)}/v1/markets`, {
        headers: { Authorization: `Bearer ${spender.token}` },
      });
      const body = (await response.json()) as { markets?: { marketId: string; release: number }[] };
      return body.markets?.find((m) => m.marketId === MARKET)?.release;
    };
    await within(5000, async () => (await release(0)) === 3 && (await release(1)) === 3);
    const dir = mkdtempSync(path.join(tmpdir(), "mps-instances-"));
    const file = path.join(dir, `${MARKET}.yaml`);
    const latest = readFileSync(path.join("db", "demo", "markets", `${MARKET}.r3.yaml`), "utf8");
    const republished = latest.replace(
      "Demo data (fictional vendors): hosted",
      "Demo data (fictional vendors), republished: hosted",
    );
    expect(republished).not.toBe(latest);
    writeFileSync(file, republished);
    const published = await runOps(
      handle,
      ["catalog", "publish", file, "--notes", "Published while two instances serve"],
      new Date(),
    );
    expect(published.code, published.stderr).toBe(0);
    const ms = await within(1000, async () => (await release(0)) === 4 && (await release(1)) === 4);
    console.log(`[instances] a release published by the CLI was served by both instances after ${ms.toFixed(0)} ms`);
  });
});
