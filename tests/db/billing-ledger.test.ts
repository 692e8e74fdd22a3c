/**
 * The ledger's billing kinds on a real database (PGlite here, PostgreSQL under TEST_DATABASE_URL):
 * purchase only adds, refund and dispute only take away (the table's CHECK), a refund may leave
 * the balance below zero, and a paid call on such a balance is refused (402) with nothing written,
 * while an operator's positive adjustment still lands.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/db/rows";
import { changeCredits, creditBalance, debitCredits } from "@/server/4-credits/credits";
import { createOrganization } from "@/server/4-organizations/organizations";
import { addPerson } from "../helpers/accounts";
import { testDatabase } from "../helpers/database";

const database = testDatabase({ seeded: true });

let count = 0;
async function organization(credits: number) {
  count += 1;
  const owner = await addPerson(database.db, { email: `bl${count}@example.com` });
  return createOrganization(database.db, {
    name: `Ledger ${count}`,
    homeCountry: "DE",
    credits,
    ownerUserId: owner.id,
  });
}

/** Writes a ledger row and moves the balance by `amount`, as billing does, with no floor. */
const move = (organizationId: string, kind: string, amount: number) =>
  queryRows(
    database.db,
    sql`with changed as (update organizations set credit_balance = credit_balance + ${amount} where id = ${organizationId}
          returning id, credit_balance)
        insert into credit_ledger (organization_id, kind, amount, balance_after)
        select id, ${kind}::ledger_kind, ${amount}, credit_balance from changed`,
  );

describe("the billing kinds of the ledger", () => {
  it("accept a purchase above zero and a refund or dispute below it, and refuse the wrong sign", async () => {
    const org = await organization(0);
    await move(org.id, "purchase", 1000);
    await move(org.id, "refund", -300);
    await move(org.id, "dispute", -200);
    expect(await creditBalance(database.db, org.id)).toBe(500);
    for (const [kind, amount] of [
      ["purchase", -1],
      ["refund", 1],
      ["dispute", 5],
    ] as const)
      await expect(move(org.id, kind, amount)).rejects.toThrow();
    expect(await creditBalance(database.db, org.id)).toBe(500);
  });
});

describe("a balance below zero", () => {
  it("is allowed after a refund; paid calls are refused with nothing written, as at zero", async () => {
    const org = await organization(100);
    await move(org.id, "refund", -250);
    expect(await creditBalance(database.db, org.id)).toBe(-150);
    const result = await debitCredits(database.db, {
      organizationId: org.id,
      cost: 1,
      operation: "readings.snapshot",
      tokenId: null,
      requestId: "neg-1",
    });
    expect(result).toEqual({ ok: false, balance: -150 });
    const [debits] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from credit_ledger where organization_id = ${org.id} and kind = 'debit'`,
    );
    expect(Number(debits?.n)).toBe(0);
  });

  it("takes an operator's positive adjustment, and still refuses a negative one", async () => {
    const org = await organization(10);
    await move(org.id, "dispute", -60);
    expect(await changeCredits(database.db, { organizationId: org.id, kind: "adjustment", amount: 20 })).toBe(-30);
    await expect(
      changeCredits(database.db, { organizationId: org.id, kind: "adjustment", amount: -1 }),
    ).rejects.toThrow(/below zero/);
    expect(await changeCredits(database.db, { organizationId: org.id, kind: "grant", amount: 100 })).toBe(70);
  });
});
