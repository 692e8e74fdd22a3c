/**
 * Identical reads asked in one turn share one statement (db/shared-read.ts), and sharing never
 * hides a write: a read asked after a debit finished sees it, even while a load for the same key
 * asked before the debit is still running. Against a real database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL); statements are counted by wrapping the load, so a change that stops sharing
 * fails the first test and one that joins a load already running fails the second.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sharedRead } from "@/db/shared-read";
import { debitCredits, ledgerPage } from "@/server/4-credits/credits";
import { listMembers } from "@/server/4-organizations/members";
import { organizationAccount } from "@/server/4-organizations/organization-account";
import { createOrganization } from "@/server/4-organizations/organizations";
import { testDatabase } from "../helpers/database";

const database = testDatabase({ seeded: true });

describe("sharedRead", () => {
  it("runs one load for the same key asked in one turn, and one per key", async () => {
    let loads = 0;
    const load = (value: string) => async () => {
      loads += 1;
      return value;
    };
    const answers = await Promise.all([
      sharedRead(database.db, "a", load("A")),
      sharedRead(database.db, "a", load("not used")),
      sharedRead(database.db, "b", load("B")),
      sharedRead(database.db, "a", load("not used")),
    ]);
    expect(answers).toEqual(["A", "A", "B", "A"]);
    expect(loads).toBe(2);
  });

  it("gives every waiter of a failed load its error, and the next turn loads again", async () => {
    const failing = Promise.all([
      sharedRead(database.db, "failing", async () => Promise.reject(new Error("down"))),
      sharedRead(database.db, "failing", async () => "not used"),
    ]);
    await expect(failing).rejects.toThrow("down");
    expect(await sharedRead(database.db, "failing", async () => "up")).toBe("up");
  });

  it("never gives a read asked after a debit an answer loaded before it", async () => {
    const { id } = await createOrganization(database.db, { name: "Shared", homeCountry: "DE", credits: 100 });
    const early = ledgerPage(database.db, id, { limit: 10 });
    await new Promise((resolve) => setImmediate(resolve)); // the early load is under way
    const debit = await debitCredits(database.db, {
      organizationId: id,
      cost: 7,
      operation: "t",
      tokenId: null,
      requestId: "r",
    });
    expect(debit.ok).toBe(true);
    const late = await ledgerPage(database.db, id, { limit: 10 });
    expect(late.entries.map((entry) => entry.amount)).toEqual([-7, 100]);
    expect((await early).entries.length).toBeGreaterThanOrEqual(1);
    expect((await organizationAccount(database.db, id))?.balance).toBe(93);
  });

  it("answers many identical organization reads in one turn with the same row", async () => {
    const { id } = await createOrganization(database.db, { name: "Many", homeCountry: "FR", credits: 5 });
    const rows = await Promise.all(Array.from({ length: 50 }, () => organizationAccount(database.db, id)));
    expect(new Set(rows).size).toBe(1);
    expect(rows[0]?.name).toBe("Many");
  });

  it("reads the organization's members in the same statement, as the members list orders them", async () => {
    const users = ["usr_shared_b", "usr_shared_a"];
    for (const id of users)
      await database.db.execute(
        sql`insert into users (id, email, name) values (${id}, ${`${id}@example.com`}, ${`<b>${id}</b>`})`,
      );
    const { id } = await createOrganization(database.db, {
      name: "Members",
      homeCountry: "DE",
      credits: 0,
      ownerUserId: "usr_shared_b",
    });
    await database.db.execute(
      sql`insert into memberships (organization_id, user_id, role) values (${id}, 'usr_shared_a', 'member')`,
    );
    const account = await organizationAccount(database.db, id);
    expect(account?.members).toEqual(
      (await listMembers(database.db, id)).map((m) => ({ ...m, joinedAt: expect.any(Date) })),
    );
    expect(account?.members.map((m) => [m.userId, m.role, m.name])).toEqual([
      ["usr_shared_b", "owner", "<b>usr_shared_b</b>"],
      ["usr_shared_a", "member", "<b>usr_shared_a</b>"],
    ]);
    const listed = await listMembers(database.db, id);
    expect(account?.members.map((m) => m.joinedAt.getTime())).toEqual(listed.map((m) => m.joinedAt.getTime()));
  });
});
