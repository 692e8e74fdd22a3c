/**
 * A share (0–1) as a percentage, the one way every surface prints one (tool texts, the dashboard's
 * tables and charts). Whole percents where they are honest; where rounding would say 0 % or
 * 100 % of a share that is neither (0.998 of the draws is not "all of them"), as many decimals as
 * it takes, at most two — the odds come from 2,000 draws, one draw being 0.05 % — and beyond that
 * "< 0.01 %" or "> 99.99 %". Pure.
 */

/** The most decimals a percentage is given before it says "<" or ">" instead. */
const MAX_DECIMALS = 2;

/** The share in percent, rounded so that it is 0 or 100 only when the share is; `bound`: it is only a bound. */
function percentOf(share: number): { value: number; bound?: "<" | ">" } {
  if (!(share > 0)) return { value: 0 };
  if (share >= 1) return { value: 100 };
  const exact = share * 100;
  for (let decimals = 0; decimals <= MAX_DECIMALS; decimals++) {
    const factor = 10 ** decimals;
    const rounded = Math.round(exact * factor) / factor;
    if (rounded > 0 && rounded < 100) return { value: rounded };
  }
  const step = 10 ** -MAX_DECIMALS;
  return exact < 50 ? { value: step, bound: "<" } : { value: 100 - step, bound: ">" };
}

/** The share as a number of percent (a table's or a CSV's cell): 0 or 100 only when the share is 0 or 1. */
export const percentNumber = (share: number): number => percentOf(share).value;

/** "62 %", "99.8 %", "0.04 %", "< 0.01 %", "> 99.99 %"; "0 %" and "100 %" only for 0 and 1. */
export function percentText(share: number): string {
  const { value, bound } = percentOf(share);
  return `${bound ? `${bound} ` : ""}${value} %`;
}
