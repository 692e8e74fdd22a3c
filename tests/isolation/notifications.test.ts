/**
 * Following a market with two app instances on one PostgreSQL (a private server) and a real SMTP
 * server that fails, then recovers. A release published by the CLI reaches every follower exactly
 * once — one in-app notification, and one e-mail for those who chose it — though both instances
 * hear of it, the mail server refuses for a while, and an instance is stopped mid-way and another
 * started.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { queryRows } from "@/db/rows";
import { users } from "@/db/schema";
import { followMarket, updatePreferences } from "@/server/4-following/following";
import { demoCatalogueWithOrganization } from "../helpers/accounts";
import { runOps } from "../helpers/cli";
import { createPgCluster, type PgCluster } from "../helpers/pg-cluster";
import { type RunningApp, startApp, startInstances } from "../helpers/server";
import { type SmtpSink, startSmtpSink } from "../helpers/smtp-sink";

const MARKET = "foundation-model-apis";
const DEMO = path.resolve(import.meta.dirname, "../../db/demo/markets/foundation-model-apis.r3.yaml");

const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 120_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
};

describe("a release of a followed market, two instances, a failing mail server", () => {
  let cluster: PgCluster;
  let handle: DatabaseHandle;
  let sink: SmtpSink;
  let apps: RunningApp[] = [];
  let env: Record<string, string>;
  const emailers: string[] = [];
  const readers: string[] = [];

  beforeAll(async () => {
    cluster = await createPgCluster();
    handle = await openDatabase({ kind: "postgres", url: cluster.url });
    await demoCatalogueWithOrganization(handle, "Followers", 1000);
    for (let i = 0; i < 6; i++) {
      const email = `follower-${i}@example.com`;
      const [user] = await handle.db.insert(users).values({ email, emailVerified: new Date() }).returning();
      const id = (user as { id: string }).id;
      await followMarket(handle.db, id, MARKET);
      // Half want e-mail too; everyone gets the in-app notification.
      if (i % 2 === 0) {
        await updatePreferences(handle.db, id, { releaseEmails: true });
        emailers.push(email);
      } else readers.push(id);
    }
    sink = await startSmtpSink();
    sink.failing = true;
    env = {
      DATABASE_URL: cluster.url,
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY_SECONDS: "1",
      THROTTLE_KEY_PREFIX: `mps:notifications:${cluster.port}`,
    };
    apps = await startInstances(2, env);
  }, 400_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await sink?.close();
    await handle?.close();
    cluster?.destroy();
  });

  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(handle.db, query);

  it("notifies every follower once and e-mails those who chose it once, after the mail server recovers", async () => {
    // Release 4: the last product leaves.
    const definition = parse(readFileSync(DEMO, "utf8"));
    const leaving = definition.products.pop().name as string;
    const file = path.join(mkdtempSync(path.join(tmpdir(), "mps-notify-")), "r4.yaml");
    writeFileSync(file, stringify(definition));
    const published = await runOps(handle, ["catalog", "publish", file, "--notes", "One product left."], new Date());
    expect(published.code, published.stderr).toBe(0);

    // Both instances heard the publish (NOTIFY); the in-app notifications are written once.
    await until("every follower has a notification", async () => {
      const [row] = await rows<{ n: number }>(sql`select count(*)::int as n from notifications`);
      return row?.n === 6;
    });
    const perUser = await rows<{ user_id: string; n: number; content: { release: number; productsLeft: string[] } }>(
      sql`select user_id, count(*)::int as n, min(content::text)::jsonb as content from notifications group by user_id`,
    );
    expect(perUser).toHaveLength(6);
    for (const row of perUser) {
      expect(row.n).toBe(1);
      expect(row.content.release).toBe(4);
      expect(row.content.productsLeft).toEqual([leaving]);
    }

    // The mail server refuses: every e-mail owed is tried, and retried.
    await until("each e-mail was refused at least once", async () => {
      const owed = await rows<{ attempts: number; last_error: string | null }>(
        sql`select attempts, last_error from mail_deliveries`,
      );
      return owed.length === emailers.length && owed.every((d) => d.attempts >= 1 && d.last_error);
    });
    expect(sink.messages).toEqual([]);

    // One instance stops mid-way (its retries wait in the queue) and a new one starts.
    await apps[0]?.stop();
    apps = [apps[1] as RunningApp, await startApp(env)];
    sink.failing = false;

    await until(
      "every e-mail was delivered",
      async () => {
        const [row] = await rows<{ n: number }>(
          sql`select count(*)::int as n from mail_deliveries where sent_at is null`,
        );
        return row?.n === 0;
      },
      180_000,
    );
    // Give a duplicate every chance to show up.
    await new Promise((r) => setTimeout(r, 5000));
    expect(sink.refused).toBeGreaterThanOrEqual(emailers.length);
    expect(sink.messages.flatMap((m) => m.to).sort()).toEqual([...emailers].sort());
    const ids = sink.messages.map((m) => m.headers.get("message-id"));
    expect(new Set(ids).size).toBe(emailers.length);
    for (const message of sink.messages) {
      expect(message.headers.get("subject")).toBe("Foundation-model APIs: release 4");
      expect(message.headers.get("list-unsubscribe")).toMatch(/^<http:\/\/localhost:\d+\/unsubscribe\?token=[\w.-]+>$/);
      expect(message.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    }
    // Those who did not choose e-mail got none.
    const [mailed] = await rows<{ n: number }>(
      sql`select count(*)::int as n from mail_deliveries where user_id in ${sql.raw(`(${readers.map((r) => `'${r}'`).join(",")})`)}`,
    );
    expect(mailed?.n).toBe(0);
  });
});
