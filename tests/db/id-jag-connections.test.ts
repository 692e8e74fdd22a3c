/**
 * One MCP connection per person, client and organization through identity assertions (ID-JAG),
 * on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): twenty bindings at once —
 * through two connection pools on PostgreSQL, as two instances would — leave one connection and
 * one audit event, and every caller gets that connection's grant; migration 0022 turns the
 * duplicates the old read-then-write left into one (the newest live one stays, the others are
 * revoked with their tokens and audited), and leaves consent connections as they were.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type DatabaseHandle, openDatabase } from "@/db/client";
import { MIGRATIONS_FOLDER, migrateDatabase } from "@/db/migrate";
import { queryRows } from "@/db/rows";
import { bindConnection } from "@/server/4-organizations/connections";
import { testDatabase, testServerUrl } from "../helpers/database";

const WHERE = { clientAddress: "127.0.0.1", userAgent: "test" };

async function grant(db: Database, id: string, clientId: string, userId: string, expiresAt: Date | null = null) {
  await queryRows(
    db,
    sql`insert into oauth_records (model, id, payload, expires_at) values ('Grant', ${id}, ${JSON.stringify({ accountId: userId, clientId })}::jsonb, ${expiresAt?.toISOString() ?? null}::timestamptz)`,
  );
  await queryRows(
    db,
    sql`insert into oauth_records (model, id, payload, grant_id) values ('AccessToken', ${`at-${id}`}, '{}'::jsonb, ${id})`,
  );
}

/** A person owning an organization of their own. */
async function personIn(db: Database, name: string) {
  const [user] = await queryRows<{ id: string }>(
    db,
    sql`insert into users (id, email) values (${`usr_${name}`}, ${`${name}@example.com`}) returning id`,
  );
  // Written as rows, not through createOrganization: the migration test runs on a schema before
  // later migrations, which the ORM's inserts (naming every current column) would not fit.
  const organizationId = `org_${name}`;
  await queryRows(
    db,
    sql`insert into organizations (id, name, home_country) values (${organizationId}, ${name}, 'DE')`,
  );
  await queryRows(
    db,
    sql`insert into memberships (organization_id, user_id, role) values (${organizationId}, ${user?.id as string}, 'owner')`,
  );
  return { userId: user?.id as string, organizationId };
}

describe("twenty identity-assertion connections at once", () => {
  const database = testDatabase();
  let other: DatabaseHandle | null = null;
  beforeAll(async () => {
    if (database.url) other = await openDatabase({ kind: "postgres", url: database.url });
  });
  afterAll(async () => {
    await other?.close();
  });

  it("bind one connection, audited once, and answer its grant to every caller", async () => {
    const { userId, organizationId } = await personIn(database.db, "racer");
    const ids = Array.from({ length: 20 }, (_, i) => `grant-race-${i}`);
    for (const id of ids) await grant(database.db, id, "client-race", userId);
    const acting = await Promise.all(
      ids.map((grantId, i) =>
        bindConnection(
          i % 2 === 0 || !other ? database.db : other.db,
          userId,
          { grantId, clientId: "client-race", scopes: [] },
          WHERE,
          { organizationId, via: "id-jag", details: { via: "id-jag" } },
        ),
      ),
    );
    expect(new Set(acting).size).toBe(1);
    const bindings = await queryRows<{ grant_id: string }>(
      database.db,
      sql`select grant_id from connection_organizations where user_id = ${userId}`,
    );
    expect(bindings.map((b) => b.grant_id)).toEqual([acting[0]]);
    const events = await queryRows<{ target_id: string }>(
      database.db,
      sql`select target_id from audit_events where organization_id = ${organizationId} and action = 'connection.create'`,
    );
    expect(events.map((e) => e.target_id)).toEqual([acting[0]]);
    // The database refuses a second one however it is written.
    await expect(
      queryRows(
        database.db,
        sql`insert into connection_organizations (grant_id, organization_id, user_id, client_id, via) values ('grant-extra', ${organizationId}, ${userId}, 'client-race', 'id-jag')`,
      ),
    ).rejects.toThrow();
  });
});

/** A fresh database migrated up to, not including, migration 0022. */
async function databaseBefore0022(): Promise<{
  handle: DatabaseHandle;
  finish(): Promise<void>;
  drop(): Promise<void>;
}> {
  const folder = mkdtempSync(path.join(tmpdir(), "mps-migrations-"));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((entry) => entry.tag < "0022");
  writeFileSync(journalFile, JSON.stringify(journal));
  if (!testServerUrl) {
    const handle = await openDatabase({ kind: "pglite", dataDir: null });
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: folder });
    return {
      handle,
      finish: () => migrateDatabase(handle),
      drop: async () => {
        await handle.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const name = `mps_test_${Math.random().toString(16).slice(2, 14)}`;
  const admin = postgres(testServerUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(testServerUrl);
  url.pathname = `/${name}`;
  const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
  await migratePostgres(drizzlePostgres({ client }), { migrationsFolder: folder });
  await client.end();
  const handle = await openDatabase({ kind: "postgres", url: url.toString() });
  return {
    handle,
    finish: () => migrateDatabase(handle),
    drop: async () => {
      await handle.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

describe("migration 0022", () => {
  it("keeps the newest live ID-JAG connection of each person and client, revokes the others, and audits it", async () => {
    const before = await databaseBefore0022();
    try {
      const db = before.handle.db;
      const { userId, organizationId } = await personIn(db, "duplicated");
      const made = async (grantId: string, via: string | null, minutesAgo: number, expiresAt: Date | null = null) => {
        await grant(db, grantId, "client-dup", userId, expiresAt);
        await queryRows(
          db,
          sql`insert into connection_organizations (grant_id, organization_id, user_id, created_at) values (${grantId}, ${organizationId}, ${userId}, now() - ${`${minutesAgo} minutes`}::interval)`,
        );
        await queryRows(
          db,
          sql`insert into audit_events (organization_id, actor_kind, actor_user_id, action, target_type, target_id, details) values (${organizationId}, 'user', ${userId}, 'connection.create', 'connection', ${grantId}, ${JSON.stringify(via ? { clientId: "client-dup", via } : { clientId: "client-dup" })}::jsonb)`,
        );
      };
      await made("dup-old", "id-jag", 30);
      await made("dup-kept", "id-jag", 20);
      // The newest, but its grant has lapsed: a live one is kept before it.
      await made("dup-lapsed", "id-jag", 10, new Date(Date.now() - 60_000));
      await made("by-consent", null, 5);

      await before.finish();

      const bindings = await queryRows<{ grant_id: string; via: string; client_id: string }>(
        db,
        sql`select grant_id, via, client_id from connection_organizations where user_id = ${userId} order by grant_id`,
      );
      expect(bindings).toEqual([
        { grant_id: "by-consent", via: "consent", client_id: "client-dup" },
        { grant_id: "dup-kept", via: "id-jag", client_id: "client-dup" },
      ]);
      const records = await queryRows<{ id: string }>(
        db,
        sql`select id from oauth_records where id like '%dup-%' or id like '%by-consent' order by id`,
      );
      expect(records.map((r) => r.id)).toEqual(["at-by-consent", "at-dup-kept", "by-consent", "dup-kept"]);
      const revoked = await queryRows<{ target_id: string; actor_kind: string }>(
        db,
        sql`select target_id, actor_kind from audit_events where organization_id = ${organizationId} and action = 'connection.revoke' order by target_id`,
      );
      expect(revoked).toEqual([
        { target_id: "dup-lapsed", actor_kind: "system" },
        { target_id: "dup-old", actor_kind: "system" },
      ]);
    } finally {
      await before.drop();
    }
  });
});
