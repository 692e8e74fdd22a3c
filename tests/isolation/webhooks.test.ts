/**
 * Webhooks with two app instances on one PostgreSQL (a private server) and receivers on this
 * machine, one of which fails for a while. A release and an archiving published by the CLI reach
 * every endpoint once per event (and per country with changes): each message is accepted by its
 * receiver exactly once, though both instances hear of the events, the receiver refuses for a
 * while, and an instance is stopped mid-way and another started. Every delivery is verified with
 * the `standardwebhooks` package, as a receiver would.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { queryRows } from "@/db/rows";
import { newWebhookSecret } from "@/server/2-http/standard-webhooks";
import { seal } from "@/server/3-keys/sealed";
import { createEndpoint } from "@/server/4-webhooks/webhook-endpoints";
import { demoCatalogueWithOrganization } from "../helpers/accounts";
import { runOps } from "../helpers/cli";
import { createPgCluster, type PgCluster } from "../helpers/pg-cluster";
import { type RunningApp, startApp, startInstances } from "../helpers/server";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

const MARKET = "foundation-model-apis";
const DEMO = path.resolve(import.meta.dirname, "../../db/demo/markets/foundation-model-apis.r3.yaml");
const AUTH_SECRET = "isolation-webhooks-auth-secret-0123456789abcdef";

const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 120_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
};

describe("a release and an archiving, two instances, a receiver that fails for a while", () => {
  let cluster: PgCluster;
  let handle: DatabaseHandle;
  let steady: WebhookReceiver;
  let flaky: WebhookReceiver;
  let apps: RunningApp[] = [];
  let env: Record<string, string>;
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    cluster = await createPgCluster();
    handle = await openDatabase({ kind: "postgres", url: cluster.url });
    const organization = await demoCatalogueWithOrganization(handle, "Hooks", 1000);
    steady = await startWebhookReceiver("/steady");
    flaky = await startWebhookReceiver("/flaky");
    flaky.failing = 500;
    const sealEnv = { AUTH_SECRET } as unknown as NodeJS.ProcessEnv;
    for (const [receiver, events, countries] of [
      [steady, ["release.published", "market.archived", "market.changed"], ["FR", "DE", "US"]],
      [flaky, ["release.published", "market.archived"], []],
    ] as const) {
      const secret = newWebhookSecret();
      const created = await createEndpoint(handle.db, {
        organizationId: organization.id,
        url: receiver.url,
        description: "",
        events: [...events],
        marketIds: [MARKET],
        countries: [...countries],
        sealedSecret: seal(secret, sealEnv),
        createdByUserId: null,
      });
      secrets.set(created.id, secret);
    }
    env = {
      DATABASE_URL: cluster.url,
      AUTH_SECRET,
      WEBHOOK_ALLOW_PRIVATE_HOSTS: "1",
      WEBHOOK_RETRY_DELAY_SECONDS: "1",
      WEBHOOK_RETRY_LIMIT: "30",
      THROTTLE_KEY_PREFIX: `mps:webhooks:${cluster.port}`,
    };
    apps = await startInstances(2, env);
  }, 400_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await steady?.close();
    await flaky?.close();
    await handle?.close();
    cluster?.destroy();
  });

  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(handle.db, query);

  it("delivers every message exactly once to its receiver, signed, across instances, failures and a restart", async () => {
    const definition = parse(readFileSync(DEMO, "utf8"));
    definition.products.pop();
    const file = path.join(mkdtempSync(path.join(tmpdir(), "mps-hooks-")), "r4.yaml");
    writeFileSync(file, stringify(definition));
    expect((await runOps(handle, ["catalog", "publish", file, "--notes", "One product left."], new Date())).code).toBe(
      0,
    );
    expect((await runOps(handle, ["catalog", "archive", MARKET])).code).toBe(0);

    // Both instances heard both events; the messages are written once per endpoint and event.
    await until("both events were fanned out", async () => {
      const [row] = await rows<{ n: number }>(
        sql`select count(*)::int as n from catalogue_events where fanned_out_at is null`,
      );
      return row?.n === 0;
    });
    const messages = await rows<{ id: string; endpoint_id: string; event_type: string; dedupe_key: string }>(
      sql`select id, endpoint_id, event_type, dedupe_key from webhook_messages order by endpoint_id, dedupe_key`,
    );
    const byEndpoint = (id: string) => messages.filter((m) => m.endpoint_id === id).map((m) => m.event_type);
    const [steadyId, flakyId] = [...secrets.keys()];
    expect(byEndpoint(flakyId as string).sort()).toEqual(["market.archived", "release.published"]);
    expect(byEndpoint(steadyId as string)).toEqual(expect.arrayContaining(["market.archived", "release.published"]));

    // The flaky receiver refuses: its messages are retried.
    await until("the flaky receiver refused each message at least once", () => flaky.received.length >= 2);
    // One instance stops mid-way (its retries wait in the queue) and a new one starts.
    await apps[0]?.stop();
    apps = [apps[1] as RunningApp, await startApp(env)];
    flaky.failing = null;

    await until(
      "every message was delivered",
      async () => {
        const [row] = await rows<{ n: number }>(
          sql`select count(*)::int as n from webhook_messages where delivered_at is null`,
        );
        return row?.n === 0;
      },
      180_000,
    );
    // Give a duplicate every chance to show up.
    await new Promise((r) => setTimeout(r, 5000));

    for (const [receiver, endpointId] of [
      [steady, steadyId],
      [flaky, flakyId],
    ] as const)
      for (const delivery of receiver.received)
        expect(receiver.verifies(delivery, secrets.get(endpointId as string) as string)).toBe(true);
    const ids = (endpointId: string) =>
      messages
        .filter((m) => m.endpoint_id === endpointId)
        .map((m) => m.id)
        .sort();
    // The steady receiver accepted every first attempt: each message arrived once, never twice.
    expect(steady.received.map((d) => String(d.headers["webhook-id"])).sort()).toEqual(ids(steadyId as string));
    const flakyIds = flaky.received.map((d) => String(d.headers["webhook-id"]));
    expect([...new Set(flakyIds)].sort()).toEqual(ids(flakyId as string));
    // Each flaky message was accepted exactly once: its attempts logged, the last one 204.
    const attempts = await rows<{ message_id: string; statuses: number[] }>(
      sql`select message_id, array_agg(status order by id) as statuses from webhook_attempts
        where message_id in (select id from webhook_messages where endpoint_id = ${flakyId}) group by message_id`,
    );
    for (const row of attempts) {
      expect(row.statuses.filter((s) => s === 204)).toHaveLength(1);
      expect(row.statuses.at(-1)).toBe(204);
      expect(flakyIds.filter((id) => id === row.message_id)).toHaveLength(row.statuses.length);
    }
    const bodies = steady.received.map((d) => JSON.parse(d.body) as { type: string; data: { marketId: string } });
    expect(bodies.every((b) => b.data.marketId === MARKET)).toBe(true);
  });
});
