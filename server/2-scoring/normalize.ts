/**
 * Indicator normalisation to 0..1. Number indicators are min–max scaled against the field: the
 * values of the market's default offerings. Sovereign offerings use the same bounds and are
 * clamped, so a Delta measures the offering, not an artefact of re-normalising.
 */
import type { Indicator, IndicatorValue } from "../1-domain/market-definition";

export interface FieldBounds {
  min: number;
  max: number;
}

/** min and max over the present numeric values; undefined when nobody demonstrates the indicator. */
export function fieldBounds(values: readonly IndicatorValue[]): FieldBounds | undefined {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    if (typeof value !== "number") continue;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return min <= max ? { min, max } : undefined;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * The normalised value of one input; a missing input (undefined or null) is 0, "not demonstrated".
 * With an all-equal field every product in it gets 1; an offering outside the field is then 1 when
 * it is at least as good as the field, else 0.
 */
export function normalize(indicator: Indicator, value: IndicatorValue | undefined, bounds?: FieldBounds): number {
  if (value === undefined || value === null) return 0;
  switch (indicator.kind) {
    case "boolean":
      return value === true ? 1 : 0;
    case "level": {
      const index = indicator.levels.indexOf(value as string);
      return index < 0 ? 0 : index / (indicator.levels.length - 1);
    }
    case "number": {
      if (typeof value !== "number" || !bounds) return 0;
      const { min, max } = bounds;
      const higherIsBetter = indicator.direction === "higher";
      if (max === min) return (higherIsBetter ? value >= max : value <= min) ? 1 : 0;
      const position = (value - min) / (max - min);
      return clamp01(higherIsBetter ? position : 1 - position);
    }
  }
}
