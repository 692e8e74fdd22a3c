/**
 * The parts of webhooks that need no database: the outbound guard against SSRF (URL rules, every
 * address a host resolves to, the address dialled being the one checked, no redirect followed,
 * time and size bounds), signing as Standard Webhooks says (checked with its package, as a
 * receiver would), sealed secrets, and the disabling e-mail's escaping of hostile text.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newWebhookSecret, signedHeaders } from "@/server/2-http/standard-webhooks";
import { renderWebhookDisabledMail } from "@/server/2-notifications/render";
import { SealBrokenError, seal, unseal } from "@/server/3-keys/sealed";
import { OutboundRefused, outboundUrlProblem, postOutbound } from "@/server/3-outbound/guard";
import { isPublicAddress } from "@/server/3-outbound/public-address";

let server: Server;
let port: number;
const seen: { path: string; host: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ path: request.url ?? "", host: request.headers.host });
    if (request.url === "/redirect") response.writeHead(302, { Location: "http://169.254.169.254/" }).end();
    else if (request.url === "/slow") setTimeout(() => response.end("late"), 2000);
    else if (request.url === "/big") response.end("x".repeat(1_000_000));
    else response.writeHead(200).end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const options = { allowPrivate: false, timeoutMs: 1000, maxResponseBytes: 1024 };

describe("the outbound guard", () => {
  it.each([
    ["http://example.com/hook", "must be an https URL"],
    ["https://user:pw@example.com/hook", "must not carry a user name or password"],
    ["https://127.0.0.1/hook", "must not name a private"],
    ["https://[::1]/hook", "must not name a private"],
    ["https://169.254.169.254/latest/meta-data", "must not name a private"],
    ["https://10.0.0.8/hook", "must not name a private"],
    ["https://localhost/hook", "must not name a private"],
    ["https://example.com/hook#x", "must not have a #fragment"],
    ["not a url", "is not a URL"],
  ])("refuses %s", (url, problem) => expect(outboundUrlProblem(url, false)).toContain(problem));

  it("takes a public https URL, and http or loopback only when tests allow private hosts", () => {
    expect(outboundUrlProblem("https://hooks.example.com/mps", false)).toBeNull();
    expect(outboundUrlProblem(`http://127.0.0.1:${port}/`, true)).toBeNull();
  });

  it("classifies addresses with ipaddr.js: only global unicast is public", () => {
    for (const a of ["8.8.8.8", "2606:4700::1111"]) expect(isPublicAddress(a), a).toBe(true);
    for (const a of [
      "127.0.0.1",
      "10.1.1.1",
      "172.20.0.1",
      "192.168.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "::1",
      "fd00::1",
      "fe80::1",
      "::ffff:10.0.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "192.0.2.1",
      "not-an-ip",
    ])
      expect(isPublicAddress(a), a).toBe(false);
  });

  it("refuses a host that resolves to a private address before connecting, whichever of its addresses it is", async () => {
    const resolve = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "127.0.0.1", family: 4 },
    ];
    const before = seen.length;
    const attempt = postOutbound(`https://rebind.example:${port}/`, "{}", {}, { ...options, resolve });
    await expect(attempt).rejects.toThrow("rebind.example is not a public address");
    // The refusal names no address: the endpoint's owner learns nothing of what the name resolves to.
    await expect(attempt).rejects.not.toThrow(/127\.0\.0\.1|93\.184/);
    expect(seen.length).toBe(before);
  });

  it.each([
    ["IPv4-compatible", "::7f00:1"],
    ["IPv4-compatible, dotted", "::127.0.0.1"],
    ["IPv4-compatible public", "::8.8.8.8"],
    ["NAT64", "64:ff9b::7f00:1"],
    ["local NAT64", "64:ff9b:1::a00:1"],
    ["6to4 of loopback", "2002:7f00:1::1"],
    ["Teredo", "2001::5ef5:79fb"],
    ["IPv4-mapped", "::ffff:127.0.0.1"],
  ])("refuses a name resolving to a %s address (%s), and the literal itself", async (_kind, address) => {
    expect(isPublicAddress(address), address).toBe(false);
    expect(outboundUrlProblem(`https://[${address}]/hook`, false)).toContain("must not name a private");
    const resolve = async () => [{ address, family: 6 }];
    const before = seen.length;
    await expect(postOutbound(`https://v6.example:${port}/`, "{}", {}, { ...options, resolve })).rejects.toThrow(
      "v6.example is not a public address",
    );
    expect(seen.length).toBe(before);
  });

  it("dials the address it checked, not another lookup's (DNS rebinding)", async () => {
    // The name resolves (once) to this machine's test server; with private hosts allowed it is used.
    let lookups = 0;
    const resolve = async () => {
      lookups += 1;
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const answer = await postOutbound(
      `http://hooks.test:${port}/ok`,
      "{}",
      {},
      { ...options, allowPrivate: true, resolve },
    );
    expect(answer.status).toBe(200);
    expect(lookups).toBe(1);
    expect(seen.at(-1)).toEqual({ path: "/ok", host: `hooks.test:${port}` });
  });

  it("does not follow a redirect, bounds the time and reads at most the cap of the answer", async () => {
    const allowed = { ...options, allowPrivate: true };
    const redirect = await postOutbound(`http://127.0.0.1:${port}/redirect`, "{}", {}, allowed);
    expect(redirect.status).toBe(302);
    expect(seen.filter((s) => s.path === "/")).toHaveLength(0);
    await expect(
      postOutbound(`http://127.0.0.1:${port}/slow`, "{}", {}, { ...allowed, timeoutMs: 200 }),
    ).rejects.toThrow(OutboundRefused);
    const big = await postOutbound(`http://127.0.0.1:${port}/big`, "{}", {}, allowed);
    expect(big.status).toBe(200);
    expect(big.excerpt.length).toBe(1024);
  });
});

describe("signing", () => {
  it("gives headers the specification's package verifies, one signature per secret", () => {
    const [first, second] = [newWebhookSecret(), newWebhookSecret()];
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ type: "webhook.test", data: { a: "é" } });
    const headers = signedHeaders("msg_1", body, [first, second], new Date());
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    for (const secret of [first, second]) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(first).verify(`${body} `, headers)).toThrow();
    // An old timestamp is refused by receivers (replay): the header carries the attempt's time.
    const old = signedHeaders("msg_1", body, [first], new Date(Date.now() - 3_600_000));
    expect(() => new Webhook(first).verify(body, old)).toThrow(/timestamp/i);
  });
});

describe("sealed secrets", () => {
  const env = { AUTH_SECRET: "test-auth-secret-of-enough-length-0123456789" } as unknown as NodeJS.ProcessEnv;

  it("open to what was sealed, differ on every sealing, and refuse tampering or another key", () => {
    const sealed = seal("whsec_abc", env);
    expect(sealed).not.toContain("whsec_abc");
    expect(seal("whsec_abc", env)).not.toBe(sealed);
    expect(unseal(sealed, env)).toBe("whsec_abc");
    const [v, iv, data, tag] = sealed.split(".");
    const flipped = `${v}.${iv}.${data?.startsWith("A") ? "B" : "A"}${data?.slice(1)}.${tag}`;
    expect(() => unseal(flipped, env)).toThrow(SealBrokenError);
    expect(() =>
      unseal(sealed, { AUTH_SECRET: "another-secret-entirely-0123456789" } as unknown as NodeJS.ProcessEnv),
    ).toThrow(SealBrokenError);
  });
});

describe("the e-mail of a disabled endpoint", () => {
  it("escapes the owner's hostile URL and description in HTML and keeps the subject to one line", () => {
    const mail = renderWebhookDisabledMail(
      {
        kind: "webhook_disabled",
        organizationName: "Acme\r\nBcc: victim@example.com",
        endpointId: "ep_1",
        url: "https://hooks.example.com/<script>alert(1)</script>",
        description: '"><img src=x onerror=alert(1)>',
        failingSince: "2026-06-01T00:00:00.000Z",
        disabledAt: "2026-06-04T00:00:00.000Z",
        consecutiveFailures: 20,
        lastError: "HTTP 500",
      },
      "https://app.example.com",
    );
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<img");
    expect(mail.html).toContain("&lt;script&gt;");
    expect(mail.html).toContain('href="https://app.example.com/webhooks/ep_1"');
    expect(mail.text).toContain("20 attempts in a row");
  });
});
