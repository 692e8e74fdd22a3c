/**
 * Signed one-click unsubscribe links (RFC 8058): a link names a person and a list and works
 * without signing in, so it is an HS256 JWT under a key derived from AUTH_SECRET for this purpose
 * alone. Links do not expire (an old e-mail's link must still work); rotating AUTH_SECRET voids
 * them all.
 */
import { hkdfSync } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import { appSecret } from "../3-keys/app-secret";

export const MAIL_LISTS = ["release", "weekly"] as const;
export type MailList = (typeof MAIL_LISTS)[number];
export const UNSUBSCRIBE_PATH = "/unsubscribe";

const ISSUER = "mps:unsubscribe";

const keyOf = (secret: string) =>
  new Uint8Array(hkdfSync("sha256", secret, "market-positioning", "unsubscribe link v1", 32));

export async function unsubscribeToken(userId: string, list: MailList, secret = appSecret()): Promise<string> {
  return new SignJWT({ list })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(ISSUER)
    .setSubject(userId)
    .setIssuedAt()
    .sign(keyOf(secret));
}

export const unsubscribeUrl = async (origin: string, userId: string, list: MailList) =>
  `${origin}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(await unsubscribeToken(userId, list))}`;

/** The person and list a token names; undefined for anything not signed by us for this purpose. */
export async function readUnsubscribeToken(
  token: string,
  secret = appSecret(),
): Promise<{ userId: string; list: MailList } | undefined> {
  if (token.length > 2048) return undefined;
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), { algorithms: ["HS256"], issuer: ISSUER });
    const list = payload.list;
    if (typeof payload.sub !== "string" || !MAIL_LISTS.includes(list as MailList)) return undefined;
    return { userId: payload.sub, list: list as MailList };
  } catch {
    return undefined;
  }
}
