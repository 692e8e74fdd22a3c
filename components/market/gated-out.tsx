"use client";
/**
 * The caller's gates as the Max and the Delta show them: a product's failed gates in words, and
 * the list of usable products set apart because they failed one. Never dropped, never ranked.
 */
import type { ServicemaxReading } from "./reading-types";

type GateVerdict = NonNullable<ServicemaxReading["products"][number]["gate"]>;

interface Gated {
  productId: string;
  name: string;
  available: boolean;
  gate?: GateVerdict;
}

/** A product's gates in words, when the reader set some: the reader's own filters. */
export function gateWords(p: { gate?: GateVerdict }): string {
  if (!p.gate) return "";
  if (p.gate.passed) return "passes";
  return p.gate.failed
    .map((f) =>
      f.gate === "available"
        ? "unavailable here"
        : f.gate === "minSeal"
          ? `below SEAL-${f.required} (${f.actual === null ? "not assessable" : `SEAL-${f.actual}`})`
          : `lacks ${f.missing.join(", ")}`,
    )
    .join("; ");
}

/** Whether a product is drawn with the reading: passing the gates, or no gates were set. */
export const throughGates = (gated: boolean) => (p: { gate?: GateVerdict }) => !gated || p.gate?.passed === true;

/** The usable products that failed a gate, with every gate each failed. */
export function gatedOut<T extends Gated>(products: readonly T[]): T[] {
  return products.filter((p) => p.available && p.gate !== undefined && !p.gate.passed);
}

/**
 * The summary's sentence about the gates: how many pass, how many usable are set apart, and that
 * the chart draws only those that pass (the table keeps every product).
 */
export function gatesSentence(passed: number, setApart: number): string {
  return ` Your gates: ${passed} pass${passed === 1 ? "es" : ""}, ranked among ${passed === 1 ? "the passing" : "themselves"}; ${setApart} usable product${setApart === 1 ? " does" : "s do"} not and ${setApart === 1 ? "is" : "are"} set apart with the gate missed. The chart draws those that pass; the table lists every product.`;
}

export function GatedOutList({ products, testId }: { products: readonly Gated[]; testId: string }) {
  const apart = gatedOut(products);
  if (apart.length === 0) return null;
  return (
    <ul className="gated-out" data-testid={testId}>
      {apart.map((p) => (
        <li key={p.productId} className="gated-out" data-product-id={p.productId}>
          {p.name}: not through your gates — {gateWords(p)}
        </li>
      ))}
    </ul>
  );
}
