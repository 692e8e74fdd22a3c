/**
 * The geographies list as the dashboard reads it: every country's controls as objects. The list
 * answers control ids instead when asked `detail=ids` (a model's compact first call); the
 * dashboard never asks it, and this says so to the type checker, loudly if it ever did.
 */
export interface NamedControl {
  id: string;
  name: string;
  description: string;
  framework: string;
}

export interface GeographyWithControls {
  country: string;
  name: string;
  controls: NamedControl[];
}

export function fullGeographies(
  list: readonly { country: string; name: string; controls: readonly (string | NamedControl)[] }[],
): GeographyWithControls[] {
  return list.map((geography) => ({
    ...geography,
    controls: geography.controls.map((control) => {
      if (typeof control === "string") throw new Error("the geographies were asked with detail=ids, not full");
      return control;
    }),
  }));
}
