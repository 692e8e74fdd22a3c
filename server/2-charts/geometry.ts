/** Pixel geometry and number formats of chart marks; pure, so they are tested without a browser. */

export interface Pixel {
  x: number;
  y: number;
}

/**
 * An arrowhead at `to` pointing away from `from`, as SVG polygon points: the tip, then the two
 * corners `size` back along the streak, each turned by `spread` radians either side of it.
 */
export function arrowHead(from: Pixel, to: Pixel, size = 7, spread = Math.PI / 7): string {
  const angle = Math.atan2(to.y - from.y, to.x - from.x);
  const corner = (turn: number) =>
    `${fixed(to.x - size * Math.cos(angle + turn))},${fixed(to.y - size * Math.sin(angle + turn))}`;
  return `${fixed(to.x)},${fixed(to.y)} ${corner(spread)} ${corner(-spread)}`;
}

/** One decimal, and never "-0.0". */
const fixed = (n: number) => (Math.abs(n) < 0.05 ? 0 : n).toFixed(1);

/** A signed one-decimal change as the dashboard writes it: +3.0, −12.5 (a real minus), 0.0. */
export function signed(value: number): string {
  if (Math.abs(value) < 0.05) return "0.0";
  if (value > 0) return `+${value.toFixed(1)}`;
  if (value < 0) return `−${Math.abs(value).toFixed(1)}`;
  return "0.0";
}
