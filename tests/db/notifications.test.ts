/**
 * Following markets on a real database (PGlite here, PostgreSQL under TEST_DATABASE_URL): catalogue
 * events written with the publish, fanned out once per follower however many fan-outs run, e-mails
 * owed only to those who chose them, the weekly summary under a fixed clock, the CLI's dry run
 * writing nothing, and the mail job's claim keeping attempts apart.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { queryRows } from "@/db/rows";
import { AXES } from "@/server/1-domain/market-definition";
import type { NotificationContent, WeeklyContent } from "@/server/1-domain/notification-content";
import { slotOfWeek } from "@/server/2-notifications/week";
import { claimDelivery } from "@/server/4-following/deliveries";
import { followMarket, unfollowMarket, updatePreferences } from "@/server/4-following/following";
import { markAllRead, markRead, notificationsOf, unreadCount } from "@/server/4-following/inbox";
import { comparisonOf, fanOutPendingEvents } from "@/server/4-following/notify";
import { queueWeeklySummaries, summariesToSend, weeklySummaries } from "@/server/4-following/weekly";
import { createOrganization } from "@/server/4-organizations/organizations";
import { readUnsubscribeToken } from "@/server/6-mail/unsubscribe";
import { sendDelivery } from "@/server/8-jobs/fan-out";
import { addPerson } from "../helpers/accounts";
import { runOps } from "../helpers/cli";
import { testDatabase } from "../helpers/database";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");
const MARKET = "hand-computed";
const UTC_MONDAY_8 = { day: 1, hour: 8, timeZone: "UTC" };

const database = testDatabase();
let dir: string;

/** The fixture market with `change` applied, written to a file to publish. */
function variant(name: string, change: (market: Record<string, any>) => void): string {
  const market = parse(readFileSync(path.join(FIXTURES, "market.yaml"), "utf8"));
  change(market);
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, stringify(market));
  return file;
}

async function publish(file: string, at: string, material = false) {
  const result = await runOps(
    database,
    ["catalog", "publish", file, "--notes", `published ${at}`, ...(material ? ["--material"] : [])],
    new Date(at),
  );
  expect(result.code, result.stderr).toBe(0);
}

async function person(email: string, homeCountry: string | null = null) {
  const { id } = await addPerson(database.db, { email });
  if (homeCountry) {
    const org = await createOrganization(database.db, {
      name: `${email} org`,
      homeCountry,
      ownerUserId: id,
      credits: 0,
    });
    await database.db.execute(sql`update users set active_organization_id = ${org.id} where id = ${id}`);
  }
  return id;
}

const count = async (query: ReturnType<typeof sql>) =>
  Number((await queryRows<{ n: number }>(database.db, query))[0]?.n);

let follower: string;
let emailer: string;
let bystander: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "mps-follow-"));
  expect((await runOps(database, ["catalog", "publish", path.join(FIXTURES, "geographies.yaml")])).code).toBe(0);
  await publish(path.join(FIXTURES, "market.yaml"), "2026-06-01T09:00:00Z");
  follower = await person("follower@example.com", "XA");
  emailer = await person("emailer@example.com", "XB");
  bystander = await person("bystander@example.com");
  await followMarket(database.db, follower, MARKET);
  await followMarket(database.db, emailer, MARKET);
  await updatePreferences(database.db, emailer, { releaseEmails: true });
  // Everything before the follows is done (the first release had no followers yet).
  await fanOutPendingEvents(database.db);
});

describe("following", () => {
  it("refuses an unknown market and follows a listed one once, however often asked", async () => {
    await expect(followMarket(database.db, bystander, "no-such-market")).rejects.toMatchObject({
      problemCode: "not_found",
    });
    await followMarket(database.db, bystander, MARKET);
    await followMarket(database.db, bystander, MARKET);
    expect(await count(sql`select count(*)::int as n from market_follows where user_id = ${bystander}`)).toBe(1);
    expect(await unfollowMarket(database.db, bystander, MARKET)).toBe(true);
    expect(await unfollowMarket(database.db, bystander, MARKET)).toBe(false);
  });
});

describe("a release of a followed market", () => {
  let content: NotificationContent;

  it("notifies each follower exactly once, however many fan-outs run at once", async () => {
    // Bravo's benchmark rises: its own values move, and the field's bounds do not (Alpha still leads).
    await publish(
      variant("r2", (m) => {
        m.products[1].offerings[0].values.bench = 70;
      }),
      "2026-06-02T09:00:00Z",
    );
    const runs = await Promise.all([1, 2, 3, 4].map(() => fanOutPendingEvents(database.db)));
    expect(runs.reduce((n, r) => n + r.events, 0)).toBe(1);
    expect(runs.reduce((n, r) => n + r.notifications, 0)).toBe(2);
    expect(runs.flatMap((r) => r.deliveries)).toHaveLength(1);
    expect(await count(sql`select count(*)::int as n from notifications where user_id = ${follower}`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from notifications where user_id = ${emailer}`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from notifications where user_id = ${bystander}`)).toBe(0);
    const deliveries = await queryRows<{ user_id: string; recipient: string }>(
      database.db,
      sql`select user_id, recipient from mail_deliveries`,
    );
    expect(deliveries).toEqual([{ user_id: emailer, recipient: "emailer@example.com" }]);
    // A later fan-out finds nothing to do.
    expect(await fanOutPendingEvents(database.db)).toEqual({
      events: 0,
      notifications: 0,
      deliveries: [],
      webhooks: [],
    });
    [{ content } = { content }] = await notificationsOf(database.db, follower);
  });

  it("names the release and its biggest moves, as the comparison attributes them", async () => {
    expect(content).toMatchObject({ kind: "release_published", marketId: MARKET, release: 2, comparedWith: 1 });
    // Every non-zero move of the comparison, biggest first: the notification names the top five.
    const comparison = await comparisonOf(database.db, MARKET, 1, 2);
    const moves = (comparison?.products ?? [])
      .flatMap((p) =>
        p.scores ? AXES.map((axis) => ({ product: p.name, axis, change: p.scores?.[axis].change as number })) : [],
      )
      .filter((m) => m.change !== 0)
      .sort((a, b) => Math.abs(b.change) - Math.abs(a.change));
    expect(moves.length).toBeGreaterThan(0);
    expect(content.topMoves.map(({ product, axis, change }) => ({ product, axis, change }))).toEqual(moves.slice(0, 5));
    // Bravo's benchmark rose but it stays the field's bound; Charlie's values did not change, so
    // its Innovation moved only because the field did.
    const charlie = content.topMoves.find((m) => m.product === "Charlie" && m.axis === "innovation");
    expect(charlie?.change).toBeLessThan(0);
    expect(charlie?.attribution).toEqual({ ownValues: 0, field: charlie?.change, method: 0 });
    expect(content.bandMoves).toContainEqual({
      product: "Charlie",
      axis: "innovation",
      from: "Established",
      to: "Foundation",
    });
  });

  it("counts unread notifications and marks them read, only the person's own", async () => {
    expect(await unreadCount(database.db, follower)).toBe(1);
    const [mine] = await notificationsOf(database.db, follower);
    expect(await markRead(database.db, emailer, [mine?.id as number])).toBe(0);
    expect(await markRead(database.db, follower, [mine?.id as number])).toBe(1);
    expect(await unreadCount(database.db, follower)).toBe(0);
    expect(await unreadCount(database.db, emailer)).toBe(1);
    expect(await markAllRead(database.db, emailer)).toBe(1);
    expect(await unreadCount(database.db, emailer)).toBe(0);
  });

  it("sends an owed e-mail once, to the dev outbox, with its HTML and one-click unsubscribe headers", async () => {
    const [owed] = await queryRows<{ id: number }>(database.db, sql`select id from mail_deliveries`);
    const id = owed?.id as number;
    const env = { ...process.env };
    delete process.env.SMTP_URL;
    try {
      expect(await sendDelivery(database.db, id)).toBe("sent");
      expect(await sendDelivery(database.db, id)).toBe("skipped");
    } finally {
      process.env = env;
    }
    const mails = await queryRows<{ subject: string; html: string; body: string; headers: Record<string, string> }>(
      database.db,
      sql`select subject, html, body, headers from mail_outbox where recipient = 'emailer@example.com'`,
    );
    expect(mails).toHaveLength(1);
    const [mail] = mails as [(typeof mails)[number]];
    expect(mail.subject).toBe("Hand-computed market: release 2");
    expect(mail.body).toContain("Release 2 of Hand-computed market was published.");
    expect(mail.html).toContain("/markets/hand-computed/changes?from=1&amp;to=2#changes");
    expect(mail.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const link = /^<(.+)>$/.exec(mail.headers["List-Unsubscribe"] ?? "")?.[1] as string;
    const token = new URL(link).searchParams.get("token") as string;
    expect(await readUnsubscribeToken(token)).toEqual({ userId: emailer, list: "release" });
    expect(await count(sql`select count(*)::int as n from mail_deliveries where sent_at is not null`)).toBe(1);
  });

  it("lets only one attempt hold a delivery at a time", async () => {
    const [row] = await queryRows<{ id: number }>(
      database.db,
      sql`insert into mail_deliveries (user_id, dedupe_key, recipient, kind, content)
        values (${emailer}, 'test:claim', 'emailer@example.com', 'notification', '{}'::jsonb) returning id`,
    );
    const id = row?.id as number;
    const claims = await Promise.all([1, 2, 3].map(() => claimDelivery(database.db, id)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    await database.db.execute(sql`delete from mail_deliveries where id = ${id}`);
  });

  it("notifies followers once when their market is archived, and not again when it is archived again", async () => {
    const other = variant("other", (m) => {
      m.marketId = "archived-soon";
      m.name = "Archived <soon>";
    });
    await publish(other, "2026-06-03T09:00:00Z");
    await followMarket(database.db, follower, "archived-soon");
    await fanOutPendingEvents(database.db);
    expect((await runOps(database, ["catalog", "archive", "archived-soon"])).code).toBe(0);
    expect((await runOps(database, ["catalog", "archive", "archived-soon"])).code).toBe(0);
    await fanOutPendingEvents(database.db);
    const archived = (await notificationsOf(database.db, follower)).filter((n) => n.content.kind === "market_archived");
    expect(archived).toHaveLength(1);
    expect(archived[0]?.content.marketName).toBe("Archived <soon>");
  });
});

describe("the weekly summary", () => {
  // Sent Monday 2026-06-15 08:00 UTC (ISO week 2026-W25), covering 2026-06-08 08:00 – 06-15 08:00.
  const slot = slotOfWeek("2026-W25", UTC_MONDAY_8);
  let weekly: string;
  let quiet: string;
  let silent: string;

  beforeAll(async () => {
    weekly = await person("weekly@example.com", "XA");
    quiet = await person("quiet@example.com", "XA");
    silent = await person("silent@example.com", "XA");
    await followMarket(database.db, weekly, MARKET);
    await updatePreferences(database.db, weekly, { weeklySummary: true });
    await updatePreferences(database.db, quiet, { weeklySummary: true, weeklyQuietNote: true });
    await updatePreferences(database.db, silent, { weeklySummary: true });
    // In the week: Charlie's offering now satisfies EU data residency, XA's one control, and it
    // runs in more regions; then Delta enters. The release after the slot is next week's.
    const charlieChanged = (m: Record<string, any>) => {
      m.products[1].offerings[0].values.bench = 70;
      m.products[2].offerings[0].satisfies = ["eu-data-residency"];
      m.products[2].offerings[0].values.regions = 40;
    };
    await publish(variant("r3", charlieChanged), "2026-06-10T12:00:00Z");
    await publish(
      variant("r4", (m) => {
        charlieChanged(m);
        m.products.push({ ...structuredClone(m.products[0]), productId: "delta", name: "Delta" });
      }),
      "2026-06-15T07:59:00Z",
    );
    await publish(
      variant("r5", () => {}),
      "2026-06-15T08:00:00Z",
    );
  });

  it("covers the week's releases, movers per axis and availability under the home country", async () => {
    expect(slot.at.toISOString()).toBe("2026-06-15T08:00:00.000Z");
    const summaries = await weeklySummaries(database.db, slot);
    const mine = summaries.find((s) => s.userId === weekly)?.content as WeeklyContent;
    expect(mine.country).toBe("XA");
    expect(mine.markets.map((m) => m.marketId)).toEqual([MARKET]);
    const [market] = mine.markets as [WeeklyContent["markets"][number]];
    expect(market.releases.map((r) => r.release)).toEqual([3, 4]);
    expect(market.compared).toEqual({ from: 2, to: 4 });
    expect(market.productsEntered).toEqual(["Delta"]);
    // Charlie could not be used under XA before (no offering satisfied its control); now it can.
    expect(market.availability).toContainEqual({
      product: "Charlie",
      change: "became_available",
      offeringFrom: null,
      offeringTo: "public",
    });
    expect(market.movers.some((m) => m.product === "Charlie" && m.axis === "scale" && m.change > 0)).toBe(true);
    for (const axis of AXES) expect(market.movers.filter((m) => m.axis === axis).length).toBeLessThanOrEqual(3);
  });

  it("sends each opted-in person one e-mail per week; a quiet week only the note, to those who asked", async () => {
    const summaries = await weeklySummaries(database.db, slot);
    expect(
      summariesToSend(summaries)
        .map((s) => s.recipient)
        .sort(),
    ).toEqual(["quiet@example.com", "weekly@example.com"]);
    const first = await queueWeeklySummaries(database.db, slot);
    const again = await queueWeeklySummaries(database.db, slot);
    expect(first).toHaveLength(2);
    expect(again).toEqual([]);
    expect(
      await count(sql`select count(*)::int as n from mail_deliveries where user_id = ${silent} and kind = 'weekly'`),
    ).toBe(0);
  });

  it("prints what the dry run would send and writes nothing", async () => {
    const tables = sql`select
      (select count(*) from mail_deliveries)::int + 1000 * (select count(*) from mail_outbox)::int
      + 1000000 * (select count(*) from notifications)::int as n`;
    const before = await count(tables);
    const printed = await runOps(database, ["notifications", "weekly", "--dry-run", "--week", "2026-W25"]);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toContain("Weekly summary 2026-W25");
    expect(printed.stdout).toContain("To: weekly@example.com");
    expect(printed.stdout).toContain("To: quiet@example.com");
    expect(printed.stdout).not.toContain("To: silent@example.com");
    expect(printed.stdout).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(printed.stdout).toContain("Nothing changed in the markets you follow");
    expect(await count(tables)).toBe(before);
    const json = await runOps(database, ["notifications", "weekly", "--dry-run", "--week", "2026-W25", "--json"]);
    expect(JSON.parse(json.stdout).mails).toHaveLength(2);
    expect((await runOps(database, ["notifications", "weekly", "--week", "2026-W25"])).code).toBe(2);
    expect((await runOps(database, ["notifications", "weekly", "--dry-run", "--week", "2026-W54"])).code).toBe(2);
  });
});
