/**
 * API tokens. A secret is `mps_` + 32 random bytes (base64url): the prefix makes a leaked token
 * recognisable to secret scanners and people. Only its SHA-256 and a display prefix are stored;
 * the secret is returned once, at creation.
 */
import { hash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import { announceChange, ChangeAwareCache } from "../../db/change-feed";
import type { Database } from "../../db/client";
import { recentDatabaseFault } from "../../db/faults";
import { apiTokens, organizations, users } from "../../db/schema";
import { MARKET_READ_SCOPE } from "../1-domain/operations";
import { log } from "../3-observability/logger";

export const TOKEN_PREFIX = "mps_";
const SECRET_BYTES = 32;
/** `mps_` and 43 base64url characters: anything else is refused before touching the database. */
const SECRET_PATTERN = /^mps_[A-Za-z0-9_-]{43}$/;
const DISPLAY_LENGTH = TOKEN_PREFIX.length + 8;

export const TOKEN_SCOPES = [MARKET_READ_SCOPE] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

// One-shot hash: a Hash object per call cost several µs of every metered call (twice: the door, then the caller).
export const hashSecret = (secret: string) => hash("sha256", secret, "hex");
export const looksLikeSecret = (value: string) => SECRET_PATTERN.test(value);

export function generateSecret(): string {
  return `${TOKEN_PREFIX}${randomBytes(SECRET_BYTES).toString("base64url")}`;
}

export interface ApiTokenSummary {
  id: string;
  name: string;
  displayPrefix: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** Who made it (their e-mail); null for the operator CLI's or one whose maker is gone. Lists only. */
  createdBy?: string | null;
}

const summaryColumns = {
  id: apiTokens.id,
  name: apiTokens.name,
  displayPrefix: apiTokens.displayPrefix,
  scopes: apiTokens.scopes,
  createdAt: apiTokens.createdAt,
  expiresAt: apiTokens.expiresAt,
  revokedAt: apiTokens.revokedAt,
  lastUsedAt: apiTokens.lastUsedAt,
};

export interface NewApiToken {
  organizationId: string;
  name: string;
  scopes: readonly TokenScope[];
  expiresAt?: Date | null;
  createdByUserId?: string | null;
}

/** Creates a token; the only time its secret exists outside the caller's hands. */
export async function createApiToken(
  db: Database,
  token: NewApiToken,
): Promise<{ token: ApiTokenSummary; secret: string }> {
  const secret = generateSecret();
  const [row] = await db
    .insert(apiTokens)
    .values({
      organizationId: token.organizationId,
      name: token.name,
      secretHash: hashSecret(secret),
      displayPrefix: secret.slice(0, DISPLAY_LENGTH),
      scopes: [...new Set(token.scopes)],
      expiresAt: token.expiresAt ?? null,
      createdByUserId: token.createdByUserId ?? null,
    })
    .returning(summaryColumns);
  if (!row) throw new Error("token insert returned nothing");
  return { token: row, secret };
}

/** The organization's tokens; with `createdByUserId`, only the ones that person created. */
export function listApiTokens(
  db: Database,
  organizationId: string,
  createdByUserId?: string,
): Promise<ApiTokenSummary[]> {
  return db
    .select({ ...summaryColumns, createdBy: users.email })
    .from(apiTokens)
    .leftJoin(users, eq(users.id, apiTokens.createdByUserId))
    .where(
      and(
        eq(apiTokens.organizationId, organizationId),
        createdByUserId === undefined ? undefined : eq(apiTokens.createdByUserId, createdByUserId),
      ),
    )
    .orderBy(desc(apiTokens.createdAt), apiTokens.id);
}

/** Revokes a token of this organization; false when it has no such token (or it was revoked). */
export async function revokeApiToken(
  db: Database,
  organizationId: string,
  tokenId: string,
  /** Only a token this person created (a member revoking their own). */
  createdByUserId?: string,
): Promise<boolean> {
  // Only the first revocation counts: revoked_at keeps the moment the token stopped working.
  const rows = await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(apiTokens.id, tokenId),
        eq(apiTokens.organizationId, organizationId),
        isNull(apiTokens.revokedAt),
        createdByUserId === undefined ? undefined : eq(apiTokens.createdByUserId, createdByUserId),
      ),
    )
    .returning({ id: apiTokens.id });
  announceChange("credentials");
  return rows.length > 0;
}

/** What a presented secret resolves to, with its organization, in one query. */
export interface TokenHolder {
  tokenId: string;
  organizationId: string;
  scopes: string[];
  homeCountry: string;
  creditBalance: number;
  rateLimit: number | null;
}

export type TokenCheck = { ok: true; holder: TokenHolder } | { ok: false; reason: string };

/** How stale last_used_at may get: writing it on every call would serialise calls on one row. */
const LAST_USED_RESOLUTION_MS = 60_000;

type TokenRow = NonNullable<Awaited<ReturnType<typeof readToken>>>;

/** Known tokens by hash, forgotten on any credentials change (db/change-feed.ts). */
const knownTokens = new ChangeAwareCache<TokenRow>("credentials", { name: "tokens" });

function readToken(db: Database, hash: string) {
  return db
    .select({
      id: apiTokens.id,
      organizationId: apiTokens.organizationId,
      scopes: apiTokens.scopes,
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
      lastUsedAt: apiTokens.lastUsedAt,
      homeCountry: organizations.homeCountry,
      creditBalance: organizations.creditBalance,
      rateLimit: organizations.rateLimit,
    })
    .from(apiTokens)
    .innerJoin(organizations, eq(organizations.id, apiTokens.organizationId))
    .where(eq(apiTokens.secretHash, hash))
    .then((rows) => rows[0]);
}

/** Lookups under way, by hash: a burst of calls with a token not yet cached asks the database once. */
const readsUnderWay = new WeakMap<Database, Map<string, Promise<TokenRow | undefined>>>();

function readTokenOnce(db: Database, hash: string): Promise<TokenRow | undefined> {
  let reads = readsUnderWay.get(db);
  if (!reads) {
    reads = new Map();
    readsUnderWay.set(db, reads);
  }
  const underWay = reads.get(hash);
  if (underWay) return underWay;
  const begun = knownTokens.begin();
  const read = readToken(db, hash)
    .then((row) => {
      if (row) knownTokens.set(db, hash, row, begun);
      return row;
    })
    .finally(() => reads.delete(hash));
  reads.set(hash, read);
  return read;
}

/**
 * What a secret resolves to when this process already knows it, live (not revoked, not expired),
 * without asking the database; undefined otherwise. For refusals decided before any work: never
 * a reason to serve, only to refuse sooner what would be refused anyway.
 */
export function knownHolder(db: Database, secret: string, now = Date.now()): TokenHolder | undefined {
  if (!looksLikeSecret(secret)) return undefined;
  const row = knownTokens.peek(db, hashSecret(secret));
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= now)) return undefined;
  const { id, expiresAt, revokedAt, lastUsedAt, ...holder } = row;
  return { tokenId: id, ...holder };
}

/**
 * What a secret resolves to. Revocation and expiry are judged at every call, on the cached row or
 * a fresh one: a revoke by this process forgets the cache at once, one by another within the
 * feed's notification (milliseconds). The balance it carries is a hint; debits are authoritative.
 */
export async function authenticateSecret(db: Database, secret: string, now = new Date()): Promise<TokenCheck> {
  if (!looksLikeSecret(secret)) return { ok: false, reason: "The bearer token is malformed." };
  const hash = hashSecret(secret);
  let row = knownTokens.get(db, hash) ?? (await readTokenOnce(db, hash));
  if (!row && recentDatabaseFault()) {
    // Once, under connections killed again and again, a lookup answered no rows for a live token
    // (the fault suite, on CI): a refusal met while the database is faulting is asked again, on
    // whatever connection is sound now, before a caller is told their token does not exist.
    row = await readToken(db, hash);
    if (row)
      log().warn({ tokenId: row.id }, "tokens: a lookup during a database fault found nothing; asked again, found");
  }
  if (!row) return { ok: false, reason: "The bearer token is not known." };
  if (row.revokedAt) return { ok: false, reason: "The bearer token was revoked." };
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime())
    return { ok: false, reason: "The bearer token has expired." };
  if (now.getTime() - (row.lastUsedAt?.getTime() ?? 0) >= LAST_USED_RESOLUTION_MS) {
    row.lastUsedAt = now;
    await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.id));
  }
  const { id, expiresAt, revokedAt, lastUsedAt, ...holder } = row;
  return { ok: true, holder: { tokenId: id, ...holder } };
}
