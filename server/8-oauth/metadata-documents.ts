/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): an MCP client
 * names itself by an https URL, and the document at that URL is its registration. oidc-provider
 * fetches, checks and caches the document (features.clientIdMetadataDocument: https only, no
 * redirects, a 2.5 s timeout, its body cap, its `client_id` equal to the URL, no shared-secret
 * authentication, special-use addresses refused at connect). What this module adds, as the
 * feature's hooks:
 *
 * - every fetch goes through the service's one outbound guard (`documentFetch`): a name that
 *   resolves to a private, loopback or link-local address is refused before any connection is
 *   made, and hosts named literally are refused before the library even asks;
 *   CIMD_ALLOW_PRIVATE_HOSTS=1 lifts both, for tests on one machine, and is refused in production
 *   (server/5-startup/client-metadata-hosts.ts);
 * - fetches per host are throttled across instances, and a document that failed is not fetched
 *   again for NEGATIVE_CACHE_SECONDS (the library caches only documents that passed);
 * - the document is the registration of a native or web client like one made by DCR: the same
 *   length limits and the same amendments (registration.ts);
 * - it must declare its redirect URIs and `token_endpoint_auth_method: "none"`: a document is
 *   public, so a client it describes can keep no secret.
 */
import type Provider from "oidc-provider";
import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import { errors } from "oidc-provider";
import type { Database } from "../../db/client";
import { THROTTLES, throttle } from "../3-limits/throttles";
import { log } from "../3-observability/logger";
import { guardedFetch } from "../3-outbound/fetch";
import { namesPrivateAddress } from "../3-outbound/public-address";
import { normalizeRegistration, registrationOverLimits } from "./registration";

/** How long a document that could not be used is not fetched again (per instance). */
export const NEGATIVE_CACHE_SECONDS = 60;
/** The largest document accepted; real ones are a few hundred bytes. */
export const DOCUMENT_MAX_BYTES = 5 * 1024;
/** Bounds of how long a good document is kept, whatever its Cache-Control says. */
export const DOCUMENT_CACHE_SECONDS = { min: 300, max: 86_400 } as const;

type Fetch = NonNullable<Configuration["fetch"]>;
type Client = InstanceType<Provider["Client"]>;

/** Whether tests may serve documents from this machine (decided once at start). */
export const privateHostsAllowed = () => process.env.CIMD_ALLOW_PRIVATE_HOSTS === "1";

/** Documents that failed, by URL: when they may be fetched again. */
const failedUntil = new Map<string, number>();
/** Documents being fetched: a second authorization meanwhile joins the fetch (the library dedupes). */
const fetching = new Set<string>();
const MAX_REMEMBERED_FAILURES = 1000;

function rememberFailure(url: string) {
  if (failedUntil.size >= MAX_REMEMBERED_FAILURES) failedUntil.delete(failedUntil.keys().next().value as string);
  failedUntil.set(url, Date.now() + NEGATIVE_CACHE_SECONDS * 1000);
}

/** A description the client and the person see, in the OAuth error of the authorize page or token endpoint. */
const refuse = (description: string): never => {
  throw new errors.InvalidClientMetadata(description);
};

/** Client metadata documents the library was allowed to fetch and is about to (allowDocumentFetch said yes). */
const expected = new Set<string>();

/**
 * Every fetch the authorization server makes, through the service's one outbound guard
 * (server/3-outbound/guard.ts: public addresses only, checked before connecting, no redirects, a
 * time and size cap). A client metadata document is besides read within its own cap and amended
 * as a DCR registration is; anything else (a client's `jwks_uri`) is passed on as it came.
 */
export function documentFetch(): Fetch {
  const guarded = guardedFetch(() => ({
    allowPrivate: privateHostsAllowed(),
    timeoutMs: FETCH_TIMEOUT_MS,
    maxResponseBytes: FETCH_MAX_BYTES,
    overflow: "refuse",
  }));
  return async (url, options) => {
    const { dispatcher: _unused, ...init } = options as RequestInit & { dispatcher?: unknown };
    const id = url instanceof Request ? url.url : String(url);
    if (!expected.delete(id)) return guarded(id, init);
    fetching.add(id);
    try {
      return await amended(await guarded(id, init));
    } finally {
      fetching.delete(id);
      // Until the document proves good (allowDocumentClient clears this), the URL counts as failed.
      rememberFailure(id);
    }
  };
}

/** What the authorization server reads of any document it fetches, and how long it waits (its own timeout is 2.5 s). */
const FETCH_MAX_BYTES = 64 * 1024;
const FETCH_TIMEOUT_MS = 2500;

/** Only what the library reads of the headers: a copied Content-Length would no longer be true. */
const CACHE_HEADERS = ["cache-control", "expires", "content-type"];

async function amended(response: Response): Promise<Response> {
  if (response.status !== 200) return response;
  if (Number(response.headers.get("content-length")) > DOCUMENT_MAX_BYTES) {
    await response.body?.cancel();
    throw new Error("the client metadata document is too large");
  }
  const body = await readCapped(response);
  const headers = new Headers();
  for (const name of CACHE_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    return new Response(body, { status: 200, headers }); // the library says it is no JSON
  }
  const overLimits = registrationOverLimits(document);
  if (overLimits) throw new Error(`the client metadata document is too large: ${overLimits}`);
  return new Response(JSON.stringify(normalizeRegistration(document)), { status: 200, headers });
}

async function readCapped(response: Response): Promise<string> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  if (!response.body) return "";
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    received += chunk.byteLength;
    if (received > DOCUMENT_MAX_BYTES) {
      await response.body?.cancel();
      throw new Error("the client metadata document is too large");
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Before a document is fetched: its host public (unless tests allow), not failed lately, not fetched too often. */
export function allowDocumentFetch(db: Database) {
  return async (_ctx: KoaContextWithOIDC, clientId: string): Promise<boolean> => {
    const url = new URL(clientId);
    if (!privateHostsAllowed() && namesPrivateAddress(url.hostname)) {
      log().info({ host: url.hostname }, "oauth: client metadata document on a private address refused");
      return false;
    }
    if (fetching.has(clientId)) return true;
    if ((failedUntil.get(clientId) ?? 0) > Date.now()) return false;
    const verdict = await throttle(db, [[THROTTLES.metadataDocumentsPerHost, url.host]]);
    if (!verdict.allowed) log().warn({ host: url.host }, "oauth: client metadata document fetches throttled");
    else expected.add(clientId);
    return verdict.allowed;
  };
}

/** After a document was read (or taken from the cache): what a public client's registration must declare. */
export async function allowDocumentClient(_ctx: KoaContextWithOIDC, client: Client): Promise<boolean> {
  if (!client.redirectUris?.length) refuse("the client metadata document declares no redirect_uris");
  if (client.tokenEndpointAuthMethod !== "none")
    refuse(
      `the client metadata document must declare token_endpoint_auth_method "none" (a public client), not "${client.tokenEndpointAuthMethod}"`,
    );
  failedUntil.delete(client.clientId);
  return true;
}
