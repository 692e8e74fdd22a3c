/** Short plain-text renderings of each payload, for the `content` of a tool result. */
import type { z } from "zod";
import type {
  capaIndexSchema,
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
