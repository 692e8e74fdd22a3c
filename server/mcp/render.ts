/** Short plain-text renderings of each payload, for the `content` of a tool result. */
import type { z } from "zod";
import { AXIS_LABELS } from "../domain/market-definition";
import type {
  availabilitySchema,
  capaIndexSchema,
  changesSchema,
  deltaSchema,
  geographiesSchema,
  marketsSchema,
  maxSchema,
  productSchema,
  snapshotSchema,
  whatifSchema,
} from "../procedures/schemas";
import { moveSentence, scoreMoves, signed } from "../readings/change-summary";
import { rankRangeText } from "../readings/rank";

type Of<S extends z.ZodType> = z.output<S>;
type Scores = { innovation: number; control: number; scale: number };

const scores = (s: Scores) => `I ${s.innovation} · C ${s.control} · S ${s.scale}`;
const header = (p: { marketId: string; release: number; lastUpdated: string }) =>
  `${p.marketId}, release ${p.release} (updated ${p.lastUpdated.slice(0, 10)})`;

export function renderMarkets(payload: Of<typeof marketsSchema>): string {
  return [
    `${payload.markets.length} markets:`,
    ...payload.markets.map((m) => `- ${m.marketId}: ${m.name} — ${m.productCount} products, release ${m.release}`),
  ].join("\n");
}

export function renderGeographies(payload: Of<typeof geographiesSchema>): string {
  return [
    `${payload.geographies.length} geographies:`,
    ...payload.geographies.map(
      (g) => `- ${g.country} ${g.name}: ${g.controls.map((c) => c.name).join(", ") || "no controls (nothing moves)"}`,
    ),
  ].join("\n");
}

export function renderSnapshot(payload: Of<typeof snapshotSchema>): string {
  return [
    `Snapshot of ${payload.name}, ${header(payload)}; methodology ${payload.methodologyVersion}.`,
    ...payload.products.map(
      (p) =>
        `- ${p.name} (${p.vendor}): ${scores(p.scores)} — ${p.bands.innovation} / ${p.bands.control} / ${p.bands.scale}`,
    ),
    "The methodology text is in structuredContent.methodology; quote it verbatim.",
  ].join("\n");
}

/** "rank 2–4 in 90 % of draws". */
const rankRange = (interval: { best: number; worst: number }) => `${rankRangeText(interval)} in 90 % of draws`;

export function renderCapabilityIndex(payload: Of<typeof capaIndexSchema>): string {
  return [
    `Capability Index, ${header(payload)}:`,
    ...payload.products.map(
      (p) =>
        `${p.rank}. ${p.name} (${p.vendor}) — Innovation ${p.innovation}, ${p.band}${p.bandSettled ? "" : " (band not settled)"}; ${rankRange(p.rankInterval)}`,
    ),
  ].join("\n");
}

export function renderWhatIf(payload: Of<typeof whatifSchema>): string {
  const moved = (p: { rankChange: number }) => (p.rankChange === 0 ? "=" : signed(p.rankChange));
  const changed = payload.weights.filter((w) => w.used !== w.published);
  return [
    `What-if weights, ${header(payload)} — NOT the published ranking.`,
    `Weights changed: ${changed.length ? changed.map((w) => `${w.indicatorId} ${w.published} → ${w.used}`).join(", ") : "none"}.`,
    "Capability Index:",
    ...payload.capabilityIndex.products.map(
      (p) =>
        `${p.rank}. ${p.name} (${p.vendor}) — Innovation ${p.innovation} (published ${p.publishedInnovation}), rank ${moved(p)} from ${p.publishedRank}`,
    ),
    ...(payload.max
      ? [
          `Max under ${payload.max.country}:`,
          ...payload.max.products.map(
            (p) =>
              `${p.rank}. ${p.name} (${p.vendor}) — ${p.available ? `retains ${p.retainedInnovation}` : "unavailable"}, rank ${moved(p)} from ${p.publishedRank}`,
          ),
        ]
      : []),
  ].join("\n");
}

const controlsLine = (p: { country: string; controls: { name: string }[] }) =>
  `${p.country} engages ${p.controls.length ? p.controls.map((c) => c.name).join(", ") : "no controls: nothing moves"}.`;

export function renderMax(payload: Of<typeof maxSchema>): string {
  return [
    `Max reading, ${header(payload)}. ${controlsLine(payload)}`,
    ...payload.products.map((p) =>
      p.available
        ? `${p.rank}. ${p.name} (${p.vendor}): on ${scores(p.on)}; off ${scores(p.off)}; Innovation ${signed(p.distance.innovation)}; ${rankRange(p.rankInterval)}`
        : `${p.rank}. ${p.name} (${p.vendor}): unavailable — misses ${p.missingControls.join(", ")}`,
    ),
  ].join("\n");
}

export function renderDelta(payload: Of<typeof deltaSchema>): string {
  return [
    `Delta, ${header(payload)}. ${controlsLine(payload)}`,
    ...payload.products.map(
      (p) =>
        `- ${p.name} (${p.vendor}): ${scores(p.published)} → ${p.available ? scores(p.underControls) : "unavailable"} (distance ${p.distance.magnitude})`,
    ),
  ].join("\n");
}

const MOVERS_SHOWN = 5;

/**
 * What a release changed, as a model can quote it: the products that entered and left, then the
 * biggest score changes with their causes ("of which −2.9 because the field moved").
 */
export function renderChanges(payload: Of<typeof changesSchema>): string {
  const { market } = payload;
  const lines = [
    `Release ${payload.to.release} of ${payload.marketId} against release ${payload.from.release}, under ${payload.country}'s controls.`,
  ];
  const { from, to } = market.methodologyVersion;
  if (market.methodologyChanged)
    lines.push(
      `${from === to ? `Methodology ${to} reworded` : `Methodology ${from} → ${to}`}${market.material ? " (a material change)" : ""}.`,
    );
  const products = (n: number) => `${n} product${n === 1 ? "" : "s"}`;
  if (market.productsAdded.length)
    lines.push(`${products(market.productsAdded.length)} entered: ${market.productsAdded.join(", ")}.`);
  if (market.productsRemoved.length)
    lines.push(`${products(market.productsRemoved.length)} left: ${market.productsRemoved.join(", ")}.`);
  if (market.weightsChanged.length || market.indicatorsAdded.length || market.indicatorsRemoved.length)
    lines.push(
      `Indicators: ${market.indicatorsAdded.length} added, ${market.indicatorsRemoved.length} removed, ${market.weightsChanged.length} reweighted.`,
    );
  const movers = scoreMoves(payload).slice(0, MOVERS_SHOWN);
  if (movers.length === 0) lines.push("No score changed.");
  for (const move of movers) lines.push(`- ${moveSentence(move)}.`);
  const availability = payload.products.filter(
    (p) => p.max.availability === "became_available" || p.max.availability === "became_unavailable",
  );
  for (const p of availability)
    lines.push(
      `- ${p.name} ${p.max.availability === "became_available" ? "became available" : "became unavailable"} under ${payload.country}.`,
    );
  return lines.join("\n");
}

const valueText = (value: number | boolean | string | null, unit: string | null) =>
  value === null
    ? "not demonstrated"
    : typeof value === "boolean"
      ? value
        ? "yes"
        : "no"
      : `${value}${unit ? ` ${unit}` : ""}`;

/**
 * A product's breakdown as a model can quote it: per axis, the score and what each indicator
 * contributes (largest first), with the evidence's date and confidence; then the country's part.
 */
export function renderProduct(payload: Of<typeof productSchema>): string {
  const lines = [`${payload.name} (${payload.vendor}) in ${header(payload)}: ${scores(payload.scores)}.`];
  for (const axis of ["innovation", "control", "scale"] as const) {
    const breakdown = payload.axes[axis];
    lines.push(`${AXIS_LABELS[axis]} ${breakdown.score} (${breakdown.band}) =`);
    for (const i of [...breakdown.indicators].sort((a, b) => b.contribution - a.contribution)) {
      const evidence = i.evidence
        ? ` [${i.evidence.confidence ?? "source"} as of ${i.evidence.asOf}]`
        : i.gap
          ? ""
          : " [no evidence given]";
      lines.push(`  ${i.contribution} from ${i.name}: ${valueText(i.value, i.unit)}, weight ${i.weight}${evidence}`);
    }
  }
  const under = payload.underControls;
  if (under) {
    lines.push(
      under.available
        ? `Under ${under.country}'s controls: ${under.offering?.name} engaged, ${scores(under.underControls)} (distance ${under.distance.magnitude}).`
        : `Under ${under.country}'s controls: unavailable — misses ${under.missingControls.join(", ")}.`,
    );
    const moved = (["innovation", "control", "scale"] as const).flatMap((axis) =>
      under.axes[axis].indicators.filter((i) => i.change !== 0).map((i) => ({ axis, ...i })),
    );
    for (const i of moved.sort((a, b) => a.change - b.change).slice(0, 8))
      lines.push(`  ${signed(i.change)} ${AXIS_LABELS[i.axis]} from ${i.indicatorId}`);
  }
  return lines.join("\n");
}

/**
 * The availability matrix as compact lines: per product, how many countries it is available in,
 * then each country as CODE:retained, or CODE:— when unavailable.
 */
export function renderAvailability(payload: Of<typeof availabilitySchema>): string {
  const lines = [
    `Availability of ${payload.products.length} products in ${payload.countries.length} countries, ${header(payload)}.`,
    "Each cell: country code and the Innovation retained under its controls; — means unavailable (structuredContent lists the missing controls).",
  ];
  for (const p of payload.products)
    lines.push(
      `- ${p.name} (I ${p.innovation}, available in ${p.availableIn}/${p.cells.length}): ${p.cells
        .map((c) => `${c.country}:${c.available ? c.innovationRetained : "—"}`)
        .join(" ")}`,
    );
  return lines.join("\n");
}
