/**
 * The low-balance warning on a real database (PGlite here, PostgreSQL under TEST_DATABASE_URL):
 * the threshold's column and its range, the e-mail a crossing debit owes (once per crossing, in the
 * debit's own statement, exactly once under concurrent debits from two "instances"), the mail as
 * sent (a hostile organization name escaped), and the dashboard procedures that read and set it.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { queryRows } from "@/db/rows";
import { LOW_BALANCE_THRESHOLD_DEFAULT } from "@/server/1-domain/low-balance";
import { describeError } from "@/server/1-errors/describe";
import { changeCredits, creditBalance, debitCredits, onMailsOwed } from "@/server/4-credits/credits";
import { createOrganization } from "@/server/4-organizations/organizations";
import { sendDelivery } from "@/server/8-jobs/fan-out";
import { addPerson } from "../helpers/accounts";
import { dashboardCallerAs, testDatabase, testDatabaseKind } from "../helpers/database";

const database = testDatabase({ seeded: true });
/** A second connection pool to the same database: another app instance (PostgreSQL only). */
let other: DatabaseHandle | null = null;
beforeAll(async () => {
  if (testDatabaseKind === "postgres" && database.url)
    other = await openDatabase({ kind: "postgres", url: database.url });
});
afterAll(async () => {
  await other?.close();
});

let users = 0;
async function newUser(): Promise<{ id: string; email: string }> {
  users += 1;
  return addPerson(database.db, { email: `owner${users}@example.com` });
}

/** An organization with `credits`, owned by a new person (and `extraOwners` more), at `threshold`. */
async function organization(credits: number, threshold: number | null, name = "Low Co", extraOwners = 0) {
  const owner = await newUser();
  const org = await createOrganization(database.db, { name, homeCountry: "DE", credits, ownerUserId: owner.id });
  for (let i = 0; i < extraOwners; i++) {
    const more = await newUser();
    await queryRows(
      database.db,
      sql`insert into memberships (organization_id, user_id, role) values (${org.id}, ${more.id}, 'owner')`,
    );
  }
  if (threshold !== null)
    await queryRows(
      database.db,
      sql`update organizations set low_balance_threshold = ${threshold} where id = ${org.id}`,
    );
  return { id: org.id, owner };
}

let requests = 0;
const debit = (organizationId: string, cost: number, db = database.db) =>
  debitCredits(db, {
    organizationId,
    cost,
    operation: "readings.snapshot",
    tokenId: null,
    requestId: `r${requests++}`,
  });

async function owed(organizationId: string) {
  return queryRows<{ id: number; user_id: string; dedupe_key: string; recipient: string; content: unknown }>(
    database.db,
    sql`select id, user_id, dedupe_key, recipient, content from mail_deliveries
        where kind = 'low_balance' and content->>'organizationId' = ${organizationId} order by id`,
  );
}

describe("the threshold", () => {
  it("defaults to 100 for every organization, and the table refuses one out of range", async () => {
    const { id } = await organization(500, null);
    const [row] = await queryRows<{ t: number }>(
      database.db,
      sql`select low_balance_threshold as t from organizations where id = ${id}`,
    );
    expect(Number(row?.t)).toBe(LOW_BALANCE_THRESHOLD_DEFAULT);
    for (const bad of [-1, 1_000_000_001])
      await expect(
        queryRows(database.db, sql`update organizations set low_balance_threshold = ${bad} where id = ${id}`),
      ).rejects.toThrow();
  });
});

describe("the e-mail a crossing debit owes", () => {
  it("is written once per owner by the debit that goes from above the threshold to at or below it", async () => {
    const { id, owner } = await organization(120, 100, "Crossing", 1);
    expect((await debit(id, 10)).balance).toBe(110); // above: nothing
    expect(await owed(id)).toHaveLength(0);
    expect((await debit(id, 10)).balance).toBe(100); // at the threshold: crossed
    const mails = await owed(id);
    expect(mails).toHaveLength(2);
    expect(new Set(mails.map((m) => m.dedupe_key)).size).toBe(1);
    expect(mails.map((m) => m.recipient)).toContain(owner.email);
    expect(mails[0]?.content).toMatchObject({
      kind: "low_balance",
      organizationId: id,
      organizationName: "Crossing",
      balance: 100,
      threshold: 100,
    });
    await debit(id, 10); // below already: no new crossing
    await debit(id, 50);
    expect(await owed(id)).toHaveLength(2);
  });

  it("goes to billing members as to owners, and to no admin or member", async () => {
    const { id, owner } = await organization(120, 100, "Billed");
    const roles = { billing: await newUser(), admin: await newUser(), member: await newUser() };
    for (const [role, person] of Object.entries(roles))
      await queryRows(
        database.db,
        sql`insert into memberships (organization_id, user_id, role) values (${id}, ${person.id}, ${role}::membership_role)`,
      );
    await debit(id, 20);
    expect((await owed(id)).map((m) => m.recipient).sort()).toEqual([owner.email, roles.billing.email].sort());
  });

  it("is owed again only after the balance went back above the threshold (re-armed by a top-up)", async () => {
    const { id } = await organization(105, 100, "Rearmed");
    await debit(id, 10); // 95: crossed
    expect(await owed(id)).toHaveLength(1);
    await changeCredits(database.db, { organizationId: id, kind: "grant", amount: 5 }); // 100: not above
    await debit(id, 1); // 99: no crossing
    expect(await owed(id)).toHaveLength(1);
    await changeCredits(database.db, { organizationId: id, kind: "grant", amount: 100 }); // 199: re-armed
    await debit(id, 150); // 49: crossed again
    const mails = await owed(id);
    expect(mails).toHaveLength(2);
    expect(new Set(mails.map((m) => m.dedupe_key)).size).toBe(2);
  });

  it("is never owed with the warning off (0), nor by a refused debit", async () => {
    const off = await organization(10, 0, "Off");
    await debit(off.id, 10);
    expect(await creditBalance(database.db, off.id)).toBe(0);
    expect(await owed(off.id)).toHaveLength(0);
    const short = await organization(150, 100, "Short");
    expect((await debit(short.id, 200)).ok).toBe(false);
    expect(await owed(short.id)).toHaveLength(0);
  });

  it("is owed exactly once when many concurrent debits, from two instances, cross together", async () => {
    const { id } = await organization(300, 100, "Concurrent", 2);
    const heard: number[] = [];
    const stop = onMailsOwed((ids) => heard.push(...ids));
    const pools = [database.db, other?.db ?? database.db];
    // 80 debits of 5 = 400 > 300: the balance runs out, and crosses 100 on the way, exactly once.
    const results = [];
    for (let wave = 0; wave < 4; wave++)
      results.push(...(await Promise.all(Array.from({ length: 20 }, (_, i) => debit(id, 5, pools[(wave + i) % 2])))));
    stop();
    expect(results.filter((r) => r.ok)).toHaveLength(60);
    expect(await creditBalance(database.db, id)).toBe(0);
    const mails = await owed(id);
    expect(mails).toHaveLength(3); // one per owner
    expect(new Set(mails.map((m) => m.dedupe_key)).size).toBe(1);
    expect(mails[0]?.content).toMatchObject({ balance: 100 });
    // The instance that wrote them was told their ids, to queue them at once.
    expect(heard.sort((a, b) => a - b)).toEqual(mails.map((m) => m.id));
  });

  it("judges one batch's calls in order: each against the balance the ones before left, rows in call order", async () => {
    const { id } = await organization(130, 100);
    const call = (cost: number, n: number, organizationId = id) => ({
      organizationId,
      cost,
      operation: "readings.snapshot",
      tokenId: null,
      requestId: `batch-${n}`,
    });
    // 130 → 120 → 100 (crossed) → 60 → refused (80 > 60) → 0 → refused (no such organization) → refused (0 < 1).
    const calls = [
      call(10, 1),
      call(20, 2),
      call(40, 3),
      call(80, 4),
      call(60, 5),
      call(5, 6, "org_missing"),
      call(1, 7),
    ];
    const rows = await queryRows<{ position: number; debited: boolean; balance: number | null; mails: number[] }>(
      database.db,
      sql`select position, debited, balance, mails from debit_batch(${JSON.stringify(calls)}::jsonb, 0)`,
    );
    expect(rows.map((r) => [Number(r.position), r.debited, r.balance === null ? null : Number(r.balance)])).toEqual([
      [1, true, 120],
      [2, true, 100],
      [3, true, 60],
      [4, false, 60],
      [5, true, 0],
      [6, false, null],
      [7, false, 0],
    ]);
    expect(await creditBalance(database.db, id)).toBe(0);
    const ledger = await queryRows<{ id: number; amount: number; balance_after: number; request_id: string }>(
      database.db,
      sql`select id, amount, balance_after, request_id from credit_ledger where organization_id = ${id} and kind = 'debit' order by id`,
    );
    expect(ledger.map((r) => [r.request_id, Number(r.amount), Number(r.balance_after)])).toEqual([
      ["batch-1", -10, 120],
      ["batch-2", -20, 100],
      ["batch-3", -40, 60],
      ["batch-5", -60, 0],
    ]);
    // The crossing (call 2, to the threshold of 100) owes its mail, named by its own ledger row.
    const crossing = ledger[1] as { id: number };
    expect(rows[1]?.mails).toHaveLength(1);
    const [mail] = await queryRows<{ dedupe_key: string }>(
      database.db,
      sql`select dedupe_key from mail_deliveries where id = ${Number(rows[1]?.mails[0])}`,
    );
    expect(mail?.dedupe_key).toBe(`low-balance:${id}:${crossing.id}`);
    for (const row of [rows[0], ...rows.slice(2)]) expect(row?.mails).toEqual([]);
  });

  it("goes out through the dev outbox with the organization's hostile name escaped", async () => {
    const hostile = `<img src=x onerror=alert(1)> & "Co"`;
    const { id, owner } = await organization(101, 100, hostile);
    await debit(id, 1);
    const [mail] = await owed(id);
    expect(mail).toBeDefined();
    expect(await sendDelivery(database.db, mail?.id ?? 0)).toBe("sent");
    expect(await sendDelivery(database.db, mail?.id ?? 0)).toBe("skipped"); // once
    const [sent] = await queryRows<{ recipient: string; subject: string; body: string; html: string }>(
      database.db,
      sql`select recipient, subject, body, html from mail_outbox where recipient = ${owner.email} order by id desc limit 1`,
    );
    expect(sent?.subject).toContain("low balance, 100 credits left");
    expect(sent?.body).toContain(hostile); // the plain-text part says it as written
    expect(sent?.html).not.toContain("<img");
    expect(sent?.html).toContain("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;");
    expect(sent?.html).toContain("/credits");
  });
});

describe("the dashboard procedures", () => {
  const dashboardAs = (userId: string) => dashboardCallerAs(database.db, userId);

  async function failure(promise: Promise<unknown>) {
    try {
      await promise;
    } catch (error) {
      return describeError(error);
    }
    throw new Error("the call succeeded");
  }

  const threshold = async (id: string) =>
    Number(
      (
        await queryRows<{ t: number }>(
          database.db,
          sql`select low_balance_threshold as t from organizations where id = ${id}`,
        )
      )[0]?.t,
    );

  it("reads and sets the active organization's threshold, and says when the balance is low", async () => {
    const { id, owner } = await organization(40, null, "Reader");
    const api = await dashboardAs(owner.id);
    expect(await api.credits.lowBalance()).toEqual({ threshold: 100, balance: 40, low: true, canChange: true });
    expect(await api.credits.setLowBalanceThreshold({ threshold: 0 })).toMatchObject({ threshold: 0, low: false });
    expect(await threshold(id)).toBe(0);
    expect(await api.credits.setLowBalanceThreshold({ threshold: 40 })).toMatchObject({ threshold: 40, low: true });
    expect(await api.credits.setLowBalanceThreshold({ threshold: 1_000_000_000 })).toMatchObject({ low: true });
  });

  it("refuses hostile values with invalid_request on `threshold`, and changes nothing", async () => {
    const { id, owner } = await organization(40, 70, "Hostile values");
    const api = await dashboardAs(owner.id);
    const hostile: unknown[] = [-1, 1.5, 1_000_000_001, 1e300, "100", "", null, true, [], {}, Number.NaN, Infinity];
    for (const value of hostile) {
      const problem = await failure(api.credits.setLowBalanceThreshold({ threshold: value } as never));
      expect(problem.code, String(value)).toBe("invalid_request");
      expect([...new Set(problem.issues?.map((issue) => issue.path))]).toEqual(["threshold"]);
    }
    expect((await failure(api.credits.setLowBalanceThreshold({} as never))).code).toBe("invalid_request");
    expect(await threshold(id)).toBe(70);
  });

  it("can never touch another organization: an organization id in the input is refused", async () => {
    const mine = await organization(40, 70, "Mine");
    const theirs = await organization(40, 70, "Theirs");
    const api = await dashboardAs(mine.owner.id);
    const problem = await failure(
      api.credits.setLowBalanceThreshold({ threshold: 5, organizationId: theirs.id } as never),
    );
    expect(problem.code).toBe("invalid_request");
    await api.credits.setLowBalanceThreshold({ threshold: 5 });
    expect([await threshold(mine.id), await threshold(theirs.id)]).toEqual([5, 70]);
  });

  it("refuses a member both, and lets billing read and change it (the roles table)", async () => {
    const { id } = await organization(40, 70, "Members");
    const member = await newUser();
    const billing = await newUser();
    await queryRows(
      database.db,
      sql`insert into memberships (organization_id, user_id, role) values (${id}, ${member.id}, 'member'), (${id}, ${billing.id}, 'billing')`,
    );
    const api = await dashboardAs(member.id);
    expect((await failure(api.credits.lowBalance())).code).toBe("forbidden");
    expect((await failure(api.credits.setLowBalanceThreshold({ threshold: 5 }))).code).toBe("forbidden");
    expect(await threshold(id)).toBe(70);
    const billed = await dashboardAs(billing.id);
    expect(await billed.credits.lowBalance()).toMatchObject({ threshold: 70, canChange: true });
    await billed.credits.setLowBalanceThreshold({ threshold: 5 });
    expect(await threshold(id)).toBe(5);
  });
});
