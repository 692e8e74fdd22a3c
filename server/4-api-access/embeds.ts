/**
 * Embeds as stored (docs/embeds.md): an organization's public charts of one reading, and each
 * release an embed has shown, paid for once. Which reading and what it costs are decided above
 * (server/7-procedures/embeds.ts); here: rows, and the charge of one release, debited through the
 * one debit path (server/4-credits/credits.ts) so the ledger names `embeds.<reading>`.
 */
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { embedCharges, embeds } from "../../db/schema";
import { debitCredits } from "../4-credits/credits";

export type EmbedRow = typeof embeds.$inferSelect;

export interface NewEmbed {
  organizationId: string;
  marketId: string;
  reading: string;
  country: string | null;
  release: number | null;
  view: string;
  theme: string;
  allowedOrigins: string[];
  createdByUserId: string | null;
}

export async function insertEmbed(db: Database, embed: NewEmbed): Promise<EmbedRow> {
  const [row] = await db.insert(embeds).values(embed).returning();
  if (!row) throw new Error("the embed was not stored");
  return row;
}

/** Deletes an embed that was never shown (its first release could not be paid for). */
export async function deleteUnpaidEmbed(db: Database, embedId: string): Promise<void> {
  await db.delete(embeds).where(eq(embeds.id, embedId));
}

/** Any embed by id, revoked or not (revoked ones answer 410); undefined: no such embed. */
export async function findEmbed(db: Database, embedId: string): Promise<EmbedRow | undefined> {
  const [row] = await db.select().from(embeds).where(eq(embeds.id, embedId)).limit(1);
  return row;
}

export interface ListedEmbed extends EmbedRow {
  /** The releases it has been charged for, in order. */
  chargedReleases: number[];
}

/** The organization's embeds, newest first, revoked ones included (marked). */
export async function listEmbeds(db: Database, organizationId: string): Promise<ListedEmbed[]> {
  const rows = await db
    .select()
    .from(embeds)
    .where(eq(embeds.organizationId, organizationId))
    .orderBy(desc(embeds.createdAt), embeds.id);
  if (rows.length === 0) return [];
  const charges = await db
    .select({ embedId: embedCharges.embedId, release: embedCharges.release })
    .from(embedCharges)
    .innerJoin(embeds, eq(embeds.id, embedCharges.embedId))
    .where(eq(embeds.organizationId, organizationId))
    .orderBy(embedCharges.release);
  return rows.map((row) => ({
    ...row,
    chargedReleases: charges.filter((c) => c.embedId === row.id).map((c) => c.release),
  }));
}

/**
 * Revokes one of the organization's embeds; false when it has none by that id that is not revoked
 * (another organization's embed is "not found" too).
 */
export async function revokeEmbed(db: Database, organizationId: string, embedId: string): Promise<boolean> {
  const revoked = await db
    .update(embeds)
    .set({ revokedAt: new Date() })
    .where(and(eq(embeds.id, embedId), eq(embeds.organizationId, organizationId), isNull(embeds.revokedAt)))
    .returning({ id: embeds.id });
  return revoked.length > 0;
}

/** The releases an embed has been charged for, in order. */
export async function chargedReleases(db: Database, embedId: string): Promise<number[]> {
  const rows = await db
    .select({ release: embedCharges.release })
    .from(embedCharges)
    .where(eq(embedCharges.embedId, embedId))
    .orderBy(embedCharges.release);
  return rows.map((row) => row.release);
}

export type ChargeResult = { charged: true; balance: number | null } | { charged: false; balance: number };

/**
 * Pays for one release an embed shows, once: the charge row is claimed first (unique per embed
 * and release, so concurrent viewers on any instance debit it once), then debited; a debit the
 * balance cannot cover releases the claim. A release already paid for is `charged` at no cost
 * (balance null). A crash between the claim and the debit leaves the release shown unpaid rather
 * than paid twice.
 */
export async function chargeRelease(
  db: Database,
  charge: { embedId: string; organizationId: string; release: number; credits: number; operation: string },
): Promise<ChargeResult> {
  const claimed = await db
    .insert(embedCharges)
    .values({ embedId: charge.embedId, release: charge.release, credits: charge.credits })
    .onConflictDoNothing()
    .returning({ release: embedCharges.release });
  if (claimed.length === 0) return { charged: true, balance: null };
  if (charge.credits === 0) return { charged: true, balance: null };
  try {
    const debit = await debitCredits(db, {
      organizationId: charge.organizationId,
      cost: charge.credits,
      operation: charge.operation,
      tokenId: null,
      requestId: `${charge.embedId}:${charge.release}`,
    });
    if (debit.ok) return { charged: true, balance: debit.balance };
    await releaseClaim(db, charge.embedId, charge.release);
    return { charged: false, balance: debit.balance };
  } catch (error) {
    await releaseClaim(db, charge.embedId, charge.release);
    throw error;
  }
}

async function releaseClaim(db: Database, embedId: string, release: number) {
  await db.delete(embedCharges).where(and(eq(embedCharges.embedId, embedId), eq(embedCharges.release, release)));
}

/** Counts views (best effort: a view is never refused for failing to be counted). */
export async function countEmbedViews(db: Database, embedId: string, views = 1): Promise<void> {
  await db
    .update(embeds)
    .set({ views: sql`${embeds.views} + ${views}` })
    .where(eq(embeds.id, embedId));
}
