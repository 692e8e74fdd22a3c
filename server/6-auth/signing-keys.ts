/**
 * The signing keys of OAuth access tokens: generated on first start, kept in the database, so
 * every instance signs and verifies with the same keys and tokens survive restarts. Creation runs
 * under a transaction-level advisory lock, so instances starting together make one key, not two.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";
import type { Database } from "../../db/client";
import { oauthSigningKeys } from "../../db/schema";

const KEY_CREATION_LOCK = 7_311_002; // any constant: names "OAuth key creation" among advisory locks
const ALG = "RS256";

export async function signingKeys(db: Database): Promise<JWK[]> {
  const existing = await db.select().from(oauthSigningKeys).orderBy(oauthSigningKeys.createdAt);
  if (existing.length > 0) return existing.map((k) => k.privateJwk as JWK);
  return db.transaction(async (tx) => {
    await tx.execute(`select pg_advisory_xact_lock(${KEY_CREATION_LOCK})`);
    const raced = await tx.select().from(oauthSigningKeys).orderBy(oauthSigningKeys.createdAt);
    if (raced.length > 0) return raced.map((k) => k.privateJwk as JWK);
    const { privateKey } = await generateKeyPair(ALG, { extractable: true, modulusLength: 2048 });
    const jwk = await exportJWK(privateKey);
    const kid = await calculateJwkThumbprint(jwk);
    const key = { ...jwk, kid, alg: ALG, use: "sig" };
    await tx.insert(oauthSigningKeys).values({ kid, privateJwk: key });
    return [key];
  });
}

/** The public half of a key, for JWKS and verification. */
export function publicJwk(key: JWK): JWK {
  const { d, p, q, dp, dq, qi, ...publicPart } = key;
  return publicPart;
}
