/** How the dashboard writes moments: in UTC, to the day or to the minute. */

/** 2026-05-04 */
export const utcDay = (value: string | Date): string => new Date(value).toISOString().slice(0, 10);

/** 2026-05-04 09:30, or null for no moment. */
export const utcMinute = (value: string | Date | null): string | null =>
  value ? new Date(value).toISOString().slice(0, 16).replace("T", " ") : null;
