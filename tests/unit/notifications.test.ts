/**
 * The pure parts of following markets: the weekly schedule (slots in a time zone, ISO weeks,
 * daylight saving), and the e-mails rendered from stored content — hostile names escaped in HTML
 * and flattened in headers, links where they belong, quiet weeks as one line.
 */
import { describe, expect, it } from "vitest";
import type { NotificationContent, WeeklyContent } from "@/server/1-domain/notification-content";
import {
  headerText,
  notificationLines,
  renderNotificationMail,
  renderWeeklyMail,
} from "@/server/2-notifications/render";
import { isoWeekOf, latestSlot, slotOfWeek, weeklyCron, weeklyScheduleFromEnv } from "@/server/2-notifications/week";

const env = (values: Record<string, string>) => values as unknown as NodeJS.ProcessEnv;

describe("the weekly schedule", () => {
  it("defaults to Monday 08:00 UTC and checks what the operator sets", () => {
    expect(weeklyScheduleFromEnv(env({}))).toEqual({ day: 1, hour: 8, timeZone: "UTC" });
    expect(
      weeklyScheduleFromEnv(
        env({ WEEKLY_SUMMARY_DAY: "fri", WEEKLY_SUMMARY_HOUR: "17", WEEKLY_SUMMARY_TIME_ZONE: "Europe/Paris" }),
      ),
    ).toEqual({ day: 5, hour: 17, timeZone: "Europe/Paris" });
    expect(weeklyScheduleFromEnv(env({ WEEKLY_SUMMARY_DAY: "7" })).day).toBe(7);
    expect(() => weeklyScheduleFromEnv(env({ WEEKLY_SUMMARY_DAY: "someday" }))).toThrow(/WEEKLY_SUMMARY_DAY/);
    expect(() => weeklyScheduleFromEnv(env({ WEEKLY_SUMMARY_HOUR: "24" }))).toThrow(/WEEKLY_SUMMARY_HOUR/);
    expect(() => weeklyScheduleFromEnv(env({ WEEKLY_SUMMARY_TIME_ZONE: "Mars/Olympus" }))).toThrow(/TIME_ZONE/);
  });

  it("writes cron with Sunday as 0", () => {
    expect(weeklyCron({ day: 1, hour: 8, timeZone: "UTC" })).toBe("0 8 * * 1");
    expect(weeklyCron({ day: 7, hour: 23, timeZone: "UTC" })).toBe("0 23 * * 0");
  });

  it("names ISO weeks, including those that straddle a new year", () => {
    expect(isoWeekOf({ year: 2026, month: 11, day: 23 })).toBe("2026-W48");
    expect(isoWeekOf({ year: 2027, month: 1, day: 1 })).toBe("2026-W53"); // a Friday: 2026 has 53 weeks
    expect(isoWeekOf({ year: 2024, month: 12, day: 30 })).toBe("2025-W01");
  });

  it("finds the latest slot at or before now, and the seven days it covers", () => {
    const utc = { day: 1, hour: 8, timeZone: "UTC" };
    // Monday 2026-11-23 07:59 UTC: still last week's slot.
    expect(latestSlot(new Date("2026-11-23T07:59:00Z"), utc).at.toISOString()).toBe("2026-11-16T08:00:00.000Z");
    const slot = latestSlot(new Date("2026-11-23T08:00:00Z"), utc);
    expect(slot.at.toISOString()).toBe("2026-11-23T08:00:00.000Z");
    expect(slot.periodStart.toISOString()).toBe("2026-11-16T08:00:00.000Z");
    expect(slot.week).toBe("2026-W48");
  });

  it("keeps local time across daylight saving: a Paris 08:00 slot is 07:00 UTC in winter, 06:00 in summer", () => {
    const paris = { day: 1, hour: 8, timeZone: "Europe/Paris" };
    // DST ends on Sunday 2026-10-25: the week before Monday 10-26 has 169 hours.
    const slot = slotOfWeek("2026-W44", paris);
    expect(slot.at.toISOString()).toBe("2026-10-26T07:00:00.000Z");
    expect(slot.periodStart.toISOString()).toBe("2026-10-19T06:00:00.000Z");
    expect(latestSlot(new Date("2026-10-26T07:30:00Z"), paris).at.toISOString()).toBe("2026-10-26T07:00:00.000Z");
  });

  it("finds a week's slot on another day and refuses weeks that do not exist", () => {
    expect(slotOfWeek("2026-W48", { day: 5, hour: 17, timeZone: "UTC" }).at.toISOString()).toBe(
      "2026-11-27T17:00:00.000Z",
    );
    expect(slotOfWeek("2026-W53", { day: 1, hour: 8, timeZone: "UTC" }).at.toISOString()).toBe(
      "2026-12-28T08:00:00.000Z",
    );
    expect(() => slotOfWeek("2025-W53", { day: 1, hour: 8, timeZone: "UTC" })).toThrow(/not a week/);
    expect(() => slotOfWeek("2026-48", { day: 1, hour: 8, timeZone: "UTC" })).toThrow(/YYYY-Www/);
  });
});

const HOSTILE = `<img src=x onerror=alert(1)>"Evil"\r\nBcc: victim@example.com`;

const release: NotificationContent = {
  kind: "release_published",
  marketId: "foundation-model-apis",
  marketName: HOSTILE,
  occurredAt: "2026-11-20T10:00:00.000Z",
  release: 3,
  comparedWith: 2,
  methodologyVersion: "2.0",
  methodologyChanged: true,
  material: true,
  notes: "<script>alert(2)</script>",
  productsEntered: ["<b>New</b>"],
  productsLeft: [],
  topMoves: [
    {
      product: "Quillmere Atlas",
      vendor: "Quillmere",
      axis: "innovation",
      from: 62.4,
      to: 59.3,
      change: -3.1,
      attribution: { ownValues: -0.2, field: -2.9, method: 0 },
    },
  ],
  bandMoves: [],
};
const links = { origin: "https://app.example.com", unsubscribe: "https://app.example.com/unsubscribe?token=a&b" };

describe("notification e-mails", () => {
  it("escape every name in HTML and keep the subject on one line", () => {
    const mail = renderNotificationMail(release, links);
    expect(mail.html).not.toMatch(/<img|<script|<b>/);
    expect(mail.html).toContain("&lt;img src=x onerror=alert(1)&gt;&quot;Evil&quot;");
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject).toBe(
      '<img src=x onerror=alert(1)>"Evil" Bcc: victim@example.com: release 3 (material methodology change)',
    );
    expect(mail.html).toContain('href="https://app.example.com/unsubscribe?token=a&amp;b"');
  });

  it("say the release, the material change and the top moves with their causes, and link to the comparison", () => {
    const mail = renderNotificationMail(release, links);
    expect(mail.text).toContain("The methodology changed materially (version 2.0).");
    expect(mail.text).toContain(
      "Quillmere Atlas: -3.1 Innovation (62.4 → 59.3), of which -0.2 from its own values, -2.9 because the field moved.",
    );
    expect(mail.text).toContain(
      "What changed: https://app.example.com/markets/foundation-model-apis/changes?from=2&to=3#changes",
    );
    expect(mail.text).toContain("Unsubscribe: https://app.example.com/unsubscribe?token=a&b");
  });

  it("say an archiving plainly", () => {
    const archived = { ...release, kind: "market_archived" as const, comparedWith: null, topMoves: [] };
    expect(notificationLines(archived).headline).toMatch(/was archived: it is no longer listed/);
    expect(renderNotificationMail(archived, links).text).not.toContain("What changed:");
  });

  it("flatten control characters and bound the length of header text", () => {
    expect(headerText("a\u0000b\u2028c\u0085d\te")).toBe("a b c d e");
    expect(headerText("x".repeat(300))).toHaveLength(120);
  });
});

describe("the weekly summary e-mail", () => {
  const week: WeeklyContent = {
    week: "2026-W48",
    periodStart: "2026-11-16T08:00:00.000Z",
    periodEnd: "2026-11-23T08:00:00.000Z",
    country: "FR",
    markets: [],
  };

  it("is one line in a quiet week", () => {
    const mail = renderWeeklyMail(week, links);
    expect(mail.subject).toBe("Your weekly summary (2026-W48): nothing new");
    expect(mail.text.split("\n")[0]).toBe(
      "Nothing changed in the markets you follow this week (2026-11-16 08:00 – 2026-11-23 08:00 UTC).",
    );
  });

  it("lists each market's releases, movers per axis and availability under the home country", () => {
    const mail = renderWeeklyMail(
      {
        ...week,
        markets: [
          {
            marketId: "m",
            marketName: HOSTILE,
            releases: [
              { release: 4, publishedAt: "2026-11-18T09:00:00.000Z", material: false, methodologyVersion: "2.0" },
            ],
            archived: false,
            compared: { from: 3, to: 4 },
            movers: release.topMoves,
            bandMoves: [{ product: "Quillmere Atlas", axis: "innovation", from: "Frontier", to: "Advanced" }],
            availability: [{ product: "Fennwick", change: "became_unavailable", offeringFrom: "eu", offeringTo: null }],
            productsEntered: [],
            productsLeft: [],
          },
        ],
      },
      links,
    );
    expect(mail.subject).toBe("Your weekly summary (2026-W48): 1 market changed");
    expect(mail.text).toContain("Release 4 published 2026-11-18, methodology 2.0.");
    expect(mail.text).toContain("Biggest movers, Innovation: Quillmere Atlas: -3.1 Innovation");
    expect(mail.text).toContain("Quillmere Atlas: Innovation band Frontier → Advanced.");
    expect(mail.text).toContain("Fennwick became unavailable under FR.");
    expect(mail.html).not.toContain("<img");
    expect(mail.html).toContain('href="https://app.example.com/markets/m?country=FR"');
  });
});
