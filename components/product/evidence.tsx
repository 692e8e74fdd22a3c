/**
 * Evidence and values as the product page writes them. Sources, notes and names come from the
 * catalogue and are shown as text only; a source becomes a link only when it is an http(s) URL.
 */
import type { ProductBreakdown } from "./types";

export type Evidence = ProductBreakdown["axes"]["innovation"]["indicators"][number]["evidence"];
export type IndicatorValue = ProductBreakdown["axes"]["innovation"]["indicators"][number]["value"];

/** The URL when `source` is a web address (http or https), else null: never javascript:, data: and the like. */
export function webAddress(source: string): string | null {
  if (!/^https?:\/\//i.test(source.trim())) return null;
  try {
    const url = new URL(source.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** A value as written in the catalogue, with its unit: "91 score (0–100)", "yes", a level; null is not demonstrated. */
export function valueText(value: IndicatorValue, unit: string | null = null): string {
  if (value === null) return "not demonstrated";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return unit ? `${value} ${unit}` : String(value);
  return value;
}

/** Where a value comes from: a link when the source is a web address, else the reference as text. */
export function EvidenceSource({ evidence }: { evidence: Evidence }) {
  if (!evidence) return <span className="hint">no evidence given</span>;
  const href = webAddress(evidence.source);
  return href ? (
    <a href={href} rel="noopener noreferrer" target="_blank" data-testid="evidence-link">
      {evidence.source}
    </a>
  ) : (
    <span data-testid="evidence-source">{evidence.source}</span>
  );
}

/** Source, date, confidence and note on a few lines. */
export function EvidenceBlock({ evidence }: { evidence: Evidence }) {
  if (!evidence) return <span className="hint">no evidence given</span>;
  return (
    <span className="evidence">
      <EvidenceSource evidence={evidence} />
      <span className="hint">
        {" "}
        as of{" "}
        <time dateTime={evidence.asOf} data-testid="evidence-as-of">
          {evidence.asOf}
        </time>
        {evidence.confidence ? `, ${evidence.confidence}` : ""}
      </span>
      {evidence.note ? <span className="evidence-note">{evidence.note}</span> : null}
    </span>
  );
}
