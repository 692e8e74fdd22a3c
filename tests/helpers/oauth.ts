/**
 * An MCP client's side of OAuth, written against the RFCs with fetch (no OAuth library, so the
 * server is checked by an independent implementation): discovery from the 401, dynamic
 * registration, PKCE, the browser's part of authorization (cookies, the consent form, redirects)
 * with a dashboard session cookie standing in for the signed-in person, and the token endpoint.
 */
import { createHash, randomBytes } from "node:crypto";
import { SESSION_COOKIE } from "./accounts";

export interface ServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  revocation_endpoint: string;
  jwks_uri: string;
  code_challenge_methods_supported?: string[];
  [key: string]: unknown;
}

/** Parses `Bearer a="b", c="d"` into its parameters. */
export function challengeParams(header: string | null): Record<string, string> {
  const params: Record<string, string> = {};
  for (const match of (header ?? "").matchAll(/(\w+)="([^"]*)"/g)) params[match[1] as string] = match[2] as string;
  return params;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** A browser's cookies for one site, enough for these flows: by name, paths ignored. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  constructor(session?: string) {
    if (session) this.cookies.set(SESSION_COOKIE, session);
  }
  store(response: Response) {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = (pair as string).indexOf("=");
      const name = (pair as string).slice(0, at);
      const value = (pair as string).slice(at + 1);
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** Follows the 401 of /mcp to the authorization server's metadata, as the MCP spec says. */
export async function discover(base: string): Promise<{ resource: string; metadata: ServerMetadata; scope: string }> {
  const unauthorized = await postMcp(base);
  const challenge = challengeParams(unauthorized.headers.get("www-authenticate"));
  const resourceMetadata = (await (await fetch(challenge.resource_metadata as string)).json()) as {
    resource: string;
    authorization_servers: string[];
  };
  const issuer = resourceMetadata.authorization_servers[0] as string;
  const metadata = (await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json()) as ServerMetadata;
  return { resource: resourceMetadata.resource, metadata, scope: challenge.scope as string };
}

export async function register(metadata: ServerMetadata, client: Record<string, unknown>) {
  const response = await fetch(metadata.registration_endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(client),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { client_id: string } };
}

export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  scope?: string;
  resource?: string;
  challenge?: string;
  state?: string;
}

export function authorizeUrl(metadata: ServerMetadata, request: AuthorizeRequest): string {
  const url = new URL(metadata.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", request.clientId);
  url.searchParams.set("redirect_uri", request.redirectUri);
  if (request.scope !== undefined) url.searchParams.set("scope", request.scope);
  if (request.resource) url.searchParams.set("resource", request.resource);
  if (request.challenge) {
    url.searchParams.set("code_challenge", request.challenge);
    url.searchParams.set("code_challenge_method", "S256");
  }
  url.searchParams.set("state", request.state ?? randomBytes(8).toString("hex"));
  return url.href;
}

/** One browser step: the request with the jar's cookies, never following redirects. */
export async function browse(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, {
    ...init,
    redirect: "manual",
    headers: { ...(init.headers as Record<string, string>), Cookie: jar.header() },
  });
  jar.store(response);
  return response;
}

/**
 * The browser's part: authorize → consent page → the person's decision → back to the client's
 * redirect URI. Returns that final redirect (with `code` or `error`) and the consent page's HTML.
 */
export async function authorizeInBrowser(
  base: string,
  jar: CookieJar,
  url: string,
  decision: "allow" | "deny" = "allow",
): Promise<{ redirect: URL; consentHtml: string }> {
  const start = await browse(jar, url);
  if (start.status !== 303 && start.status !== 302)
    throw new Error(`authorize answered ${start.status}: ${await start.text()}`);
  const interaction = new URL(start.headers.get("location") as string, base);
  const consent = await browse(jar, interaction.href);
  const consentHtml = await consent.text();
  if (consent.status !== 200) throw new Error(`consent page answered ${consent.status}`);
  const decided = await browse(jar, `${interaction.href}/decision`, {
    method: "POST",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ decision }).toString(),
  });
  if (decided.status !== 303) throw new Error(`decision answered ${decided.status}: ${await decided.text()}`);
  const resumed = await browse(jar, new URL(decided.headers.get("location") as string, base).href);
  if (resumed.status !== 303) throw new Error(`resume answered ${resumed.status}: ${await resumed.text()}`);
  return { redirect: new URL(resumed.headers.get("location") as string), consentHtml };
}

export async function tokenRequest(metadata: ServerMetadata, form: Record<string, string>) {
  const response = await fetch(metadata.token_endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, string> & { access_token: string; refresh_token?: string },
  };
}

/** The client's exchange of the code its redirect carried (PKCE verifier, the resource it asked for). */
export function exchangeCode(
  metadata: ServerMetadata,
  exchange: { redirect: URL; redirectUri: string; clientId: string; verifier: string; resource: string },
) {
  return tokenRequest(metadata, {
    grant_type: "authorization_code",
    code: exchange.redirect.searchParams.get("code") as string,
    redirect_uri: exchange.redirectUri,
    client_id: exchange.clientId,
    code_verifier: exchange.verifier,
    resource: exchange.resource,
  });
}

/** A bare JSON-RPC tools/list on /mcp with a bearer token (or none): the HTTP answer as it is. */
export function postMcp(base: string, token?: string): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
}

/**
 * A new public MCP client's authorization started in `jar`'s browser, stopping before the
 * consent page: the interaction's URL (its page; the decision is `${href}/decision`) and the client.
 */
export async function startAuthorization(
  base: string,
  jar: CookieJar,
  scope = "Market.Read.All offline_access",
): Promise<{ interaction: URL; clientId: string }> {
  const { metadata } = await discover(base);
  const redirectUri = "http://127.0.0.1:33418/callback";
  const client = await register(metadata, {
    client_name: "Consent client",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  });
  const clientId = client.body.client_id;
  const url = authorizeUrl(metadata, {
    clientId,
    redirectUri,
    scope,
    resource: `${base}/mcp`,
    challenge: pkcePair().challenge,
  });
  const start = await browse(jar, url);
  if (start.status !== 303) throw new Error(`authorize answered ${start.status}: ${await start.text()}`);
  return { interaction: new URL(start.headers.get("location") as string, base), clientId };
}

/** The person's answer on the consent page (the form's POST from the site's own page). */
export const postDecision = (base: string, jar: CookieJar, interaction: URL, decision: "allow" | "deny" = "allow") =>
  browse(jar, `${interaction.href}/decision`, {
    method: "POST",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ decision }).toString(),
  });
