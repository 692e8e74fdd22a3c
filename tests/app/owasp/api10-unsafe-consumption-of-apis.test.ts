/**
 * OWASP API10:2023 Unsafe Consumption of APIs, tried against the running app: what third parties
 * answer the service is hostile input too. A webhook receiver answering megabytes, markup, or a
 * redirect: the service reads at most 1,024 bytes, follows nothing, and shows what it read as
 * text in the dashboard. (Client metadata documents, the other thing the service reads from
 * third parties, are held to the same: tests/app/oauth-cimd.test.ts.)
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SESSION_COOKIE } from "../../helpers/accounts";
import { dashboardCall } from "../../helpers/dashboard";

const base = inject("appUrl");
const { hostile } = inject("accounts");

const MARKUP = '<script>alert("pwned")</script><img src=x onerror=alert(1)>';
let receiver: Server;
let receiverUrl: string;
let redirectedTo = 0;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    if (request.url === "/huge") {
      response.writeHead(500, { "Content-Type": "text/plain" });
      response.end("x".repeat(5 * 1024 * 1024));
    } else if (request.url === "/markup") response.writeHead(400, { "Content-Type": "text/html" }).end(MARKUP);
    else if (request.url === "/redirect") response.writeHead(307, { Location: `${receiverUrl}/elsewhere` }).end();
    else {
      redirectedTo += 1;
      response.writeHead(204).end();
    }
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const call = (procedure: string, input: unknown, mutation = true) =>
  dashboardCall(base, hostile.session, `webhooks.${procedure}`, input, { mutation });

async function firstTry(path: string) {
  const created = await call("create", { url: `${receiverUrl}${path}`, events: ["release.published"] });
  const { endpoint } = created.data as { endpoint: { id: string } };
  await call("sendTest", { endpointId: endpoint.id });
  const end = Date.now() + 30_000;
  for (;;) {
    const log = (await call("deliveries", { endpointId: endpoint.id }, false)).data as {
      entries: { tries: { status: number | null; responseExcerpt: string | null; error: string | null }[] }[];
    };
    const attempt = log.entries[0]?.tries.at(-1);
    if (attempt) return { endpointId: endpoint.id, attempt };
    if (Date.now() > end) throw new Error("no attempt was logged");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("API10: what a webhook receiver answers", () => {
  it("is read to 1,024 bytes at most, however much it sends", async () => {
    const { attempt, endpointId } = await firstTry("/huge");
    expect(attempt.status).toBe(500);
    expect((attempt.responseExcerpt ?? "").length).toBeLessThanOrEqual(1024);
    await call("remove", { endpointId });
  });

  it("is kept as text: the dashboard gets it as a JSON string, and no page carries it as markup", async () => {
    const { attempt, endpointId } = await firstTry("/markup");
    expect(typeof attempt.responseExcerpt).toBe("string");
    expect(attempt.responseExcerpt).toContain("<script>");
    const page = await fetch(`${base}/webhooks/${endpointId}`, {
      headers: { Cookie: `${SESSION_COOKIE}=${hostile.session}` },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain(MARKUP);
    await call("remove", { endpointId });
  });

  it("is not followed when it redirects", async () => {
    const before = redirectedTo;
    const { attempt, endpointId } = await firstTry("/redirect");
    expect(attempt.status).toBe(307);
    expect(redirectedTo).toBe(before);
    await call("remove", { endpointId });
  });
});
