/**
 * The heat map's colour scale: Innovation kept, 0..100, light to dark blue, and the digits' ink on
 * each cell, chosen so the number always meets WCAG's 4.5:1 contrast. Pure: no React, no DOM.
 */

/** The sequential scale, light to dark (ColorBrewer's Blues), at 0, 25, 50, 75 and 100 retained. */
const STOPS: readonly (readonly [number, number, number])[] = [
  [239, 243, 255],
  [189, 215, 231],
  [107, 174, 214],
  [49, 130, 189],
  [8, 81, 156],
];

/** The colour of `retained` (0..100) on the scale. */
export function retainedColour(retained: number): string {
  const at = (Math.min(100, Math.max(0, retained)) / 100) * (STOPS.length - 1);
  const low = Math.min(STOPS.length - 2, Math.floor(at));
  const t = at - low;
  const [a, b] = [STOPS[low], STOPS[low + 1]] as [readonly number[], readonly number[]];
  const mix = (k: number) => Math.round((a[k] as number) + ((b[k] as number) - (a[k] as number)) * t);
  return `rgb(${mix(0)}, ${mix(1)}, ${mix(2)})`;
}

/** WCAG relative luminance of an `rgb(r, g, b)` colour. */
function luminance(colour: string): number {
  const [r, g, b] = (colour.match(/\d+/g) ?? ["0", "0", "0"]).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The digits' colour on a cell: black or white, whichever contrasts more with it. Between them one
 * always reaches 4.5:1 (WCAG 1.4.3) on any background, which no mid-grey text does on mid-blue.
 */
export function inkOn(background: string): "#000" | "#fff" {
  const l = luminance(background);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000" : "#fff";
}
