"use client";
/**
 * The caller's gates on the Max and the Delta (the Capability Index engages no country): a SEAL floor and controls the engaged offering must
 * satisfy besides the country's. Said in words as the reader's own filters: the service
 * recommends nothing, and no product is dropped — those that fail are set apart with the gate.
 */
import type { SealLevel } from "@/server/1-domain/sovereignty";

export interface GatesState {
  minSeal: SealLevel | null;
  requireControls: string[];
}

export interface CatalogueControl {
  id: string;
  name: string;
  framework: string;
}

export function GatesForm({
  gates,
  controls,
  onChange,
}: {
  gates: GatesState;
  controls: readonly CatalogueControl[];
  onChange: (next: GatesState) => void;
}) {
  const toggle = (id: string) =>
    onChange({
      ...gates,
      requireControls: gates.requireControls.includes(id)
        ? gates.requireControls.filter((c) => c !== id)
        : [...gates.requireControls, id],
    });
  return (
    <fieldset className="gates-form" data-testid="gates-form">
      <legend>Your gates</legend>
      <span className="hint">your own filters on the Max and the Delta: the service ranks, it never recommends</span>
      <label>
        Minimum SEAL level
        <select
          value={gates.minSeal ?? ""}
          onChange={(e) =>
            onChange({ ...gates, minSeal: e.target.value === "" ? null : (Number(e.target.value) as SealLevel) })
          }
          data-testid="gate-min-seal"
        >
          <option value="">No floor</option>
          {[1, 2, 3, 4].map((level) => (
            <option key={level} value={level}>
              SEAL-{level} or higher
            </option>
          ))}
        </select>
      </label>
      <details>
        <summary data-testid="gate-controls-summary">
          Required controls{gates.requireControls.length ? ` (${gates.requireControls.length})` : ": none"}
        </summary>
        <div className="control-choices">
          {controls.map((control) => (
            <label key={control.id} className="check">
              <input
                type="checkbox"
                checked={gates.requireControls.includes(control.id)}
                onChange={() => toggle(control.id)}
                data-testid={`gate-control-${control.id}`}
              />
              {control.name}
            </label>
          ))}
        </div>
      </details>
    </fieldset>
  );
}

/** The gates as the readings' input takes them; nothing when none is set. */
export const gatesInput = (gates: GatesState) => ({
  ...(gates.minSeal === null ? {} : { minSeal: gates.minSeal }),
  ...(gates.requireControls.length ? { requireControls: gates.requireControls.join(",") } : {}),
});
