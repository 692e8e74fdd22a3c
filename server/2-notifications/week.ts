/**
 * When the weekly summary goes out and which week it covers. The operator picks a day, an hour and
 * a time zone (default Monday 08:00 UTC); the summary sent at a slot covers the seven days since
 * the slot before it, and is named by the ISO week it is sent in (`2026-W48`). Pure: the clock is
 * an argument.
 */

export interface WeeklySchedule {
  /** ISO weekday: 1 Monday … 7 Sunday. */
  day: number;
  /** Local hour, 0–23. */
  hour: number;
  /** IANA time zone, e.g. `Europe/Paris`. */
  timeZone: string;
}

const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

function parseDay(raw: string): number {
  const value = raw.trim().toLowerCase();
  if (/^[1-7]$/.test(value)) return Number(value);
  const index = DAYS.findIndex((day) => day === value || day.slice(0, 3) === value);
  if (index < 0) throw new Error(`WEEKLY_SUMMARY_DAY must be a weekday (monday … sunday, or 1–7), not "${raw}"`);
  return index + 1;
}

/** WEEKLY_SUMMARY_DAY, WEEKLY_SUMMARY_HOUR and WEEKLY_SUMMARY_TIME_ZONE, checked. */
export function weeklyScheduleFromEnv(env: NodeJS.ProcessEnv = process.env): WeeklySchedule {
  const day = env.WEEKLY_SUMMARY_DAY ? parseDay(env.WEEKLY_SUMMARY_DAY) : 1;
  const rawHour = env.WEEKLY_SUMMARY_HOUR ?? "";
  const hour = rawHour === "" ? 8 : Number(rawHour);
  if (!Number.isInteger(hour) || hour < 0 || hour > 23)
    throw new Error(`WEEKLY_SUMMARY_HOUR must be a whole hour 0–23, not "${rawHour}"`);
  const timeZone = env.WEEKLY_SUMMARY_TIME_ZONE || "UTC";
  try {
    new Intl.DateTimeFormat("en", { timeZone });
  } catch {
    throw new Error(`WEEKLY_SUMMARY_TIME_ZONE must be an IANA time zone (e.g. Europe/Paris), not "${timeZone}"`);
  }
  return { day, hour, timeZone };
}

/** The schedule as cron (pg-boss reads it in the schedule's time zone); cron counts Sunday as 0. */
export const weeklyCron = (schedule: WeeklySchedule) => `0 ${schedule.hour} * * ${schedule.day % 7}`;

interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function localTime(at: Date, timeZone: string): LocalTime {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
  };
}

/** The instant a local date and hour name in a time zone (a skipped hour resolves forward). */
function zonedInstant(year: number, month: number, day: number, hour: number, timeZone: string): Date {
  const wanted = Date.UTC(year, month - 1, day, hour);
  let guess = wanted;
  for (let i = 0; i < 3; i++) {
    const local = localTime(new Date(guess), timeZone);
    const seen = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
    if (seen === wanted) break;
    guess += wanted - seen;
  }
  return new Date(guess);
}

/** A calendar date `days` after another (proleptic Gregorian, no time zone involved). */
function addDays(date: { year: number; month: number; day: number }, days: number) {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

const isoWeekday = (date: { year: number; month: number; day: number }) =>
  ((new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7) + 1;

/** The ISO week (`YYYY-Www`) a calendar date belongs to. */
export function isoWeekOf(date: { year: number; month: number; day: number }): string {
  const thursday = addDays(date, 4 - isoWeekday(date)); // the week's Thursday decides its year
  const yearStart = Date.UTC(thursday.year, 0, 1);
  const week = Math.floor((Date.UTC(thursday.year, thursday.month - 1, thursday.day) - yearStart) / 86_400_000 / 7) + 1;
  return `${thursday.year}-W${String(week).padStart(2, "0")}`;
}

export interface WeeklySlot {
  /** The sending instant. */
  at: Date;
  /** The ISO week it falls in, in the schedule's time zone. */
  week: string;
  /** The period covered: from the slot a week before (inclusive) to this one (exclusive). */
  periodStart: Date;
}

function slotOnDate(date: { year: number; month: number; day: number }, schedule: WeeklySchedule): WeeklySlot {
  const before = addDays(date, -7);
  return {
    at: zonedInstant(date.year, date.month, date.day, schedule.hour, schedule.timeZone),
    week: isoWeekOf(date),
    periodStart: zonedInstant(before.year, before.month, before.day, schedule.hour, schedule.timeZone),
  };
}

/** The latest slot at or before `now`: the one a job running now is for. */
export function latestSlot(now: Date, schedule: WeeklySchedule): WeeklySlot {
  const today = localTime(now, schedule.timeZone);
  for (let back = 0; back <= 7; back++) {
    const date = addDays(today, -back);
    if (isoWeekday(date) !== schedule.day) continue;
    const slot = slotOnDate(date, schedule);
    if (slot.at.getTime() <= now.getTime()) return slot;
  }
  throw new Error("no weekly slot in the last eight days"); // unreachable: one weekday recurs every 7 days
}

/** The slot of an ISO week (`2026-W48`), in the schedule's time zone. */
export function slotOfWeek(week: string, schedule: WeeklySchedule): WeeklySlot {
  const match = /^(\d{4})-W(\d{2})$/.exec(week);
  if (!match) throw new Error(`a week is written YYYY-Www (e.g. 2026-W48), not "${week}"`);
  const year = Number(match[1]);
  const number = Number(match[2]);
  const jan4 = { year, month: 1, day: 4 }; // always in week 1
  const monday = addDays(jan4, 1 - isoWeekday(jan4) + (number - 1) * 7);
  const date = addDays(monday, schedule.day - 1);
  if (number < 1 || isoWeekOf(date) !== week) throw new Error(`${week} is not a week of ${year}`);
  return slotOnDate(date, schedule);
}
