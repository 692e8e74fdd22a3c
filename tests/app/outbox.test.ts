/**
 * The dev outbox lists every sign-in link, so it is served to a browser on this machine only: a
 * loopback socket, as our server saw it at the door, with no proxy's headers. Anyone else gets
 * the ordinary 404, whatever they forge. The suite's app runs without SMTP_URL and not in
 * production, so the outbox is on (tests/app/outbox-start.test.ts covers the other settings).
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { signInRequest } from "../helpers/logs";
import { rawExchange } from "../helpers/raw-http";
import { nonLoopbackUrl } from "../helpers/server";

const base = inject("appUrl");
const remote = nonLoopbackUrl(base);
const EMAIL = "outbox-probe@example.com";

/** Asks for a sign-in link the way the sign-in form does (next-auth's e-mail provider). */
async function requestSignInLink(email: string) {
  expect((await signInRequest(base, email)).location).toContain("verify-request");
}

async function page(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers, redirect: "manual" });
  return { status: response.status, html: await response.text() };
}

/** The ordinary 404 page (as when the outbox is off), and no mail of the outbox. */
function expectNotFound({ status, html }: { status: number; html: string }) {
  expect(status).toBe(404);
  expect(html).toContain("Page not found");
  expect(html).not.toContain("outbox-mail");
  expect(html).not.toContain(EMAIL);
  expect(html).not.toContain("/api/auth/callback/");
}

describe("the dev outbox", () => {
  beforeAll(async () => {
    await requestSignInLink(EMAIL);
  });

  it("lists the sign-in links to a loopback client", async () => {
    const { status, html } = await page(`${base}/dev/outbox`);
    expect(status).toBe(200);
    expect(html).toContain(`data-recipient="${EMAIL}"`);
    expect(html).toMatch(/href="[^"]*\/api\/auth\/callback\/email\?/);
  });

  it("is not fooled into hiding from a loopback client by a header it sends", async () => {
    const { status } = await page(`${base}/dev/outbox`, { "X-MPS-Peer": "remote" });
    expect(status).toBe(200);
  });

  it("counts a loopback request that came through a proxy as remote (a proxy on this machine)", async () => {
    for (const [name, value] of [
      ["X-Forwarded-For", "203.0.113.7"],
      ["X-Forwarded-For", "127.0.0.1"],
      ["Forwarded", "for=127.0.0.1"],
      ["X-Real-IP", "127.0.0.1"],
      ["Via", "1.1 proxy"],
      ["X-Forwarded-Host", "localhost"],
    ] as const)
      expectNotFound(await page(`${base}/dev/outbox`, { [name]: value }));
  });

  it.skipIf(!remote)("gives a client on a non-loopback address the ordinary 404", async () => {
    expectNotFound(await page(`${remote}/dev/outbox`));
    // The app itself answers that address: the 404 is the outbox's, not the network's.
    expect((await fetch(`${remote}/api/health`)).status).toBe(200);
  });

  it.skipIf(!remote)("gives a remote client the 404 whatever it forges", async () => {
    const { port } = new URL(base);
    const forged = [
      "X-MPS-Peer: loopback",
      "x-mps-peer: loopback",
      "X-Forwarded-For: 127.0.0.1",
      "X-Real-IP: 127.0.0.1",
      "Forwarded: for=127.0.0.1",
      // Next's own channel for a proxy to rewrite request headers.
      "x-middleware-override-headers: x-mps-peer",
      "x-middleware-request-x-mps-peer: loopback",
    ];
    const response = await rawExchange(
      remote as string,
      `GET /dev/outbox HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\n${forged.join("\r\n")}\r\n\r\n`,
    );
    expectNotFound({ status: response.status, html: response.body });
  });

  it("counts Next's own fetch of a page for a client (a server action's redirect) as remote", async () => {
    // Next renders the target of a server action's redirect by fetching it from this server, over
    // loopback, with the client's headers and the X-Forwarded-* it adds to every request.
    const { port } = new URL(base);
    expectNotFound(
      await page(`${base}/dev/outbox`, {
        "X-Forwarded-For": "192.0.2.2",
        "X-Forwarded-Host": `localhost:${port}`,
        "X-Forwarded-Port": port,
        "X-Forwarded-Proto": "http",
      }),
    );
  });
});
