/**
 * Embeds (docs/embeds.md): what an embed shows and what it costs, one rule for the dashboard, the
 * CLI and the public routes. The numbers are the reading's own declared computation on the
 * release loaded the one way (server/3-catalog/releases.ts): exactly what the REST reading of the
 * same release and country answers. An embed costs its reading's price (the declaration's
 * credits), debited once per release it shows, as `embeds.<reading>`; views are free.
 */

import { onChange } from "../../db/change-feed";
import type { Database } from "../../db/client";
import {
  type EmbedFacts,
  type EmbedReading,
  type EmbedTheme,
  type EmbedView,
  embedSummary,
  frameableOrigin,
  READING_TAKES_COUNTRY,
} from "../1-domain/embeds";
import { ApiError, insufficientCredits, invalidRequest, notFound } from "../1-errors/api-error";
import { loadRelease } from "../3-catalog/releases";
import { chargedReleases, chargeRelease, deleteUnpaidEmbed, type EmbedRow, insertEmbed } from "../4-api-access/embeds";
import { creditsPageUrl, howToGetCredits, processBillingConfig } from "../4-billing/config";
import { operationOf } from "./declaration";
import { computeReading } from "./off-loop";
import { availability } from "./operations/availability";
import { capaindex } from "./operations/capaindex";
import { delta } from "./operations/delta";
import { servicemax } from "./operations/servicemax";

/** The stable names of what the dashboard does to embeds (its audit trail's actions). */
export const EMBED_ACTIONS = { create: "embed.create", revoke: "embed.revoke" } as const;

const DECLARATIONS = { delta, servicemax, capaindex, availability } as const;

/** What an embed of a reading costs per release it shows: the reading's own price. */
export const embedPrice = (reading: EmbedReading) => operationOf(DECLARATIONS[reading]).credits;

/** The operation the ledger names for an embed's charge. */
export const embedOperation = (reading: EmbedReading) => `embeds.${reading}`;

/**
 * The organization cannot pay for the release an embed would first show: the 402 of every paid
 * call, saying where credits come from (and the Credits page when the dashboard's origin is known).
 */
function embedUnpaid(cost: number, balance: number, origin: string | null): ApiError {
  const howTo = howToGetCredits(processBillingConfig(), origin);
  const error = insufficientCredits(cost, balance, howTo, origin === null ? "" : creditsPageUrl(origin));
  return origin === null ? new ApiError("insufficient_credits", error.detail, { members: { cost, balance } }) : error;
}

export interface EmbedRequest {
  organizationId: string;
  marketId: string;
  reading: EmbedReading;
  country?: string | null;
  /** Pinned release; omitted or null: the latest. */
  release?: number | null;
  view: EmbedView;
  theme: EmbedTheme;
  allowedOrigins: string[];
  createdByUserId: string | null;
  /** The dashboard's origin, for the 402's Credits page; null from the operator CLI. */
  origin?: string | null;
}

/** An origin as a page's address bar has it (scheme://host[:port]), or a 400 saying why not. */
export function normalOrigin(raw: string): string {
  const checked = frameableOrigin(raw);
  if ("problem" in checked)
    throw invalidRequest(`"${raw}" is not an origin that may frame an embed: ${checked.problem}.`, [
      { path: "allowedOrigins", message: checked.problem },
    ]);
  return checked.origin;
}

/** Loads the release an embed names (pinned, or the latest): 404 when there is none. */
async function releaseFor(db: Database, marketId: string, release: number | null | undefined) {
  const loaded = await loadRelease(db, marketId, release ?? undefined);
  if (!loaded)
    throw notFound(
      release ? `Market "${marketId}" has no release ${release}.` : `No market "${marketId}" with a release.`,
    );
  return loaded;
}

/** A new embed, and what it shows: its market's and country's names, the release it shows now. */
export type CreatedEmbed = EmbedRow & { summary: string };

/**
 * Creates an embed and pays for the release it shows now (the pinned one, or the latest): an
 * organization that cannot pay gets no embed.
 */
export async function createEmbed(db: Database, request: EmbedRequest): Promise<CreatedEmbed> {
  const loaded = await releaseFor(db, request.marketId, request.release);
  const takesCountry = READING_TAKES_COUNTRY[request.reading];
  const country = takesCountry ? (request.country ?? "").toUpperCase() : null;
  if (takesCountry && !loaded.data.countries.has(country as string))
    throw invalidRequest(`Unknown country "${request.country ?? ""}" for release ${loaded.data.release}.`, [
      { path: "country", message: "not a geography of this release" },
    ]);
  const allowedOrigins = [...new Set(request.allowedOrigins.map(normalOrigin))];
  const embed = await insertEmbed(db, {
    organizationId: request.organizationId,
    marketId: loaded.data.marketId,
    reading: request.reading,
    country,
    release: request.release ?? null,
    view: request.view,
    theme: request.theme,
    allowedOrigins,
    createdByUserId: request.createdByUserId,
  });
  const cost = embedPrice(request.reading);
  const paid = await chargeRelease(db, {
    embedId: embed.id,
    organizationId: embed.organizationId,
    release: loaded.data.release,
    credits: cost,
    operation: embedOperation(request.reading),
  }).catch(async (error: unknown) => {
    await deleteUnpaidEmbed(db, embed.id);
    throw error;
  });
  if (!paid.charged) {
    await deleteUnpaidEmbed(db, embed.id);
    throw embedUnpaid(cost, paid.balance, request.origin ?? null);
  }
  const geography = country ? loaded.data.geographies.find((g) => g.country === country) : undefined;
  const summary = embedSummary({
    reading: request.reading,
    marketName: loaded.data.name,
    country: country ? { code: country, name: geography?.name ?? country } : null,
    release: embed.release,
    shownRelease: loaded.data.release,
  });
  return { ...embed, summary };
}

/**
 * What this process knows of charges: a release an embed was charged for stays charged (no write
 * per view once known); a charge the balance could not cover is not tried again for a while, or
 * until credits change (announced on the change feed, here and by other processes).
 */
const charged = new Set<string>();
const unpaidUntil = new Map<string, number>();
const UNPAID_RETRY_MS = 30_000;
const KNOWN_LIMIT = 10_000;
onChange((topic) => {
  if (topic === "credentials") unpaidUntil.clear();
});

async function chargeOnce(db: Database, embed: EmbedRow, release: number): Promise<boolean> {
  const key = `${embed.id}:${release}`;
  if (charged.has(key)) return true;
  if ((unpaidUntil.get(key) ?? 0) > Date.now()) return false;
  const reading = embed.reading as EmbedReading;
  const paid = await chargeRelease(db, {
    embedId: embed.id,
    organizationId: embed.organizationId,
    release,
    credits: embedPrice(reading),
    operation: embedOperation(reading),
  });
  if (paid.charged) {
    if (charged.size >= KNOWN_LIMIT) charged.clear();
    charged.add(key);
    unpaidUntil.delete(key);
  } else {
    if (unpaidUntil.size >= KNOWN_LIMIT) unpaidUntil.clear();
    unpaidUntil.set(key, Date.now() + UNPAID_RETRY_MS);
  }
  return paid.charged;
}

export interface ShownEmbed {
  /** The reading's payload, as the REST reading of the same release and country answers it. */
  data: { reading: EmbedReading; payload: unknown };
  facts: Omit<EmbedFacts, "methodologyUrl" | "publisher">;
  release: number;
}

/** Whether a release can draw the embed: its country, if it names one, is a geography of the release. */
function canShow(embed: EmbedRow, release: { countries: ReadonlyMap<string, unknown> }): boolean {
  const country = READING_TAKES_COUNTRY[embed.reading as EmbedReading] ? embed.country : null;
  return country === null || release.countries.has(country);
}

/**
 * What an embed shows now. Pinned: its release. Latest: the latest release once it is paid for —
 * a release not yet paid for is charged here, once (the first view to see it), and only when it
 * can draw the chart (a release whose geographies no longer include the embed's country is never
 * charged); otherwise, or when the balance cannot cover it, the last release paid for, saying so.
 */
export async function embedToShow(db: Database, embed: EmbedRow, origin: string): Promise<ShownEmbed> {
  const reading = embed.reading as EmbedReading;
  let note: string | undefined;
  let loaded = await releaseFor(db, embed.marketId, embed.release);
  if (embed.release === null) {
    const latest = loaded.data.release;
    const showable = canShow(embed, loaded.data);
    if (!showable || !(await chargeOnce(db, embed, latest))) {
      const last = (await chargedReleases(db, embed.id)).filter((release) => release !== latest).at(-1);
      if (last === undefined) throw notFound("This embed has no release it can show.");
      note = showable
        ? `Release ${latest} is published; this chart shows release ${last}, the last one paid for.`
        : `Release ${latest} is published without ${embed.country}; this chart shows release ${last}.`;
      loaded = await releaseFor(db, embed.marketId, last);
    }
  }
  if (!canShow(embed, loaded.data)) throw notFound("This chart's country is not a geography of its release.");
  const release = loaded.data;
  const declaration = DECLARATIONS[reading];
  const country = READING_TAKES_COUNTRY[reading] ? embed.country : null;
  const input = declaration.input.parse({
    marketId: release.marketId,
    release: release.release,
    ...(country ? { country } : {}),
  });
  // Computed once per release, reading, country and origin, kept with the release's readings.
  const payload = (await loaded.reading(`embed:${reading}:${country ?? ""}:${origin}`, () =>
    computeReading(declaration, { release, country, cached: loaded.reading, origin }, input as never),
  )) as Awaited<ReturnType<(typeof declaration)["compute"]>>;
  const geography = country ? release.geographies.find((g) => g.country === country) : undefined;
  const controls = country && "controls" in payload ? (payload.controls as { name: string }[]).map((c) => c.name) : [];
  return {
    data: { reading, payload },
    release: release.release,
    facts: {
      marketName: release.name,
      release: release.release,
      releasedAt: release.lastUpdated,
      country: country ? { code: country, name: geography?.name ?? country, controls } : null,
      latest: embed.release === null,
      ...(note ? { note } : {}),
    },
  };
}
