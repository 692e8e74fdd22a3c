/**
 * MCP clients known by a Client ID Metadata Document: an https URL as client_id, whose document
 * a local HTTPS server (tests/fixtures/tls, trusted by the app under test) serves. The whole flow
 * by an independent client written against the RFCs, then each document the server must refuse,
 * a private-address client_id refused by an app outside test mode, and the caches and throttle
 * that keep the server from fetching for anyone who asks.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dashboardCall } from "../helpers/dashboard";
import { TEST_TLS } from "../helpers/fixtures";
import { callToolWithToken } from "../helpers/mcp";
import {
  authorizeInBrowser,
  authorizeUrl,
  browse,
  CookieJar,
  challengeParams,
  discover,
  exchangeCode,
  pkcePair,
  postMcp,
  type ServerMetadata,
  tokenRequest,
} from "../helpers/oauth";
import { startApp } from "../helpers/server";

const base = inject("appUrl");
const accounts = inject("accounts");
const SCOPE = "Market.Read.All";
/** A loopback port other than the document's: native clients listen where they can (RFC 8252 §7.3). */
const REDIRECT = "http://127.0.0.1:51999/callback";

interface Served {
  body: string;
  status?: number;
  delayMs?: number;
  headers?: Record<string, string>;
}

/** The clients' site: documents by path, and how often each was fetched. */
const documents = new Map<string, Served>();
const hits = new Map<string, number>();
let site: Server;
let siteOrigin: string;
let siteOriginByName: string;

const documentUrl = (path: string, origin = siteOrigin) => `${origin}${path}`;

/** Serves `document` (an object: its JSON; a string: as it is) at a new path; returns its URL. */
function publish(
  name: string,
  document: (url: string) => unknown,
  served: Omit<Served, "body"> = {},
  origin = siteOrigin,
) {
  const path = `/clients/${name}-${Math.random().toString(36).slice(2)}.json`;
  const url = documentUrl(path, origin);
  const value = document(url);
  documents.set(path, { body: typeof value === "string" ? value : JSON.stringify(value), ...served });
  return url;
}

const hitsOf = (url: string) => hits.get(new URL(url).pathname) ?? 0;

/** What Claude Code and VS Code publish: a name, loopback redirects, a public client. */
const goodDocument = (url: string) => ({
  client_id: url,
  client_name: "Hosted Test Client",
  client_uri: "https://client.example",
  redirect_uris: ["http://127.0.0.1:33418/callback", "http://localhost:33418/callback"],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
});

let metadata: ServerMetadata;
let resource: string;

beforeAll(async () => {
  site = createServer({ cert: readFileSync(TEST_TLS.cert), key: readFileSync(TEST_TLS.key) }, (request, response) => {
    const path = new URL(request.url ?? "/", "https://x").pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const served = documents.get(path);
    const answer = () => {
      if (!served) return response.writeHead(404).end();
      response.writeHead(served.status ?? 200, { "Content-Type": "application/json", ...served.headers });
      response.end(served.body);
    };
    if (served?.delayMs) setTimeout(answer, served.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const { port } = site.address() as AddressInfo;
  siteOrigin = `https://127.0.0.1:${port}`;
  siteOriginByName = `https://localhost:${port}`;
  ({ metadata, resource } = await discover(base));
});

afterAll(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

const mcpCall = (token: string, tool: string, args: Record<string, unknown>) =>
  callToolWithToken(base, token, tool, args);

/** The person authorizes `clientId` in the browser with PKCE and `resource`; the code is exchanged. */
async function connect(clientId: string, options: { scope?: string; state?: string } = {}) {
  const { verifier, challenge } = pkcePair();
  const { redirect, consentHtml } = await authorizeInBrowser(
    base,
    new CookieJar(accounts.cimd.session),
    authorizeUrl(metadata, {
      clientId,
      redirectUri: REDIRECT,
      scope: options.scope ?? SCOPE,
      resource,
      challenge,
      state: options.state,
    }),
  );
  const tokens = await exchangeCode(metadata, { redirect, redirectUri: REDIRECT, clientId, verifier, resource });
  return { redirect, consentHtml, tokens };
}

/** The authorization endpoint's answer for a client_id, followed to its error page when there is one. */
async function authorizeAnswer(clientId: string, redirectUri = REDIRECT) {
  const { challenge } = pkcePair();
  const response = await browse(
    new CookieJar(accounts.cimd.session),
    authorizeUrl(metadata, { clientId, redirectUri, scope: SCOPE, resource, challenge }),
  );
  return { status: response.status, location: response.headers.get("location"), body: await response.text() };
}

describe("discovery", () => {
  it("advertises Client ID Metadata Documents, and OAuth 2.1's code flow only", async () => {
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    expect(metadata.response_types_supported).toEqual(["code"]);
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
    expect(metadata.grant_types_supported).not.toContain("implicit");
    expect(metadata.code_challenge_methods_supported).toEqual(["S256"]);
    expect(metadata.token_endpoint_auth_methods_supported).toContain("none");
  });
});

describe("a client known by its metadata document", () => {
  it("authorizes with PKCE and resource, consents, calls tools, refreshes, is listed, and revokes", async () => {
    const clientId = publish("good", goodDocument, { headers: { "Cache-Control": "max-age=600" } });
    const { redirect, consentHtml, tokens } = await connect(clientId, {
      scope: `${SCOPE} offline_access`,
      state: "cimd-state",
    });
    // The person sees the name and who vouches for it: the host of the client_id.
    expect(consentHtml).toContain("Hosted Test Client");
    expect(consentHtml).toMatch(new RegExp(`published by <strong>${new URL(siteOrigin).host}</strong>`));
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT);
    expect(redirect.searchParams.get("state")).toBe("cimd-state");
    expect(redirect.searchParams.get("iss")).toBe(base);

    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(decodeJwt(tokens.body.access_token).client_id).toBe(clientId);
    expect(decodeJwt(tokens.body.access_token).aud).toBe(`${base}/mcp`);

    const before = (await dashboardCall(base, accounts.cimd.session, "credits.summary")).data as { balance: number };
    const result = await mcpCall(tokens.body.access_token, "service_market_get_snapshot", {
      marketId: "foundation-model-apis",
    });
    expect(result.isError).toBeFalsy();
    expect(result._meta?.credits).toEqual({ cost: 5, remaining: before.balance - 5 });

    const refreshed = await tokenRequest(metadata, {
      grant_type: "refresh_token",
      refresh_token: tokens.body.refresh_token as string,
      client_id: clientId,
    });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect((await mcpCall(refreshed.body.access_token, "service_markets_list", {})).isError).toBeFalsy();
    // One fetch for the whole flow: the document is cached as its Cache-Control allows.
    expect(hitsOf(clientId)).toBe(1);

    const grantId = String(decodeJwt(tokens.body.access_token).gid);
    const list = (await dashboardCall(base, accounts.cimd.session, "connections.list")).data as {
      grantId: string;
      clientId: string;
      clientName: string;
      vouchedForBy: string | null;
    }[];
    expect(list.find((c) => c.grantId === grantId)).toMatchObject({
      clientId,
      clientName: "Hosted Test Client",
      vouchedForBy: new URL(siteOrigin).host,
    });

    const revoked = await fetch(metadata.revocation_endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: refreshed.body.refresh_token as string, client_id: clientId }).toString(),
    });
    expect(revoked.status).toBe(200);
    const answer = await postMcp(base, refreshed.body.access_token);
    expect(answer.status).toBe(401);
    expect(challengeParams(answer.headers.get("www-authenticate")).error).toBe("invalid_token");
    const after = (await dashboardCall(base, accounts.cimd.session, "connections.list")).data as { grantId: string }[];
    expect(after.map((c) => c.grantId)).not.toContain(grantId);
  });

  it("revokes from the Connect page like a registered client's connection", async () => {
    const clientId = publish("listed", goodDocument);
    const { tokens } = await connect(clientId);
    const grantId = String(decodeJwt(tokens.body.access_token).gid);
    const revoked = await dashboardCall(
      base,
      accounts.cimd.session,
      "connections.revoke",
      { grantId },
      { mutation: true },
    );
    expect(revoked.status).toBe(200);
    expect((await postMcp(base, tokens.body.access_token)).status).toBe(401);
  });
});

describe("documents that are refused", () => {
  const refusedAtAuthorize = async (clientId: string, description: RegExp, redirectUri?: string) => {
    const answer = await authorizeAnswer(clientId, redirectUri);
    // An unusable client is never redirected to: the error page says what is wrong.
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
    expect(answer.body).toMatch(/invalid_client|invalid_redirect_uri/);
    expect(answer.body).toMatch(description);
  };

  it("refuses a document whose client_id is not its URL", async () => {
    const url = publish("mismatch", (own) => ({ ...goodDocument(own), client_id: `${own}?other` }));
    await refusedAtAuthorize(url, /client_id does not match/);
  });

  it("refuses a redirect URI the document does not list", async () => {
    const url = publish("redirect", goodDocument);
    await refusedAtAuthorize(url, /redirect_uri/, "https://attacker.example/callback");
  });

  it("refuses a document with a shared-secret authentication method, or none declared", async () => {
    const secret = publish("secret", (own) => ({
      ...goodDocument(own),
      token_endpoint_auth_method: "client_secret_basic",
    }));
    await refusedAtAuthorize(secret, /shared-secret/);
    const undeclared = publish("undeclared", (own) => {
      const { token_endpoint_auth_method: _, ...rest } = goodDocument(own);
      return rest;
    });
    await refusedAtAuthorize(undeclared, /token_endpoint_auth_method|client_secret/);
  });

  it("refuses a document without redirect URIs", async () => {
    const url = publish("no-redirects", (own) => ({ ...goodDocument(own), redirect_uris: [] }));
    await refusedAtAuthorize(url, /redirect_uris/);
  });

  it("refuses an oversized document and a slow one", async () => {
    const big = publish("big", (own) => ({
      ...goodDocument(own),
      client_uri: `https://client.example/${"x".repeat(6000)}`,
    }));
    await refusedAtAuthorize(big, /fetch failed|too large/);
    const slow = publish("slow", goodDocument, { delayMs: 4000 });
    const started = performance.now();
    await refusedAtAuthorize(slow, /fetch failed/);
    // Given up within the fetch timeout (2.5 s), not after the document arrived.
    expect(performance.now() - started).toBeLessThan(3900);
  });

  it("refuses a document served through a redirect", async () => {
    const target = publish("target", goodDocument);
    const url = publish("moved", () => "", { status: 302, headers: { Location: target } });
    await refusedAtAuthorize(url, /fetch failed/);
    expect(hitsOf(target)).toBe(0);
  });

  it("refuses an http client_id without fetching it", async () => {
    const url = publish("plain", goodDocument).replace("https:", "http:");
    const answer = await authorizeAnswer(url);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/invalid_client/);
    expect(hitsOf(url)).toBe(0);
  });

  it("does not fetch a failed document again for a while, even once it is fixed", async () => {
    const url = publish("broken", (own) => ({ ...goodDocument(own), client_id: "https://someone.else/doc" }));
    await refusedAtAuthorize(url, /client_id does not match/);
    documents.set(new URL(url).pathname, { body: JSON.stringify(goodDocument(url)) });
    await refusedAtAuthorize(url, /not allowed/);
    expect(hitsOf(url)).toBe(1);
  });

  it("throttles fetches per host", async () => {
    // Another host than the other tests' (localhost, not 127.0.0.1): its own count of 30 a minute.
    const statuses: boolean[] = [];
    for (let i = 0; i < 32; i++) {
      const url = publish(`many-${i}`, goodDocument, {}, siteOriginByName);
      const answer = await authorizeAnswer(url);
      statuses.push(answer.status === 303 || answer.status === 302);
    }
    expect(statuses.slice(0, 30).every(Boolean)).toBe(true);
    expect(statuses.slice(30)).toEqual([false, false]);
  });
});

describe("outside test mode", () => {
  it("refuses a client_id on a private address without fetching it", async () => {
    const app = await startApp({
      DATABASE_URL: "",
      REDIS_URL: "",
      NODE_EXTRA_CA_CERTS: "",
      CIMD_ALLOW_PRIVATE_HOSTS: "0",
    });
    try {
      const own = await discover(app.url);
      const url = publish("private", goodDocument);
      const { challenge } = pkcePair();
      const response = await fetch(
        authorizeUrl(own.metadata, {
          clientId: url,
          redirectUri: REDIRECT,
          scope: SCOPE,
          resource: own.resource,
          challenge,
        }),
        { redirect: "manual" },
      );
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/invalid_client/);
      expect(hitsOf(url)).toBe(0);
    } finally {
      await app.stop();
    }
  });

  it("refuses to start in production with private hosts allowed", async () => {
    await expect(
      startApp({
        DATABASE_URL: "",
        REDIS_URL: "",
        NODE_ENV: "production",
        APP_URL: "http://mps.internal.example",
        DEV_OUTBOX: "1",
        CIMD_ALLOW_PRIVATE_HOSTS: "1",
      }),
    ).rejects.toThrow(/CIMD_ALLOW_PRIVATE_HOSTS=1 in production/);
  });
});
