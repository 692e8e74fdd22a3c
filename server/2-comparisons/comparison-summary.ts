/**
 * The few lines a person reads of a release comparison: the biggest score moves with their causes,
 * band moves, availability moves. One wording for the MCP tool's text, in-app notifications and
 * e-mails. Pure.
 */

import { AXES, type Axis } from "../1-domain/market-definition";
import type { BandMove, ScoreMove } from "../1-domain/notification-content";
import { nameList } from "../2-formats/name-list";
import type { Page } from "../2-readings/narrowing";
import { AXIS_LABELS, availabilityText, marketChangeLines, rankText } from "./comparison-phrases";
import type { AxisChange, FirstPlace, NamedProduct, ReleaseComparison } from "./release-comparison";

/** Every non-zero score move of the comparison, biggest first (ties by product name, then axis). */
export function scoreMoves(comparison: Pick<ReleaseComparison, "products">): ScoreMove[] {
  return comparison.products
    .flatMap((p) =>
      p.scores
        ? AXES.map((axis) => {
            const s = (p.scores as NonNullable<typeof p.scores>)[axis];
            const { ownValuesBy: _byIndicator, ...move } = s;
            return { productId: p.productId, product: p.name, vendor: p.vendor, axis, ...move };
          })
        : [],
    )
    .filter((move) => move.change !== 0)
    .sort(
      (a, b) =>
        Math.abs(b.change) - Math.abs(a.change) ||
        (a.product < b.product ? -1 : a.product > b.product ? 1 : 0) ||
        AXES.indexOf(a.axis) - AXES.indexOf(b.axis),
    );
}

/** The `perAxis` biggest moves of each axis, biggest first overall. */
export function moversPerAxis(moves: readonly ScoreMove[], perAxis: number): ScoreMove[] {
  const kept = new Map<Axis, number>();
  return moves.filter((move) => {
    const n = kept.get(move.axis) ?? 0;
    kept.set(move.axis, n + 1);
    return n < perAxis;
  });
}

export function bandMoves(comparison: Pick<ReleaseComparison, "products">): BandMove[] {
  return comparison.products.flatMap((p) =>
    AXES.filter((axis) => p.bands[axis].changed).map((axis) => ({
      product: p.name,
      axis,
      from: p.bands[axis].from as string,
      to: p.bands[axis].to as string,
    })),
  );
}

export const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** "Quillmere Atlas: -3.1 Innovation (62.4 → 59.3), of which -2.9 because the field moved, -0.2 from its own values" */
export function moveSentence(move: ScoreMove): string {
  return sentenceOf(move, "");
}

/**
 * The same sentence naming the indicators whose values moved the own-values part: "+20 from its
 * own values (Inference regions +12; SLA tier +8; and 2 more indicators)".
 */
export function moveSentenceWithIndicators(move: ScoreMove, by: AxisChange["ownValuesBy"] | undefined): string {
  if (!by || by.indicators.length === 0) return sentenceOf(move, "");
  const named = by.indicators.map((i) => `${i.name} ${signed(i.points)}`);
  if (by.more) named.push(`and ${by.more} more indicator${by.more === 1 ? "" : "s"}`);
  return sentenceOf(move, ` (${nameList(named)})`);
}

function sentenceOf(move: ScoreMove, ownValuesDetail: string): string {
  const { ownValues, field, method } = move.attribution;
  const causes = [
    ownValues ? `${signed(ownValues)} from its own values${ownValuesDetail}` : "",
    field ? `${signed(field)} because the field moved` : "",
    method ? `${signed(method)} from the method` : "",
  ].filter(Boolean);
  return `${move.product}: ${signed(move.change)} ${AXIS_LABELS[move.axis]} (${move.from} → ${move.to})${causes.length ? `, of which ${causes.join(", ")}` : ""}`;
}

export function bandSentence(move: BandMove): string {
  return `${move.product}: ${AXIS_LABELS[move.axis]} band ${move.from} → ${move.to}`;
}

/** How many score moves a summary lists before it says how many more there are. */
const MOVES_SHOWN = 10;
/**
 * How many rank, availability and band moves it lists: every one of a page that fits the token
 * budget, up to this many (structuredContent has each product's, always).
 */
const RANK_MOVES_SHOWN = 40;

function listed<T>(
  items: readonly T[],
  shown: number,
  line: (item: T) => string,
  more: (n: number) => string,
): string[] {
  const lines = items.slice(0, shown).map((item) => `- ${line(item)}.`);
  if (items.length > shown) lines.push(`- ${more(items.length - shown)}`);
  return lines;
}

/**
 * Who took or lost a first place, in one sentence: "Quillmere Atlas API took Capability Index #1
 * from Brightwater Cortex." Ties are said as such (joined, shared); nobody holding it too.
 */
export function firstPlaceSentence(label: string, place: FirstPlace): string {
  const before = new Set(place.from.map((p) => p.productId));
  const after = new Set(place.to.map((p) => p.productId));
  const gained = place.to.filter((p) => !before.has(p.productId));
  const lost = place.from.filter((p) => !after.has(p.productId));
  const kept = place.to.filter((p) => before.has(p.productId));
  const names = (products: readonly NamedProduct[]) => nameList(products.map((p) => p.name));
  const holds = (products: readonly NamedProduct[]) => `${names(products)} ${products.length === 1 ? "holds" : "hold"}`;
  if (place.from.length === 0 && place.to.length === 0) return `Nobody holds ${label} in either release.`;
  if (gained.length && lost.length)
    return `${names(gained)} took ${label} from ${names(lost)}${kept.length ? `, beside ${names(kept)}` : ""}.`;
  if (gained.length)
    return kept.length
      ? `${names(gained)} joined ${names(kept)} at ${label}.`
      : `${names(gained)} took ${label}, which nobody held.`;
  if (lost.length)
    return kept.length
      ? `${names(lost)} lost ${label}; ${holds(kept)} it.`
      : `${names(lost)} lost ${label}; nobody holds it now.`;
  return `${names(kept)} kept ${label}.`;
}

/** Whether a payload holds part of the comparison's products (a page): its lists then say so. */
const isPartial = (page: Page | undefined) => page !== undefined && (page.offset > 0 || page.nextCursor !== null);

/**
 * A release comparison in the words a model would quote, every question an agent asks of it
 * answered even when the answer is "nothing". First the headline: who took or lost first place of
 * the Capability Index, and of Max under the comparison's country. Then what the market's
 * methodology, bands, indicators (by name) and weights did; which products entered and left; the
 * biggest score moves with their causes, naming the indicators whose values moved; every
 * Capability Index rank move; and under the country, every move in availability and in Max rank
 * (among the products usable there in both releases: an unavailable product has no rank to move)
 * and in bands. A page of the products (too many for the token budget) says its lists are of the
 * products shown; the headline is the whole market's.
 */
export function comparisonText(comparison: ReleaseComparison & { page?: Page }): string {
  const { country, products, market } = comparison;
  const names = new Map(market.indicatorNames.map((i) => [i.indicatorId, i.name]));
  const shown = isPartial(comparison.page) ? ` (of the ${products.length} products shown)` : "";
  const lines = [
    `Release ${comparison.to.release} of ${comparison.marketId} against release ${comparison.from.release}, under ${country}'s controls.`,
    `${firstPlaceSentence("Capability Index #1", market.firstPlace.capabilityIndex)} ${firstPlaceSentence(`Max #1 under ${country}`, market.firstPlace.max)}`,
    ...marketChangeLines(comparison, (id) => names.get(id) ?? id).map((line) => line.text),
  ];
  const byProduct = new Map(products.map((p) => [p.productId, p]));
  const moves = scoreMoves(comparison);
  lines.push(moves.length ? `Biggest score moves${shown}:` : `No score changed${shown}.`);
  lines.push(
    ...listed(
      moves,
      MOVES_SHOWN,
      (move) =>
        moveSentenceWithIndicators(move, byProduct.get(move.productId as string)?.scores?.[move.axis].ownValuesBy),
      (n) => `and ${n} smaller moves.`,
    ),
  );

  const reindexed = products.filter(
    (p) =>
      p.capabilityIndexRank.from !== null &&
      p.capabilityIndexRank.to !== null &&
      p.capabilityIndexRank.from !== p.capabilityIndexRank.to,
  );
  if (reindexed.length === 0) lines.push(`Capability Index ranks: none moved${shown}.`);
  else {
    lines.push(`Capability Index ranks${shown}:`);
    lines.push(
      ...listed(
        reindexed,
        RANK_MOVES_SHOWN,
        (p) => `${p.name}: Capability Index ${rankText(p.capabilityIndexRank)}`,
        (n) => `and ${n} more.`,
      ),
    );
  }

  const availability = products.filter((p) => p.max.availability !== null && p.max.availability !== "unchanged");
  const usableInBoth = products.filter((p) => p.max.available.from === true && p.max.available.to === true);
  if (availability.length === 0)
    lines.push(
      `Availability under ${country}: nothing moved (${usableInBoth.length} of ${products.length} products${shown ? " shown" : ""} usable in both releases).`,
    );
  else {
    lines.push(`Availability under ${country}${shown}:`);
    lines.push(
      ...listed(
        availability,
        RANK_MOVES_SHOWN,
        (p) => `${p.name} ${availabilityText(p.max)}`,
        (n) => `and ${n} more.`,
      ),
    );
  }
  const reranked = usableInBoth.filter((p) => p.max.rank.from !== null && p.max.rank.from !== p.max.rank.to);
  if (reranked.length === 0)
    lines.push(
      `Max ranks under ${country}: none moved among the ${usableInBoth.length} products usable in both${shown}.`,
    );
  else {
    lines.push(`Max ranks under ${country} (among the ${usableInBoth.length} usable in both${shown}):`);
    lines.push(
      ...listed(
        reranked,
        RANK_MOVES_SHOWN,
        (p) => `${p.name} ${rankText(p.max.rank)}`,
        (n) => `and ${n} more.`,
      ),
    );
  }
  const bands = bandMoves(comparison);
  if (bands.length === 0) lines.push(`Bands: no product changed band${shown}.`);
  else {
    lines.push(`Bands${shown}:`);
    lines.push(...listed(bands, RANK_MOVES_SHOWN, bandSentence, (n) => `and ${n} more band changes.`));
  }
  return lines.join("\n");
}
