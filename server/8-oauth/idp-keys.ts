/**
 * The keys an organization's identity provider signs its ID-JAGs with (docs/enterprise-mcp.md):
 * the key set given inline (`ops org idp set --jwks FILE`), or the issuer's own, found through
 * its discovery document (OpenID Connect, else RFC 8414) and its `jwks_uri`. Both documents are
 * fetched through the service's one outbound guard (public addresses only unless tests allow
 * private ones, no redirects, a time and size cap), and kept a few minutes per issuer; a key id
 * not in the kept set fetches it again (key rotation), at most every half minute.
 *
 * Whoever can name an issuer (an organization's owner) and send assertions that claim it (anyone)
 * must not be able to make us hammer that host: requests that arrive together share one fetch,
 * and a fetch that failed is not tried again for half a minute (its reason is answered meanwhile).
 * So an issuer's host sees at most one round of fetches per half minute from each instance, however
 * many assertions name it.
 */
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { guardedFetch } from "../3-outbound/fetch";
import { OutboundRefused } from "../3-outbound/guard";

/** Why the keys could not be had, in words for the client's error_description. */
export class IdpKeysUnavailable extends Error {}

export interface KeySource {
  issuer: string;
  jwks: { keys: Record<string, unknown>[] } | null;
}

const FETCH_TIMEOUT_MS = 2500;
const FETCH_MAX_BYTES = 64 * 1024;
const KEEP_MS = 5 * 60_000;
const REFETCH_AFTER_MS = 30_000;
const MAX_KEPT = 100;

interface Kept {
  keys: JSONWebKeySet;
  at: number;
}
const kept = new Map<string, Kept>();
/** Fetches under way, shared by every request that needs the same issuer's keys. */
const fetching = new Map<string, Promise<JSONWebKeySet>>();
/** Fetches that failed, and when: answered without asking again until REFETCH_AFTER_MS has passed. */
const failed = new Map<string, { error: IdpKeysUnavailable; at: number }>();

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

const fetcher = (allowPrivate: boolean): Fetch =>
  guardedFetch(() => ({
    allowPrivate,
    timeoutMs: FETCH_TIMEOUT_MS,
    maxResponseBytes: FETCH_MAX_BYTES,
    overflow: "refuse",
  }));

async function getJson(fetch: Fetch, url: string, what: string): Promise<Record<string, unknown> | null> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: "application/json" } });
  } catch (error) {
    const reason = error instanceof OutboundRefused ? error.message : "it did not answer";
    throw new IdpKeysUnavailable(`the identity provider's ${what} at ${url} could not be fetched: ${reason}`);
  }
  if (response.status === 404) return null;
  if (response.status !== 200)
    throw new IdpKeysUnavailable(`the identity provider's ${what} at ${url} answered HTTP ${response.status}`);
  const body = (await response.json().catch(() => null)) as unknown;
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new IdpKeysUnavailable(`the identity provider's ${what} at ${url} is not a JSON object`);
  return body as Record<string, unknown>;
}

/** The issuer's jwks_uri, from its discovery document, whose issuer must be exactly it. */
async function jwksUriOf(fetch: Fetch, issuer: string): Promise<string> {
  for (const path of ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"]) {
    const url = path === "/.well-known/openid-configuration" ? `${issuer}${path}` : rfc8414Url(issuer, path);
    const document = await getJson(fetch, url, "discovery document");
    if (!document) continue;
    if (document.issuer !== issuer)
      throw new IdpKeysUnavailable(`the discovery document at ${url} names the issuer ${String(document.issuer)}`);
    if (typeof document.jwks_uri !== "string")
      throw new IdpKeysUnavailable(`the discovery document at ${url} has no jwks_uri`);
    return document.jwks_uri;
  }
  throw new IdpKeysUnavailable(`the identity provider ${issuer} publishes no discovery document`);
}

/** RFC 8414 §3: the well-known path goes between the host and the issuer's own path. */
function rfc8414Url(issuer: string, wellKnown: string): string {
  const url = new URL(issuer);
  return `${url.origin}${wellKnown}${url.pathname === "/" ? "" : url.pathname}`;
}

async function fetchKeys(issuer: string, allowPrivate: boolean): Promise<JSONWebKeySet> {
  const fetch = fetcher(allowPrivate);
  const jwksUri = await jwksUriOf(fetch, issuer);
  const set = await getJson(fetch, jwksUri, "key set");
  if (!set || !Array.isArray(set.keys)) throw new IdpKeysUnavailable(`the key set at ${jwksUri} has no keys`);
  return set as unknown as JSONWebKeySet;
}

async function remoteKeys(issuer: string, allowPrivate: boolean, fresh: boolean): Promise<JSONWebKeySet> {
  // Whether private hosts are allowed is part of the question (one process, one answer, but tests ask both).
  const key = allowPrivate ? `${issuer} (private hosts allowed)` : issuer;
  const entry = kept.get(key);
  const age = entry ? Date.now() - entry.at : Number.POSITIVE_INFINITY;
  if (entry && age < KEEP_MS && !(fresh && age >= REFETCH_AFTER_MS)) return entry.keys;
  const failure = failed.get(key);
  if (failure && Date.now() - failure.at < REFETCH_AFTER_MS) throw failure.error;
  let pending = fetching.get(key);
  if (!pending) {
    pending = fetchKeys(issuer, allowPrivate)
      .then((keys) => {
        keep(kept, key, { keys, at: Date.now() });
        failed.delete(key);
        return keys;
      })
      .catch((error: unknown) => {
        const unavailable =
          error instanceof IdpKeysUnavailable
            ? error
            : new IdpKeysUnavailable(`the key set of ${issuer} could not be read`);
        keep(failed, key, { error: unavailable, at: Date.now() });
        throw unavailable;
      })
      .finally(() => fetching.delete(key));
    fetching.set(key, pending);
  }
  return pending;
}

/** Sets an entry, dropping the oldest when the map is full (issuers are few; hostile ones are not). */
function keep<T>(map: Map<string, T>, key: string, value: T): void {
  map.delete(key);
  if (map.size >= MAX_KEPT) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

/**
 * A key resolver for jose's jwtVerify: the inline set, or the issuer's published one (fetched
 * again once when no key matches the assertion's, in case the IdP rotated its keys).
 */
export function idpKeys(source: KeySource, options: { allowPrivate: boolean }): JWTVerifyGetKey {
  if (source.jwks) return createLocalJWKSet(source.jwks as unknown as JSONWebKeySet);
  return async (header, token) => {
    const keys = await remoteKeys(source.issuer, options.allowPrivate, false);
    try {
      return await createLocalJWKSet(keys)(header, token);
    } catch (error) {
      if ((error as { code?: string }).code !== "ERR_JWKS_NO_MATCHING_KEY") throw error;
      return createLocalJWKSet(await remoteKeys(source.issuer, options.allowPrivate, true))(header, token);
    }
  };
}

/** Forgets every fetched key set and failure (tests that change an IdP's keys). */
export const forgetIdpKeys = () => {
  kept.clear();
  failed.clear();
};
