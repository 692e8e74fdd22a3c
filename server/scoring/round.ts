/**
 * One-decimal rounding, half away from zero, without float noise: 12.25 → 12.3, −8.8 stays −8.8
 * (never −8.799999). The small epsilon absorbs representation error such as 1.45 * 10 = 14.499….
 */
export function round1(value: number): number {
  const scaled = Math.abs(value) * 10;
  const rounded = Math.round(scaled + 1e-7) / 10;
  const signed = value < 0 ? -rounded : rounded;
  return signed === 0 ? 0 : signed; // no −0 in payloads
}
