/**
 * The weekly summary: for each person who opted in, what the week did to the markets they follow
 * — releases, the biggest movers per axis, band moves, and availability under their active
 * organization's home country. Queuing it writes one e-mail owed per person per ISO week (the
 * unique key), so a slot run twice, on two instances or after a restart, sends once.
 */
import { and, asc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { queryRows } from "../../db/rows";
import { marketFollows, markets, releases } from "../../db/schema";
import type { WeeklyContent, WeeklyMarket } from "../1-domain/notification-content";
import { weekHasNews, weeklyMarket } from "../2-notifications/compose";
import type { WeeklySlot } from "../2-notifications/week";
import { comparisonOf } from "./notify";

export interface WeeklySummary {
  userId: string;
  recipient: string;
  /** The person wants a one-line note when the week was quiet. */
  quietNote: boolean;
  content: WeeklyContent;
}

interface Subscriber {
  user_id: string;
  email: string;
  weekly_quiet_note: boolean;
  home_country: string | null;
}

/** Everyone's summary for the week ending at `slot`, quiet weeks included (`content.markets` empty). */
export async function weeklySummaries(db: Database, slot: WeeklySlot): Promise<WeeklySummary[]> {
  const subscribers = await queryRows<Subscriber>(
    db,
    sql`select u.id as user_id, u.email, p.weekly_quiet_note, o.home_country
      from users u
      join notification_preferences p on p.user_id = u.id and p.weekly_summary
      left join organizations o on o.id = u.active_organization_id
      where u.email is not null
      order by u.id`,
  );
  if (subscribers.length === 0) return [];
  const start = slot.periodStart;
  const end = slot.at;
  const follows = await db
    .select({
      userId: marketFollows.userId,
      marketId: markets.marketId,
      name: markets.name,
      status: markets.status,
      archivedAt: markets.archivedAt,
    })
    .from(marketFollows)
    .innerJoin(markets, eq(markets.marketId, marketFollows.marketId))
    .where(
      inArray(
        marketFollows.userId,
        subscribers.map((s) => s.user_id),
      ),
    )
    .orderBy(asc(markets.name), asc(markets.marketId));
  const published = await db
    .select({
      marketId: releases.marketId,
      release: releases.release,
      publishedAt: releases.publishedAt,
      material: releases.material,
      methodologyVersion: releases.methodologyVersion,
    })
    .from(releases)
    .where(and(gte(releases.publishedAt, start), lt(releases.publishedAt, end)))
    .orderBy(asc(releases.marketId), asc(releases.release));

  // A market's week under a country is the same for everyone reading it under that country.
  const computed = new Map<string, Promise<WeeklyMarket>>();
  const marketWeek = (follow: (typeof follows)[number], country: string | null) => {
    const key = `${follow.marketId}\u0000${country ?? ""}`;
    let week = computed.get(key);
    if (!week) {
      week = (async () => {
        const mine = published.filter((r) => r.marketId === follow.marketId);
        const archived =
          follow.status === "archived" &&
          follow.archivedAt !== null &&
          follow.archivedAt >= start &&
          follow.archivedAt < end;
        const first = mine[0]?.release;
        const last = mine.at(-1)?.release;
        let comparison = null;
        let firstProducts: string[] = [];
        if (first !== undefined && last !== undefined) {
          if (first > 1) comparison = await comparisonOf(db, follow.marketId, first - 1, last, country);
          else firstProducts = await productNames(db, follow.marketId, last);
        }
        const week = weeklyMarket(
          { marketId: follow.marketId, marketName: follow.name },
          mine.map((r) => ({
            release: r.release,
            publishedAt: r.publishedAt.toISOString(),
            material: r.material,
            methodologyVersion: r.methodologyVersion,
          })),
          archived,
          comparison,
          firstProducts,
        );
        // Availability is only said under the person's own country.
        return comparison && comparison.country === country ? week : { ...week, availability: [] };
      })();
      computed.set(key, week);
    }
    return week;
  };

  const summaries: WeeklySummary[] = [];
  for (const subscriber of subscribers) {
    const theirs = follows.filter((f) => f.userId === subscriber.user_id);
    const weeks = await Promise.all(theirs.map((f) => marketWeek(f, subscriber.home_country)));
    summaries.push({
      userId: subscriber.user_id,
      recipient: subscriber.email,
      quietNote: subscriber.weekly_quiet_note,
      content: {
        week: slot.week,
        periodStart: start.toISOString(),
        periodEnd: end.toISOString(),
        country: subscriber.home_country,
        markets: weeks.filter(weekHasNews),
      },
    });
  }
  return summaries;
}

async function productNames(db: Database, marketId: string, release: number): Promise<string[]> {
  const [row] = await db
    .select({ products: releases.products })
    .from(releases)
    .where(and(eq(releases.marketId, marketId), eq(releases.release, release)))
    .limit(1);
  return row?.products.map((p) => p.name) ?? [];
}

/** The summaries that would be sent: a quiet week only to those who asked for the one-line note. */
export const summariesToSend = (summaries: WeeklySummary[]) =>
  summaries.filter((s) => s.content.markets.length > 0 || s.quietNote);

/** Writes the week's e-mails owed (once per person and ISO week); returns the new ones' ids. */
export async function queueWeeklySummaries(db: Database, slot: WeeklySlot): Promise<number[]> {
  const due = summariesToSend(await weeklySummaries(db, slot));
  if (due.length === 0) return [];
  const rows = await queryRows<{ id: number }>(
    db,
    sql`insert into mail_deliveries (user_id, dedupe_key, recipient, kind, content)
      select x.user_id, ${`weekly:${slot.week}`}, x.recipient, 'weekly', x.content
      from jsonb_to_recordset(${JSON.stringify(
        due.map((s) => ({ user_id: s.userId, recipient: s.recipient, content: s.content })),
      )}::jsonb) as x(user_id text, recipient text, content jsonb)
      on conflict do nothing returning id`,
  );
  return rows.map((r) => r.id);
}
