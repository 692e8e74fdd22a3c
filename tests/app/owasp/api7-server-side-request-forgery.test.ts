/**
 * OWASP API7:2023 Server Side Request Forgery, tried against an app of this file's own that
 * allows no private host (as in production) and resolves names through a DNS server of the test's
 * (DNS_SERVERS): names that look public but resolve to loopback, to IPv4-mapped, IPv4-compatible
 * and NAT64 forms of it, to private and metadata addresses. For each kind of fetch the service
 * makes — a webhook delivery, a client metadata document, a client's jwks_uri — a TCP listener on
 * the loopback address the names point at must see no connection at all, and what the owner is
 * told names no address.
 */
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureOrganization, organization } from "../../helpers/accounts";
import { dashboardCall } from "../../helpers/dashboard";
import { startDnsServer, type TestDnsServer } from "../../helpers/dns-server";
import { type ConnectionCounter, countConnections } from "../../helpers/hostile";
import { authorizeUrl, discover, pkcePair } from "../../helpers/oauth";
import { type OwnApp, startOwnApp } from "../../helpers/own-app";

/** Names the test's DNS server answers, and what each resolves to. */
const NAMES = {
  "loopback.ssrf.test": { A: ["127.0.0.1"] },
  "mapped.ssrf.test": { AAAA: ["::ffff:127.0.0.1"] },
  "compatible.ssrf.test": { AAAA: ["::7f00:1"] },
  "nat64.ssrf.test": { AAAA: ["64:ff9b::7f00:1"] },
  "private.ssrf.test": { A: ["10.0.0.7"] },
  "metadata.ssrf.test": { A: ["169.254.169.254"] },
  "mixed.ssrf.test": { A: ["93.184.216.34", "127.0.0.1"] },
} as const;

let dns: TestDnsServer;
let listener: ConnectionCounter;
let app: OwnApp<FixtureOrganization>;

beforeAll(async () => {
  const A: Record<string, string[]> = {};
  const AAAA: Record<string, string[]> = {};
  for (const [name, records] of Object.entries(NAMES)) {
    if ("A" in records) A[name] = [...records.A];
    if ("AAAA" in records) AAAA[name] = [...records.AAAA];
  }
  dns = await startDnsServer({ A, AAAA });
  listener = await countConnections("127.0.0.1");
  app = await startOwnApp({ DNS_SERVERS: dns.address, WEBHOOK_RETRY_LIMIT: "1" }, (db) =>
    organization(db, "SSRF", { credits: 100 }),
  );
}, 300_000);

afterAll(async () => {
  await app?.close();
  await listener?.close();
  await dns?.close();
});

const at = (name: string, path = "/") => `https://${name}:${listener.port}${path}`;

const call = (procedure: string, input: unknown, mutation = true) =>
  dashboardCall(app.url, app.prepared.session, `webhooks.${procedure}`, input, { mutation });

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("API7: webhook deliveries", () => {
  it.each(Object.keys(NAMES))("to %s are refused before connecting, and the log names no address", async (name) => {
    const created = await call("create", { url: at(name, "/hook"), events: ["release.published"] });
    expect(created.status).toBe(200);
    const { endpoint } = created.data as { endpoint: { id: string } };
    await call("sendTest", { endpointId: endpoint.id });
    const error = await until("the attempt was logged", async () => {
      const log = (await call("deliveries", { endpointId: endpoint.id }, false)).data as {
        entries: { tries: { error: string | null }[] }[];
      };
      return log.entries[0]?.tries[0]?.error ?? undefined;
    });
    expect(error).toBe(`${name} is not a public address`);
    for (const address of ["127.0.0.1", "::ffff", "7f00", "64:ff9b", "10.0.0.7", "169.254", "93.184"])
      expect(error).not.toContain(address);
    expect(dns.asked.some((q) => q.endsWith(name))).toBe(true);
    expect(listener.connections()).toBe(0);
    await call("remove", { endpointId: endpoint.id });
  });

  it.each([
    "https://127.0.0.1/hook",
    "https://127.1/hook",
    "https://2130706433/hook",
    "https://0x7f.0.0.1/hook",
    "https://[::1]/hook",
    "https://[::127.0.0.1]/hook",
    "https://[::ffff:7f00:1]/hook",
    "https://[64:ff9b::7f00:1]/hook",
    "https://169.254.169.254/latest/meta-data/",
    "https://[fd00::2]/hook",
    "https://localhost/hook",
    "https://ｌｏｃａｌｈｏｓｔ/hook",
    "https://app.localhost/hook",
    "http://hooks.example.com/plain-http",
  ])("to the literal %s are refused when the endpoint is made", async (url) => {
    const created = await call("create", { url, events: ["release.published"] });
    expect(created.status).toBe(400);
    expect(created.problem?.code).toBe("invalid_request");
  });
});

describe("API7: the authorization server's fetches", () => {
  it("does not fetch a client metadata document from a name that resolves to loopback", async () => {
    const { metadata, resource } = await discover(app.url);
    for (const name of ["loopback.ssrf.test", "mapped.ssrf.test", "nat64.ssrf.test"]) {
      const response = await fetch(
        authorizeUrl(metadata, {
          clientId: at(name, "/client.json"),
          redirectUri: "http://127.0.0.1:51999/callback",
          scope: "Market.Read.All",
          resource,
          challenge: pkcePair().challenge,
        }),
        { redirect: "manual" },
      );
      expect(response.status, name).toBe(400);
      expect(await response.text(), name).toMatch(/invalid_client/);
      // Looked up through the service's guard (its resolver), which refused the address it found.
      expect(
        dns.asked.some((q) => q.endsWith(` ${name}`)),
        name,
      ).toBe(true);
    }
    expect(listener.connections()).toBe(0);
  });

  it("does not fetch a registered client's jwks_uri on a name that resolves to loopback", async () => {
    const { metadata } = await discover(app.url);
    const registered = await fetch(metadata.registration_endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        redirect_uris: ["https://client.example/callback"],
        token_endpoint_auth_method: "private_key_jwt",
        token_endpoint_auth_signing_alg: "RS256",
        jwks_uri: at("loopback.ssrf.test", "/jwks.json"),
        grant_types: ["authorization_code"],
      }),
    });
    expect(registered.status).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const { privateKey } = await generateKeyPair("RS256");
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(metadata.token_endpoint)
      .setJti(crypto.randomUUID())
      .setIssuedAt()
      .setExpirationTime("1m")
      .sign(privateKey);
    const token = await fetch(metadata.token_endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: "not-a-code",
        redirect_uri: "https://client.example/callback",
        client_id: clientId,
        client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        client_assertion: assertion,
      }),
    });
    expect(token.status).toBe(401);
    expect(((await token.json()) as { error: string }).error).toBe("invalid_client");
    expect(dns.asked).toContain("A loopback.ssrf.test");
    expect(listener.connections()).toBe(0);
  });
});
