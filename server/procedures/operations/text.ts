/**
 * Pieces of the plain-text renderings MCP tools put in a result's `content`, shared by the
 * declarations. Plain text only: names and vendors are hostile text, and no markup is made of them.
 */
import { rankRangeText } from "../../readings/rank";

type Scores = { innovation: number; control: number; scale: number };

/** "I 61.2 · C 40 · S 72.5". */
export const scoresText = (s: Scores) => `I ${s.innovation} · C ${s.control} · S ${s.scale}`;

/** "foundation-model-apis, release 3 (updated 2026-05-04)". */
export const releaseHeader = (p: { marketId: string; release: number; lastUpdated: string }) =>
  `${p.marketId}, release ${p.release} (updated ${p.lastUpdated.slice(0, 10)})`;

/** "rank 2–4 in 90 % of draws". */
export const rankRange = (interval: { best: number; worst: number }) => `${rankRangeText(interval)} in 90 % of draws`;

/** "FR engages EU data residency, SecNumCloud." */
export const controlsLine = (p: { country: string; controls: { name: string }[] }) =>
  `${p.country} engages ${p.controls.length ? p.controls.map((c) => c.name).join(", ") : "no controls: nothing moves"}.`;
