/**
 * A release comparison (./release-comparison.ts) in short phrases, the same on the dashboard's "What changed"
 * section and in `ops catalog preview`. Pure: parts of a comparison in, plain strings out (the
 * dashboard renders them as text, so product names need no escaping here).
 */
import { AXIS_LABELS, type Axis } from "../1-domain/market-definition";
import { nameList } from "../2-formats/name-list";
import type { Attribution, AxisChange, ProductChange, ReleaseComparison } from "./release-comparison";

export { AXIS_LABELS };

/** Points with one decimal and their sign: +2.5, −0.3 (a true minus sign), 0.0. */
export function signedPoints(points: number): string {
  const magnitude = Math.abs(points).toFixed(1);
  if (magnitude === "0.0") return magnitude;
  return `${points > 0 ? "+" : "\u2212"}${magnitude}`;
}

const CAUSES = [
  ["ownValues", "own values"],
  ["field", "field"],
  ["method", "method"],
] as const;

/** The causes of a score change that are not zero, in attribution order: "own values +3.0, field −0.5". */
export function attributionText(attribution: Attribution): string {
  return CAUSES.filter(([key]) => signedPoints(attribution[key]) !== "0.0")
    .map(([key, label]) => `${label} ${signedPoints(attribution[key])}`)
    .join(", ");
}

/** "50.0 → 62.0 (+12.0)" */
export function scoreChangeText(change: Pick<AxisChange, "from" | "to" | "change" | "attribution">): string {
  return `${change.from.toFixed(1)} → ${change.to.toFixed(1)} (${signedPoints(change.change)})`;
}

/**
 * A band in a comparison: "Established → Frontier" when it changed, null when it did not; the one
 * band of a product that entered or left.
 */
export function bandText(band: ProductChange["bands"][Axis]): string | null {
  if (band.from !== null && band.to !== null) return band.changed ? `${band.from} → ${band.to}` : null;
  return band.to ?? band.from;
}

/** A rank in a comparison: "3 → 1, up 2", "2, unchanged", "new at 4" (entered), "was 5" (left). */
export function rankText(rank: { from: number | null; to: number | null }): string {
  if (rank.from === null) return rank.to === null ? "—" : `new at ${rank.to}`;
  if (rank.to === null) return `was ${rank.from}`;
  const moved = rank.to - rank.from;
  if (moved === 0) return `${rank.to}, unchanged`;
  return `${rank.from} → ${rank.to}, ${moved < 0 ? "up" : "down"} ${Math.abs(moved)}`;
}

/**
 * A Max rank in a comparison, under its country: a product unavailable there has no standing, so
 * its rank in the payload (tied last, the contract's) is never said — "unavailable" instead, and
 * a move into or out of availability is said as one.
 */
export function maxRankText(max: ProductChange["max"]): string {
  const { from, to } = max.available;
  const usableBefore = from === true;
  const usableNow = to === true;
  if (usableBefore && usableNow) return rankText(max.rank);
  if (usableNow) return from === null ? `new at ${max.rank.to}` : `${max.rank.to}, was unavailable`;
  if (usableBefore) return to === null ? `was ${max.rank.from}` : "became unavailable";
  return "unavailable";
}

const state = (available: boolean) => (available ? "available" : "unavailable");

/** Whether a product can be bought under the comparison's country, and how that changed. */
export function availabilityText(max: ProductChange["max"]): string {
  const { from, to } = max.available;
  switch (max.availability) {
    case "became_available":
      return "became available";
    case "became_unavailable":
      return "became unavailable";
    case "offering_changed":
      return `available, offering ${max.offering.from} → ${max.offering.to}`;
    case "unchanged":
      return `still ${state(to === true)}`;
    default:
      // Entered or left: only one side has a state.
      if (to !== null) return state(to);
      return from === null ? "—" : `was ${state(from)}`;
  }
}

export type MarketLineId =
  | "methodology"
  | "bands"
  | "indicators-added"
  | "indicators-removed"
  | "indicators-redefined"
  | "weights"
  | "products-added"
  | "products-removed";

const bandsList = (bands: readonly { name: string; from: number }[]) =>
  bands.map((b) => `${b.name} ${b.from}`).join(", ");

/**
 * The market-level changes, one line each: always the methodology, then only what changed. Products
 * are named by name, as the comparison lists them; indicators by id, or as `indicatorName` says.
 */
export function marketChangeLines(
  comparison: ReleaseComparison,
  indicatorName: (indicatorId: string) => string = (id) => id,
): { id: MarketLineId; text: string }[] {
  const { market } = comparison;
  const { from, to } = market.methodologyVersion;
  const material = market.material ? ", a material change" : "";
  const methodology = !market.methodologyChanged
    ? `Methodology ${to} unchanged${market.material ? "; marked a material change" : ""}.`
    : from === to
      ? `Methodology ${to} reworded${material}.`
      : `Methodology ${from} → ${to}${material}.`;
  const names = new Map(comparison.products.map((p) => [p.productId, p.name]));
  const named = (ids: readonly string[]) => nameList(ids.map((id) => names.get(id) ?? id));
  const lines: { id: MarketLineId; text: string }[] = [{ id: "methodology", text: methodology }];
  const add = (id: MarketLineId, label: string, items: readonly unknown[], text: () => string) => {
    if (items.length > 0) lines.push({ id, text: `${label}: ${text()}.` });
  };
  add("bands", "Bands changed", market.bandsChanged, () =>
    market.bandsChanged.map((b) => `${AXIS_LABELS[b.axis]} from ${bandsList(b.from)} to ${bandsList(b.to)}`).join("; "),
  );
  const indicators = (ids: readonly string[]) => nameList(ids.map(indicatorName));
  add("indicators-added", "Indicators added", market.indicatorsAdded, () => indicators(market.indicatorsAdded));
  add("indicators-removed", "Indicators removed", market.indicatorsRemoved, () => indicators(market.indicatorsRemoved));
  add("indicators-redefined", "Indicators redefined", market.indicatorsRedefined, () =>
    indicators(market.indicatorsRedefined),
  );
  add("weights", "Weights changed", market.weightsChanged, () =>
    nameList(market.weightsChanged.map((w) => `${indicatorName(w.indicatorId)} ${w.from} → ${w.to}`)),
  );
  add("products-added", "Products added", market.productsAdded, () => named(market.productsAdded));
  add("products-removed", "Products removed", market.productsRemoved, () => named(market.productsRemoved));
  return lines;
}
