/**
 * A count as people read it, the same on every surface that writes one for a person: 1,000, not
 * 1000 (the dashboard's components/format.ts re-exports it). Pure.
 */
export const count = (value: number): string => value.toLocaleString("en");
