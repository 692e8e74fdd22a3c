/**
 * What is being retired from the published interface, and when (docs/interface.md, "Deprecation
 * policy"). A deprecation names an operation (its ledger name, e.g. `readings.delta`) and, when
 * not the whole operation, one parameter or one field of its answer; `since` is the day it was
 * deprecated, `sunset` the first day it may be gone (at least six months later). Calls it concerns
 * are told so — REST in `Deprecation`, `Sunset` and `Link` headers, MCP in `_meta.deprecation` —
 * from `since` until it is removed. Pure: no I/O.
 */

export interface Deprecation {
  operation: string;
  /** A query parameter or tool argument: only calls that use it are told. */
  parameter?: string;
  /** A field of the answer: every call of the operation is told. */
  field?: string;
  /** ISO dates (YYYY-MM-DD, UTC). */
  since: string;
  sunset: string;
  /** What to use instead, in words. */
  instead: string;
}

/** What is deprecated today. An entry here is the whole of a deprecation: headers, _meta and OpenAPI follow. */
export const DEPRECATIONS: readonly Deprecation[] = [
  {
    // One sign for a rank's move across every reading: positive moved up, as the what-if's rankChange.
    operation: "readings.changes",
    field: "change of capabilityIndexRank and max.rank",
    since: "2026-11-26",
    sunset: "2027-06-01",
    instead: "read `movedUp`, places gained (positive moved up, the opposite sign of `change`).",
  },
];

/** The least notice between deprecating something and its sunset. */
export const MIN_NOTICE_DAYS = 183;

export interface DeprecationNotice {
  /** The earliest `since` and the earliest `sunset` of the deprecations a call touches. */
  since: Date;
  sunset: Date;
  /** One sentence per deprecation. */
  notes: string[];
}

const what = (d: Deprecation) =>
  d.parameter ? `The parameter \`${d.parameter}\`` : d.field ? `The field \`${d.field}\`` : "This operation";

/** The deprecations a call of `operation` with these parameters touches, as one notice; undefined when none. */
export function deprecationOf(
  operation: string,
  parameters: readonly string[],
  now: Date,
  list: readonly Deprecation[] = DEPRECATIONS,
): DeprecationNotice | undefined {
  const touched = list.filter(
    (d) =>
      d.operation === operation &&
      new Date(d.since).getTime() <= now.getTime() &&
      (d.parameter === undefined || parameters.includes(d.parameter)),
  );
  if (touched.length === 0) return undefined;
  const earliest = (dates: string[]) => new Date(Math.min(...dates.map((date) => new Date(date).getTime())));
  return {
    since: earliest(touched.map((d) => d.since)),
    sunset: earliest(touched.map((d) => d.sunset)),
    notes: touched.map(
      (d) => `${what(d)} is deprecated since ${d.since} and may be gone from ${d.sunset}: ${d.instead}`,
    ),
  };
}

/** Problems with the list itself: each sunset at least MIN_NOTICE_DAYS after its deprecation, dates real. */
export function deprecationListProblems(list: readonly Deprecation[]): string[] {
  return list.flatMap((d) => {
    const since = Date.parse(d.since);
    const sunset = Date.parse(d.sunset);
    if (Number.isNaN(since) || Number.isNaN(sunset)) return [`${d.operation}: since and sunset must be dates`];
    if (d.parameter && d.field) return [`${d.operation}: a parameter or a field, not both`];
    return sunset - since < MIN_NOTICE_DAYS * 86_400_000
      ? [`${d.operation}: sunset ${d.sunset} is less than ${MIN_NOTICE_DAYS} days after ${d.since}`]
      : [];
  });
}
