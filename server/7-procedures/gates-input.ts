/** The caller's gates as a reading's input gives them, checked against the release's controls. */
import type { SealLevel } from "../1-domain/sovereignty";
import { invalidRequest } from "../1-errors/api-error";
import type { Gates } from "../2-readings/gates";
import type { ReleaseData } from "../2-readings/release";
import { LISTS_CONTROLS } from "./pointers";

export function gatesOf(input: { minSeal?: number; requireControls?: string }, release: ReleaseData): Gates {
  const requireControls = [
    ...new Set(
      (input.requireControls ?? "")
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  const known = new Set(release.controls.map((c) => c.id));
  const unknown = requireControls.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    const message = `No control ${unknown.map((id) => `"${id}"`).join(", ")} in release ${release.release}.`;
    throw invalidRequest(message, [{ path: "requireControls", message }], LISTS_CONTROLS);
  }
  return { requireControls, ...(input.minSeal === undefined ? {} : { minSeal: input.minSeal as SealLevel }) };
}
