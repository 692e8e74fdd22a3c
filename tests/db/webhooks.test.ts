/**
 * Webhooks on a real database (PGlite here, PostgreSQL under TEST_DATABASE_URL): the fan-out
 * writes one message per endpoint and event however many fan-outs run (and one per country with
 * changes for `market.changed`), only for endpoints that want that event and market; the delivery
 * job signs as Standard Webhooks says (verified with the `standardwebhooks` package, as a
 * receiver would), retries, gives up after its retries, never overlaps two attempts of one
 * message, and disables an endpoint that keeps failing, owing its owner an e-mail.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { queryRows } from "@/db/rows";
import { newWebhookSecret } from "@/server/2-http/standard-webhooks";
import { seal } from "@/server/3-keys/sealed";
import { fanOutPendingEvents } from "@/server/4-following/notify";
import { createOrganization } from "@/server/4-organizations/organizations";
import { createEndpoint, deliveryLog, rotateSecret, updateEndpoint } from "@/server/4-webhooks/webhook-endpoints";
import type { JobContext } from "@/server/8-jobs/job";
import { deliverMessage, type WebhookSettings } from "@/server/8-jobs/webhook-delivery";
import { addPerson } from "../helpers/accounts";
import { runOps } from "../helpers/cli";
import { testDatabase } from "../helpers/database";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");
const MARKET = "hand-computed";

const database = testDatabase();
let dir: string;
let receiver: WebhookReceiver;
let organizationId: string;
let ownerEmail: string;

/** Jobs the delivery asked the queue for (the disabling's e-mails). */
const sent: { name: string; data: object }[] = [];
const context: JobContext = {
  send: async (name, data) => {
    sent.push({ name, data });
    return null;
  },
};

const settings: WebhookSettings = {
  retryLimit: 2,
  retryDelaySeconds: 1,
  timeoutMs: 2000,
  disableAfterFailures: 3,
  disableAfterHours: 0,
  allowPrivate: true,
};

/** The fixture market's file as parsed: only what a variant changes is typed. */
interface MarketYaml {
  products: { offerings: { satisfies?: string[] }[] }[];
}

function variant(name: string, change: (market: MarketYaml) => void): string {
  const market = parse(readFileSync(path.join(FIXTURES, "market.yaml"), "utf8"));
  change(market);
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, stringify(market));
  return file;
}

async function publish(file: string, at: string) {
  const result = await runOps(database, ["catalog", "publish", file, "--notes", `published ${at}`], new Date(at));
  expect(result.code, result.stderr).toBe(0);
}

const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(database.db, query);

async function endpoint(options: { events: string[]; marketIds?: string[]; countries?: string[]; url?: string }) {
  const secret = newWebhookSecret();
  const created = await createEndpoint(database.db, {
    organizationId,
    url: options.url ?? receiver.url,
    description: "",
    events: options.events,
    marketIds: options.marketIds ?? [],
    countries: options.countries ?? [],
    sealedSecret: seal(secret),
    createdByUserId: null,
  });
  return { id: created.id, secret };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "mps-webhooks-"));
  receiver = await startWebhookReceiver();
  expect((await runOps(database, ["catalog", "publish", path.join(FIXTURES, "geographies.yaml")])).code).toBe(0);
  await publish(path.join(FIXTURES, "market.yaml"), "2026-06-01T09:00:00Z");
  ownerEmail = "owner@example.com";
  const owner = await addPerson(database.db, { email: ownerEmail });
  const org = await createOrganization(database.db, {
    name: "Hooks <Ltd>",
    homeCountry: "XA",
    ownerUserId: owner.id,
    credits: 0,
  });
  organizationId = org.id;
  await fanOutPendingEvents(database.db); // the first release: before any endpoint
});
afterEach(() => {
  receiver.received.length = 0;
  receiver.answers = [];
  receiver.failing = null;
});
afterAll(async () => {
  await receiver?.close();
});

describe("the fan-out of a release", () => {
  let everything: { id: string; secret: string };
  let otherMarket: { id: string };
  let changesXaXb: { id: string };

  it("writes one message per endpoint and event, however many fan-outs run, for what each endpoint asked", async () => {
    everything = await endpoint({ events: ["release.published", "market.changed", "market.archived"] });
    otherMarket = await endpoint({ events: ["release.published"], marketIds: ["some-other-market"] });
    changesXaXb = await endpoint({ events: ["market.changed"], countries: ["XA", "XB"] });
    // Release 2: Bravo's public offering now also has EU-resident operations — available under XB
    // (residency and staff), as it already was under XA (residency only). No score moves.
    await publish(
      variant("r2", (m) => {
        const bravo = m.products[1]?.offerings[0];
        if (bravo) bravo.satisfies = ["eu-data-residency", "eu-resident-ops"];
      }),
      "2026-06-02T09:00:00Z",
    );
    const runs = await Promise.all([1, 2, 3].map(() => fanOutPendingEvents(database.db)));
    const ids = runs.flatMap((r) => r.webhooks);
    const messages = await rows<{
      id: string;
      endpoint_id: string;
      event_type: string;
      dedupe_key: string;
      body: string;
    }>(
      sql`select id, endpoint_id, event_type, dedupe_key, body from webhook_messages order by endpoint_id, dedupe_key`,
    );
    expect(new Set(ids)).toEqual(new Set(messages.map((m) => m.id)));
    // `everything` follows the home country XA, where nothing moved: release.published only.
    expect(messages.filter((m) => m.endpoint_id === everything.id).map((m) => m.event_type)).toEqual([
      "release.published",
    ]);
    expect(messages.filter((m) => m.endpoint_id === otherMarket.id)).toEqual([]);
    const changed = messages.filter((m) => m.endpoint_id === changesXaXb.id);
    expect(changed.map((m) => m.event_type)).toEqual(["market.changed"]);
    const body = JSON.parse(changed[0]?.body ?? "{}");
    expect(body).toMatchObject({
      type: "market.changed",
      timestamp: "2026-06-02T09:00:00.000Z",
      data: {
        marketId: MARKET,
        country: "XB",
        release: 2,
        comparedWith: 1,
        products: [
          {
            productId: "bravo",
            name: "Bravo",
            availability: { from: false, to: true, change: "became_available" },
            bands: [],
          },
        ],
      },
    });
    const published = JSON.parse(messages.find((m) => m.event_type === "release.published")?.body ?? "{}");
    expect(published).toMatchObject({
      type: "release.published",
      data: { marketId: MARKET, release: 2, summary: { comparedWith: 1, productsEntered: [], productsLeft: [] } },
    });
    expect(published.data.links.changes).toMatch(/\/v1\/markets\/hand-computed\/changes\?from=1&to=2$/);
  });

  it("sends nothing to an endpoint created after the event, or disabled", async () => {
    await updateEndpoint(database.db, organizationId, changesXaXb.id, { enabled: false });
    await database.db.execute(sql`delete from webhook_messages`);
    await database.db.execute(sql`update catalogue_events set fanned_out_at = null where release = 2`);
    await endpoint({ events: ["release.published"] }); // created now, after the event
    const run = await fanOutPendingEvents(database.db);
    const endpoints = await rows<{ endpoint_id: string }>(sql`select endpoint_id from webhook_messages`);
    expect(run.webhooks).toHaveLength(1);
    expect(endpoints.map((e) => e.endpoint_id)).toEqual([everything.id]);
  });
});

describe("a delivery", () => {
  async function oneMessage(events = ["release.published"]) {
    const hook = await endpoint({ events });
    const [message] = await rows<{ id: string }>(
      sql`insert into webhook_messages (id, endpoint_id, event_type, dedupe_key, body)
        values (${`msg_test_${Math.random().toString(36).slice(2)}`}, ${hook.id}, 'release.published', 'k', '{"type":"release.published","data":{"x":1}}')
        returning id`,
    );
    return { ...hook, messageId: (message as { id: string }).id };
  }

  it("is signed as Standard Webhooks says: the receiver's own check passes, and fails for another secret or body", async () => {
    const hook = await oneMessage();
    expect(await deliverMessage(database.db, hook.messageId, "queue", settings, context)).toBe("delivered");
    const [delivery] = receiver.received;
    if (!delivery) throw new Error("nothing arrived");
    expect(delivery.headers["webhook-id"]).toBe(hook.messageId);
    expect(delivery.headers["content-type"]).toBe("application/json");
    expect(receiver.verifies(delivery, hook.secret)).toBe(true);
    expect(receiver.verifies(delivery, newWebhookSecret())).toBe(false);
    expect(receiver.verifies({ ...delivery, body: delivery.body.replace("1", "2") }, hook.secret)).toBe(false);
    // Delivered: a second job for it sends nothing.
    expect(await deliverMessage(database.db, hook.messageId, "queue", settings, context)).toBe("skipped");
    expect(receiver.received).toHaveLength(1);
  });

  it("signs with both secrets while a rotation overlaps, so either verifies", async () => {
    const hook = await oneMessage();
    const next = newWebhookSecret();
    await rotateSecret(database.db, organizationId, hook.id, seal(next), new Date(Date.now() + 3_600_000));
    await deliverMessage(database.db, hook.messageId, "queue", settings, context);
    const [delivery] = receiver.received;
    if (!delivery) throw new Error("nothing arrived");
    expect(String(delivery.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(receiver.verifies(delivery, hook.secret)).toBe(true);
    expect(receiver.verifies(delivery, next)).toBe(true);
  });

  it("is retried while the receiver fails, the same webhook-id each time, each attempt logged with its status", async () => {
    const hook = await oneMessage();
    receiver.answers = [500, 503];
    await expect(deliverMessage(database.db, hook.messageId, "queue", settings, context)).rejects.toThrow(/retried/);
    await expect(deliverMessage(database.db, hook.messageId, "queue", settings, context)).rejects.toThrow(/retried/);
    expect(await deliverMessage(database.db, hook.messageId, "queue", settings, context)).toBe("delivered");
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([hook.messageId]));
    const [entry] = await deliveryLog(database.db, hook.id, { limit: 10 });
    expect(entry?.tries.map((t) => t.status)).toEqual([204, 503, 500]);
    expect(entry?.deliveredAt).not.toBeNull();
  });

  it("gives up when its retries are spent, and never runs two attempts of one message at once", async () => {
    const hook = await oneMessage();
    receiver.failing = 500;
    const outcomes = await Promise.allSettled(
      [1, 2, 3].map(() => deliverMessage(database.db, hook.messageId, "queue", settings, context)),
    );
    // One attempt held the message; the others found it held.
    expect(outcomes.filter((o) => o.status === "fulfilled" && o.value === "skipped")).toHaveLength(2);
    expect(receiver.received).toHaveLength(1);
    await expect(deliverMessage(database.db, hook.messageId, "queue", settings, context)).rejects.toThrow();
    expect(await deliverMessage(database.db, hook.messageId, "queue", settings, context)).toBe("gave up");
    expect(await deliverMessage(database.db, hook.messageId, "queue", settings, context)).toBe("skipped");
    expect(receiver.received).toHaveLength(settings.retryLimit + 1);
  });

  it("disables an endpoint that keeps failing and owes its owner an e-mail, once", async () => {
    sent.length = 0;
    const hook = await endpoint({ events: ["release.published"] });
    receiver.failing = 500;
    for (const n of [1, 2, 3]) {
      await database.db.execute(
        sql`insert into webhook_messages (id, endpoint_id, event_type, dedupe_key, body)
          values (${`msg_d${n}_${hook.id}`}, ${hook.id}, 'release.published', ${`k${n}`}, '{}')`,
      );
      await deliverMessage(database.db, `msg_d${n}_${hook.id}`, "queue", settings, context).catch(() => undefined);
    }
    const [state] = await rows<{ disabled_at: Date | null; disabled_reason: string; consecutive_failures: number }>(
      sql`select disabled_at, disabled_reason, consecutive_failures from webhook_endpoints where id = ${hook.id}`,
    );
    expect(state?.disabled_at).not.toBeNull();
    expect(state?.consecutive_failures).toBe(3);
    expect(state?.disabled_reason).toMatch(/HTTP 500/);
    const mails = await rows<{ recipient: string; kind: string; content: { url: string; organizationName: string } }>(
      sql`select recipient, kind, content from mail_deliveries
        where kind = 'webhook_disabled' and content->>'endpointId' = ${hook.id}`,
    );
    expect(mails).toEqual([
      {
        recipient: ownerEmail,
        kind: "webhook_disabled",
        content: expect.objectContaining({ url: receiver.url, organizationName: "Hooks <Ltd>" }),
      },
    ]);
    expect(sent.filter((s) => s.name === "mail-send")).toHaveLength(1);
    // Events meanwhile are not sent to a disabled endpoint; a test its owner asks for is.
    await database.db.execute(
      sql`insert into webhook_messages (id, endpoint_id, event_type, dedupe_key, body)
        values (${`msg_after_${hook.id}`}, ${hook.id}, 'release.published', 'after', '{}'),
               (${`msg_test_${hook.id}`}, ${hook.id}, 'webhook.test', 'test', '{}')`,
    );
    receiver.failing = null;
    const before = receiver.received.length;
    expect(await deliverMessage(database.db, `msg_after_${hook.id}`, "queue", settings, context)).toBe("gave up");
    expect(await deliverMessage(database.db, `msg_test_${hook.id}`, "queue", settings, context)).toBe("delivered");
    expect(receiver.received.length).toBe(before + 1);
  });
});
