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

/**
 * Rounds parts to tenths so that they add up to `total` (a number with one decimal) exactly:
 * each part to its nearest tenth, then the tenths left over, one at a time, to the part whose
 * rounding moved it furthest from its exact value against the direction needed (largest
 * remainder, signed); ties go to the earlier part. Used wherever shown parts must sum to a
 * shown total: attributions of a change, contributions to a score.
 */
export function partsAddingUp(exact: readonly number[], total: number): number[] {
  const tenths = exact.map((value) => value * 10);
  const rounded = tenths.map((value) => Math.round(value + Math.sign(value) * 1e-9));
  let left = Math.round(total * 10) - rounded.reduce((sum, value) => sum + value, 0);
  while (left !== 0 && rounded.length > 0) {
    const step = Math.sign(left);
    let pick = 0;
    for (let i = 1; i < rounded.length; i++)
      if (
        ((tenths[i] as number) - (rounded[i] as number)) * step >
        ((tenths[pick] as number) - (rounded[pick] as number)) * step
      )
        pick = i;
    rounded[pick] = (rounded[pick] as number) + step;
    left -= step;
  }
  return rounded.map((value) => round1(value / 10));
}
