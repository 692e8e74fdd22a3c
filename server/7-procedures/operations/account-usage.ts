import { z } from "zod";
import { invalidRequest } from "../../1-errors/api-error";
import { creditBalance } from "../../4-credits/credits";
import {
  BUCKET_MS,
  bucketStart,
  MAX_BUCKETS,
  type UsageBucket,
  type UsageFigures,
  type UsageGrouping,
  type UsageRow,
  usageRows,
} from "../../4-credits/usage";
import { declareLive } from "../declaration";
import { credits, timestamp } from "../schemas";

const figures = {
  credits: credits.meta({ description: "Credits spent: the sum of the ledger's debits." }),
  calls: z.number().int().min(0).meta({ description: "Metered calls that succeeded (each one debit)." }),
};

/** The instants a usage period may name: wide enough for any ledger, inside what PostgreSQL stores. */
const USAGE_SPAN = { from: "2000-01-01T00:00:00Z", to: "9999-12-31T23:59:59Z" } as const;

/** A usage period's end, as an ISO 8601 date-time within USAGE_SPAN. */
const usageInstant = (name: string, example: string) => {
  const message = `${name} must be an ISO 8601 date-time from 2000-01-01 to 9999-12-31, e.g. ${example}`;
  return z.iso.datetime({ offset: true, error: message }).refine((value) => {
    const at = Date.parse(value);
    return at >= Date.parse(USAGE_SPAN.from) && at <= Date.parse(USAGE_SPAN.to);
  }, message);
};

export const usageInput = z.object({
  from: usageInstant("from", "2026-11-01T00:00:00Z").optional().meta({
    description:
      "Start of the period (its bucket's start), 2000-01-01 to 9999-12-31; default: 30 days (day) or 24 hours (hour) before `to`.",
  }),
  to: usageInstant("to", "2026-11-25T00:00:00Z")
    .optional()
    .meta({ description: "End of the period, exclusive, 2000-01-01 to 9999-12-31; default: now." }),
  bucket: z
    .enum(["day", "hour"], { error: "bucket must be day or hour" })
    .default("day")
    .meta({ description: "UTC days (at most 366) or hours (at most 744)." }),
  groupBy: z
    .enum(["operation", "token"], { error: "groupBy must be operation or token" })
    .optional()
    .meta({ description: "Split each bucket by operation, or by the token or OAuth grant that called." }),
});

export const usageSchema = z
  .object({
    balance: credits.meta({ description: "The organization's balance now." }),
    from: timestamp,
    to: timestamp,
    bucket: z.enum(["day", "hour"]),
    groupBy: z.enum(["operation", "token"]).nullable(),
    totals: z.object(figures),
    buckets: z.array(
      z.object({
        start: timestamp,
        ...figures,
        groups: z
          .array(z.object({ key: z.string().nullable(), ...figures }))
          .optional()
          .meta({ description: "With groupBy: the bucket split by operation or token (null: no token)." }),
      }),
    ),
  })
  .meta({
    id: "Usage",
    description: "Credits and metered calls per bucket, every bucket of the period listed; the sums are the ledger's.",
  });

/** The default period: 30 days of days, 24 hours of hours, ending now. */
const DEFAULT_BUCKETS: Record<UsageBucket, number> = { day: 30, hour: 24 };

const refuse = (path: string, message: string) => invalidRequest(message, [{ path, message }]);

/** Every bucket of the period with its sums (zero where nothing was spent), and the groups when asked. */
export function usageReport(
  rows: readonly UsageRow[],
  { from, to, bucket, groupBy }: { from: Date; to: Date; bucket: UsageBucket; groupBy?: UsageGrouping },
) {
  const total: UsageFigures = { credits: 0, calls: 0 };
  const byStart = new Map<number, UsageRow[]>();
  for (const row of rows) {
    byStart.set(row.start.getTime(), [...(byStart.get(row.start.getTime()) ?? []), row]);
    total.credits += row.credits;
    total.calls += row.calls;
  }
  const buckets = [];
  for (let start = from.getTime(); start < to.getTime(); start += BUCKET_MS[bucket]) {
    const inBucket = byStart.get(start) ?? [];
    buckets.push({
      start: new Date(start).toISOString(),
      credits: inBucket.reduce((sum, row) => sum + row.credits, 0),
      calls: inBucket.reduce((sum, row) => sum + row.calls, 0),
      ...(groupBy ? { groups: inBucket.map(({ key, credits, calls }) => ({ key, credits, calls })) } : {}),
    });
  }
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    bucket,
    groupBy: groupBy ?? null,
    totals: total,
    buckets,
  };
}

export const accountUsage = declareLive({
  group: "account",
  name: "usage",
  scope: null,
  credits: 0,
  path: "/usage",
  summary: "Usage",
  description:
    "What the organization spent and how many metered calls it made over a period, per UTC day or hour, every bucket listed, optionally split by operation or by token: every sum is exactly the ledger's. The period starts at the start of `from`'s bucket and ends before `to`. Any valid token may call it, whatever its scopes.",
  input: usageInput,
  output: usageSchema,
  // A period of the past: the same answer on every call (its tool's results are compared byte for byte).
  example: { bucket: "day", groupBy: "operation", from: "2026-11-01T00:00:00Z", to: "2026-11-08T00:00:00Z" },
  caching: "live",
  answer: async (ctx, input) => {
    const organization = ctx.caller?.organization;
    const bucket = input.bucket;
    const to = input.to === undefined ? new Date() : new Date(input.to);
    const from = bucketStart(
      input.from === undefined
        ? new Date(to.getTime() - (DEFAULT_BUCKETS[bucket] - 1) * BUCKET_MS[bucket])
        : new Date(input.from),
      bucket,
    );
    if (from.getTime() >= to.getTime()) throw refuse("to", "to must be later than from");
    const count = Math.ceil((to.getTime() - from.getTime()) / BUCKET_MS[bucket]);
    if (count > MAX_BUCKETS[bucket])
      throw refuse(
        "from",
        `the period holds ${count} ${bucket}s; at most ${MAX_BUCKETS[bucket]} per answer: ask for a shorter period${bucket === "hour" ? " or days" : ""}`,
      );
    const period = { from, to, bucket, groupBy: input.groupBy };
    const [rows, balance] = organization
      ? await Promise.all([
          usageRows(ctx.db, organization.id, { ...period, endsNow: input.to === undefined }),
          creditBalance(ctx.db, organization.id),
        ])
      : [[], 0];
    return { balance, ...usageReport(rows, period) };
  },
  tool: {
    name: "service_account_get_usage",
    title: "Usage: what credits were spent on",
    // What an agent asks first is what the credits went on: split by operation unless told otherwise.
    defaults: { groupBy: "operation" },
    overBudget: "ask for a shorter period (from, to) or days rather than hours",
    text: usageText,
  },
});

type Usage = z.output<typeof usageSchema>;

/** "1,000" */
const amount = (value: number) => value.toLocaleString("en");

/** "readings.snapshot 15 (3 calls)": a group's spend. */
const spendText = (key: string | null, figures: UsageFigures, by: UsageGrouping | null) =>
  `${key ?? (by === "token" ? "(no token)" : "(none)")} ${amount(figures.credits)} (${figures.calls} call${figures.calls === 1 ? "" : "s"})`;

/**
 * The usage as a model reads it: the balance and the period's total first, then the biggest spends
 * over the whole period (by operation or token), then each bucket that spent anything.
 */
function usageText(usage: Usage): string {
  const totals = new Map<string | null, UsageFigures>();
  for (const bucket of usage.buckets)
    for (const group of bucket.groups ?? []) {
      const sum = totals.get(group.key) ?? { credits: 0, calls: 0 };
      totals.set(group.key, { credits: sum.credits + group.credits, calls: sum.calls + group.calls });
    }
  const biggest = [...totals].sort(([a, x], [b, y]) => y.credits - x.credits || String(a).localeCompare(String(b)));
  const spent = usage.buckets.filter((bucket) => bucket.calls > 0);
  const day = (at: string) => (usage.bucket === "day" ? at.slice(0, 10) : `${at.slice(0, 13).replace("T", " ")}h`);
  return [
    `Balance: ${amount(usage.balance)} credits. Spent ${amount(usage.totals.credits)} credits on ${amount(usage.totals.calls)} metered calls from ${usage.from.slice(0, 16).replace("T", " ")} to ${usage.to.slice(0, 16).replace("T", " ")} UTC.`,
    ...(biggest.length
      ? [
          `Biggest spends by ${usage.groupBy}: ${biggest.map(([key, sum]) => spendText(key, sum, usage.groupBy)).join("; ")}.`,
        ]
      : []),
    spent.length
      ? `${usage.bucket === "day" ? "Days" : "Hours"} with spending (UTC):`
      : "Nothing was spent in the period.",
    ...spent.map(
      (bucket) =>
        `- ${day(bucket.start)}: ${amount(bucket.credits)} credits, ${bucket.calls} call${bucket.calls === 1 ? "" : "s"}`,
    ),
    `Before this period: call again with to "${usage.from}". Each debit with its call's request id: GET /v1/ledger.`,
  ].join("\n");
}
