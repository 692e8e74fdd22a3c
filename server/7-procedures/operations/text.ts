/**
 * Pieces of the plain-text renderings MCP tools put in a result's `content`, shared by the
 * declarations. Plain text only: names and vendors are hostile text, and no markup is made of them.
 */
import { countedNames, nameList } from "../../2-formats/name-list";
import { percentText } from "../../2-formats/percent";
import { rankRangeText } from "../../2-readings/rank";

type Scores = { innovation: number; control: number; scale: number };

/** "I 61.2 · C 40 · S 72.5". */
export const scoresText = (s: Scores) => `I ${s.innovation} · C ${s.control} · S ${s.scale}`;

/** "foundation-model-apis, release 3 (updated 2026-05-04)". */
export const releaseHeader = (p: { marketId: string; release: number; lastUpdated: string }) =>
  `${p.marketId}, release ${p.release} (updated ${p.lastUpdated.slice(0, 10)})`;

/** "rank 2–4 in 90 % of draws". */
export const rankRange = (interval: { best: number; worst: number }) => `${rankRangeText(interval)} in 90 % of draws`;

/** "FR engages 2 controls: EU data residency; SecNumCloud." (names joined by what none contains) */
export const controlsLine = (p: { country: string; controls: { name: string }[] }) =>
  p.controls.length
    ? `${p.country} engages ${countedNames(
        p.controls.map((c) => c.name),
        "control",
      )}.`
    : `${p.country} engages no controls: nothing moves.`;

/** The controls a product lacks, by name where the reading names them (its country's controls). */
export const lackedControls = (missing: readonly string[], controls: readonly { id: string; name: string }[]) =>
  nameList(missing.map((id) => controls.find((c) => c.id === id)?.name ?? id));

/** What a product keeps under the controls, in one clause: its engaged offering, or what it lacks. */
export const engagedText = (
  p: { available: boolean; offering: { name: string } | null; missingControls: readonly string[] },
  controls: readonly { id: string; name: string }[],
) =>
  p.available
    ? `engages ${p.offering ? `"${p.offering.name}"` : "its published offering"}`
    : `unavailable: no offering satisfies ${lackedControls(p.missingControls, controls)}`;

/**
 * The caller's gates in one or two lines: how many pass, and when none does, that alone (every
 * product's failures are in structuredContent, not 30 lines of text).
 */
export const gatesLine = (gates: { passed: number; failed: number; note: string } | null | undefined) =>
  !gates
    ? []
    : gates.passed === 0
      ? [
          `No product passes your gates (all ${gates.failed} fail them: each product's gate.failed says why). ${gates.note}`,
        ]
      : [`Your gates: ${gates.passed} pass, ${gates.failed} do not (listed last, unranked). ${gates.note}`];

/** "P(top 1) 62 %, P(top 3) 99.8 %, P(top 5) 100 %": how likely a rank is, said once per product. */
export const oddsText = (odds: { top1: number; top3: number; top5: number }) =>
  `P(top 1) ${percentText(odds.top1)}, P(top 3) ${percentText(odds.top3)}, P(top 5) ${percentText(odds.top5)}`;

/** "SEAL-2 (weakest SOV-5)", "SEAL not assessable", or nothing for no offering. */
export const sealText = (seal: { level: number | null; weakest: string[] } | null) =>
  seal === null
    ? ""
    : seal.level === null
      ? "SEAL not assessable from the catalogue"
      : `SEAL-${seal.level} (weakest ${nameList(seal.weakest)})`;

/** Every gate a product failed, in words: the caller's own filters. */
export const gateFailuresText = (
  failed: readonly (
    | { gate: "available"; detail: string }
    | { gate: "minSeal"; required: number; actual: number | null; weakest: string[] }
    | { gate: "requireControls"; missing: string[] }
  )[],
) =>
  failed
    .map((f) =>
      f.gate === "available"
        ? f.detail
        : f.gate === "minSeal"
          ? `below your SEAL-${f.required} (is ${f.actual === null ? "not assessable" : `SEAL-${f.actual}`}${f.weakest.length ? `, weakest ${nameList(f.weakest)}` : ""})`
          : `lacks your required ${nameList(f.missing)}`,
    )
    .join("; ");
