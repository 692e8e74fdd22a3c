/** Short plain-text renderings of each payload, for the `content` of a tool result. */
import type { z } from "zod";
import type {
  capaIndexSchema,
  changesSchema,
  deltaSchema,
  geographiesSchema,
  marketsSchema,
  maxSchema,
  snapshotSchema,
} from "../procedures/schemas";

type Of<S extends z.ZodType> = z.output<S>;
type Scores = { innovation: number; control: number; scale: number };

const scores = (s: Scores) => `I ${s.innovation} · C ${s.control} · S ${s.scale}`;
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
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

export function renderCapabilityIndex(payload: Of<typeof capaIndexSchema>): string {
  return [
    `Capability Index, ${header(payload)}:`,
    ...payload.products.map((p) => `${p.rank}. ${p.name} (${p.vendor}) — Innovation ${p.innovation}, ${p.band}`),
  ].join("\n");
}

const controlsLine = (p: { country: string; controls: { name: string }[] }) =>
  `${p.country} engages ${p.controls.length ? p.controls.map((c) => c.name).join(", ") : "no controls: nothing moves"}.`;

export function renderMax(payload: Of<typeof maxSchema>): string {
  return [
    `Max reading, ${header(payload)}. ${controlsLine(payload)}`,
    ...payload.products.map((p) =>
      p.available
        ? `${p.rank}. ${p.name} (${p.vendor}): on ${scores(p.on)}; off ${scores(p.off)}; Innovation ${signed(p.distance.innovation)}`
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

const AXIS_NAMES = { innovation: "Innovation", control: "Control", scale: "Scale" } as const;
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
  const movers = payload.products
    .flatMap((p) =>
      p.scores
        ? (Object.keys(AXIS_NAMES) as (keyof typeof AXIS_NAMES)[]).map((axis) => ({
            product: p,
            axis,
            change: p.scores?.[axis],
          }))
        : [],
    )
    .filter((m): m is typeof m & { change: NonNullable<typeof m.change> } => !!m.change && m.change.change !== 0)
    .sort((a, b) => Math.abs(b.change.change) - Math.abs(a.change.change))
    .slice(0, MOVERS_SHOWN);
  if (movers.length === 0) lines.push("No score changed.");
  for (const { product, axis, change } of movers) {
    const { ownValues, field, method } = change.attribution;
    const causes = [
      ownValues ? `${signed(ownValues)} from its own values` : "",
      field ? `${signed(field)} because the field moved` : "",
      method ? `${signed(method)} from the method` : "",
    ].filter(Boolean);
    lines.push(
      `- ${product.name}: ${signed(change.change)} ${AXIS_NAMES[axis]} (${change.from} → ${change.to})${causes.length ? `, of which ${causes.join(", ")}` : ""}.`,
    );
  }
  const availability = payload.products.filter(
    (p) => p.max.availability === "became_available" || p.max.availability === "became_unavailable",
  );
  for (const p of availability)
    lines.push(
      `- ${p.name} ${p.max.availability === "became_available" ? "became available" : "became unavailable"} under ${payload.country}.`,
    );
  return lines.join("\n");
}
