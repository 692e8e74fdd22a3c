/**
 * The two HTTP steps of dashboard sign-in through an organization's identity provider
 * (docs/enterprise.md): `POST /api/auth/sso/start` sends the person to their IdP, and
 * `GET /api/auth/sso/callback` takes them back, signed in with the same database session and
 * cookie next-auth would have given them. What the round trip needs (state, nonce, PKCE verifier)
 * travels sealed in a short-lived httpOnly cookie; the redirect URI is built on the operator's
 * public origin (server/2-http/origin.ts), never on a Host a client sent.
 */
import type { Database } from "../../db/client";
import { publicOrigin } from "../2-http/origin";
import { SIGN_IN_PATH } from "../2-http/paths";
import { isSameOriginRequest } from "../2-http/same-origin";
import { SealBrokenError, seal, unseal } from "../3-keys/sealed";
import { errorMessage, log } from "../3-observability/logger";
import {
  beginSsoSignIn,
  completeSsoSignIn,
  endSessionsOutsideRequiredSso,
  recheckIdentityLinks,
  SSO_TRANSACTION_SECONDS,
  SsoRefusal,
  type SsoTransaction,
} from "../4-identity/sso";
import { getDatabase } from "../5-database/app-database";
import { sessionMaxAge } from "./session-age";

export const SSO_START_PATH = "/api/auth/sso/start";
export const SSO_CALLBACK_PATH = "/api/auth/sso/callback";
/** next-auth's session cookie (its default name; `__Secure-` on https, as next-auth names it there). */
const SESSION_COOKIE = "authjs.session-token";
const TRANSACTION_COOKIE = "mps.sso";

/** The redirect URI owners register at their IdP: on the public origin. */
export const ssoRedirectUri = (origin: string) => `${origin}${SSO_CALLBACK_PATH}`;

const securePrefix = (origin: string) => (new URL(origin).protocol === "https:" ? "__Secure-" : "");

function cookie(
  name: string,
  value: string,
  options: { origin: string; path: string; maxAge?: number; expires?: Date },
) {
  const parts = [`${name}=${value}`, `Path=${options.path}`, "HttpOnly", "SameSite=Lax"];
  if (options.expires) parts.push(`Expires=${options.expires.toUTCString()}`);
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (securePrefix(options.origin)) parts.push("Secure");
  return parts.join("; ");
}

function cookieValue(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

const safePath = (value: unknown): string =>
  typeof value === "string" && value.startsWith("/") && !value.startsWith("//") && !value.includes("\\") ? value : "/";

function redirect(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const value of cookies) headers.append("Set-Cookie", value);
  return new Response(null, { status: 303, headers });
}

/** Back to the sign-in page with a word for why (the page explains it; no IdP text is echoed). */
const refused = (origin: string, reason: string, cookies: string[] = []) =>
  redirect(`${origin}${SIGN_IN_PATH}?sso_error=${encodeURIComponent(reason)}`, cookies);

/** `POST /api/auth/sso/start` (a form of the sign-in page: `email`, `callbackUrl`). */
export async function ssoStart(request: Request, database?: Database): Promise<Response> {
  const origin = publicOrigin(request);
  if (request.method !== "POST" || !isSameOriginRequest(request, origin)) return refused(origin, "expired");
  const form = await request.formData().catch(() => null);
  const email = String(form?.get("email") ?? "").slice(0, 254);
  const returnTo = safePath(form?.get("callbackUrl"));
  const db = database ?? (await getDatabase()).db;
  try {
    const started = await beginSsoSignIn(db, { email, redirectUri: ssoRedirectUri(origin), returnTo });
    if (!started) return refused(origin, "not_configured");
    const sealed = seal(JSON.stringify(started.transaction));
    return redirect(started.url.href, [
      cookie(`${securePrefix(origin)}${TRANSACTION_COOKIE}`, sealed, {
        origin,
        path: SSO_CALLBACK_PATH,
        maxAge: SSO_TRANSACTION_SECONDS,
      }),
    ]);
  } catch (error) {
    if (error instanceof SsoRefusal) return refused(origin, error.reason);
    throw error;
  }
}

function transactionOf(request: Request, origin: string): SsoTransaction | null {
  const sealed = cookieValue(request, `${securePrefix(origin)}${TRANSACTION_COOKIE}`);
  if (!sealed) return null;
  try {
    return JSON.parse(unseal(sealed)) as SsoTransaction;
  } catch (error) {
    if (!(error instanceof SealBrokenError)) log().warn({ error: errorMessage(error) }, "sso: unreadable transaction");
    return null;
  }
}

/** `GET /api/auth/sso/callback`: the IdP's answer; a session and the dashboard, or the sign-in page saying why not. */
export async function ssoCallback(request: Request, database?: Database): Promise<Response> {
  const origin = publicOrigin(request);
  const clear = cookie(`${securePrefix(origin)}${TRANSACTION_COOKIE}`, "", {
    origin,
    path: SSO_CALLBACK_PATH,
    maxAge: 0,
  });
  const transaction = transactionOf(request, origin);
  if (!transaction) return refused(origin, "expired", [clear]);
  // The URL the IdP sent the person to, on the public origin (the redirect URI as registered).
  const incoming = new URL(request.url);
  const callbackUrl = new URL(`${ssoRedirectUri(origin)}${incoming.search}`);
  const db = database ?? (await getDatabase()).db;
  try {
    const signedIn = await completeSsoSignIn(db, { transaction, callbackUrl, sessionMaxAge: sessionMaxAge() });
    log().info({ organizationId: signedIn.organizationId, joined: signedIn.joined }, "sso: signed in");
    return redirect(`${origin}${safePath(transaction.returnTo)}`, [
      clear,
      cookie(`${securePrefix(origin)}${SESSION_COOKIE}`, signedIn.sessionToken, {
        origin,
        path: "/",
        expires: signedIn.expires,
      }),
    ]);
  } catch (error) {
    if (error instanceof SsoRefusal) return refused(origin, error.reason, [clear]);
    throw error;
  }
}

/**
 * For every dashboard request of a signed-in person: a session made outside an IdP their address
 * must now use ends, and their identity links that are due are rechecked at the IdP
 * (server/4-identity/sso.ts); false when their session has ended. A fault here never signs anyone out.
 */
export async function stillSignedIn(userId: string, database?: Database): Promise<boolean> {
  try {
    const db = database ?? (await getDatabase()).db;
    if (await endSessionsOutsideRequiredSso(db, userId)) return false;
    return !(await recheckIdentityLinks(db, userId)).ended;
  } catch (error) {
    log().warn({ error: errorMessage(error) }, "sso: the recheck failed; the session stays");
    return true;
  }
}
