/** "rank 2–4", or "rank 1" when the interval is one rank: where a product ranks in 90 % of draws. */
export const rankRangeText = ({ best, worst }: { best: number; worst: number }) =>
  `rank ${best === worst ? best : `${best}–${worst}`}`;

/**
 * Competition ranking (1, 2, 2, 4) by a score, highest first; ties are ordered by name, then by
 * productId so the order is total and stable.
 */
export function rankBy<T extends { name: string; productId: string }>(
  items: readonly T[],
  score: (item: T) => number,
): (T & { rank: number })[] {
  const sorted = [...items].sort(
    (a, b) =>
      score(b) - score(a) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0),
  );
  let rank = 0;
  return sorted.map((item, index) => {
    const previous = sorted[index - 1];
    if (!previous || score(previous) !== score(item)) rank = index + 1;
    return { ...item, rank };
  });
}
