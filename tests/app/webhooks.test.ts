/**
 * Webhooks through the running app, as an organization's owner uses them from the dashboard:
 * an endpoint created (the secret returned once), a test event delivered by the job queue and
 * verified with the `standardwebhooks` package as a receiver would, retried while the receiver
 * fails, logged with each status, resent on request with the same webhook-id, the secret rotated
 * with both signing during the overlap; hostile or private targets refused.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dashboardCall } from "../helpers/dashboard";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

const base = inject("appUrl");
const { reader } = inject("accounts");

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver?.close());

const call = (procedure: string, input?: unknown, mutation = false) =>
  dashboardCall(base, reader.session, `webhooks.${procedure}`, input, { mutation });

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

interface Entry {
  id: string;
  eventType: string;
  deliveredAt: string | null;
  tries: { status: number | null; trigger: string }[];
}

async function log(endpointId: string): Promise<Entry[]> {
  const answer = await call("deliveries", { endpointId });
  expect(answer.status).toBe(200);
  return (answer.data as { entries: Entry[] }).entries;
}

describe("a webhook endpoint from the dashboard", () => {
  let endpointId: string;
  let secret: string;

  it("is created with its secret, shown once and never listed", async () => {
    const created = await call(
      "create",
      {
        url: receiver.url,
        description: "ops <team>",
        events: ["release.published", "market.changed"],
        countries: ["fr"],
      },
      true,
    );
    expect(created.status).toBe(200);
    const data = created.data as { endpoint: { id: string; countries: string[] }; secret: string };
    endpointId = data.endpoint.id;
    secret = data.secret;
    expect(secret).toMatch(/^whsec_/);
    expect(data.endpoint.countries).toEqual(["FR"]);
    const listed = await call("list");
    expect(JSON.stringify(listed.data)).not.toContain(secret);
    expect((listed.data as { endpoints: { id: string }[] }).endpoints.map((e) => e.id)).toContain(endpointId);
  });

  it("gets a test event through the queue, signed so the receiver's check passes, retried while the receiver fails", async () => {
    receiver.answers = [503];
    const sent = await call("sendTest", { endpointId }, true);
    expect(sent.status).toBe(200);
    const { messageId } = sent.data as { messageId: string };
    await until("the test event was delivered", async () => (await log(endpointId))[0]?.deliveredAt !== null);
    const deliveries = receiver.received.filter((r) => r.headers["webhook-id"] === messageId);
    expect(deliveries).toHaveLength(2); // refused once, then delivered
    for (const delivery of deliveries) expect(receiver.verifies(delivery, secret)).toBe(true);
    expect(JSON.parse(deliveries[1]?.body ?? "{}")).toMatchObject({ type: "webhook.test", data: { endpointId } });
    const [entry] = await log(endpointId);
    expect(entry?.tries.map((t) => t.status)).toEqual([204, 503]);
  });

  it("resends a message on request with the same webhook-id", async () => {
    const [entry] = await log(endpointId);
    const before = receiver.received.length;
    expect((await call("resend", { messageId: entry?.id }, true)).status).toBe(200);
    await until("the resend arrived", () => receiver.received.length > before);
    expect(receiver.received.at(-1)?.headers["webhook-id"]).toBe(entry?.id);
    await until(
      "the resend is logged",
      async () => (await log(endpointId))[0]?.tries.some((t) => t.trigger === "resend") ?? false,
    );
  });

  it("rotates its secret: both sign during the overlap, the new one is shown once", async () => {
    const rotated = await call("rotateSecret", { endpointId }, true);
    const { secret: next, previousSecretUntil } = rotated.data as { secret: string; previousSecretUntil: string };
    expect(next).not.toBe(secret);
    expect(new Date(previousSecretUntil).getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    const { messageId } = (await call("sendTest", { endpointId }, true)).data as { messageId: string };
    await until("the test arrived", () => receiver.received.some((r) => r.headers["webhook-id"] === messageId));
    const delivery = receiver.received.find((r) => r.headers["webhook-id"] === messageId);
    if (!delivery) throw new Error("no delivery");
    expect(receiver.verifies(delivery, secret)).toBe(true);
    expect(receiver.verifies(delivery, next)).toBe(true);
  });

  it("refuses an event nobody can subscribe to, an unknown market or country, and another organization's endpoint", async () => {
    const bad = await call("create", { url: receiver.url, events: ["webhook.test"] }, true);
    expect(bad.problem?.code).toBe("invalid_request");
    const market = await call(
      "create",
      { url: receiver.url, events: ["release.published"], marketIds: ["no-such-market"] },
      true,
    );
    expect(market.problem).toMatchObject({
      code: "invalid_request",
      detail: expect.stringContaining("no-such-market"),
    });
    const country = await call("create", { url: receiver.url, events: ["market.changed"], countries: ["QQ"] }, true);
    expect(country.problem?.code).toBe("invalid_request");
    const stranger = await dashboardCall(base, inject("accounts").french.session, "webhooks.deliveries", {
      endpointId,
    });
    expect(stranger.problem?.code).toBe("not_found");
  });

  it("is deleted with its log", async () => {
    expect((await call("remove", { endpointId }, true)).status).toBe(200);
    expect((await call("deliveries", { endpointId })).problem?.code).toBe("not_found");
  });
});
