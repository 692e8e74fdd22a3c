/**
 * patches/postgres+3.4.9.patch, on a real PostgreSQL: a query that fails after some of its rows
 * arrived (an error mid-stream, or its connection killed mid-stream) must not hand its row count to
 * the next query on that connection. Unpatched, postgres.js resolves the next query with leading
 * holes (porsager/postgres#1119), so `const [row] = rows` reads undefined: the service once
 * answered 404 "No market" for a listed market while connections were being killed.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgCluster, type PgCluster } from "../helpers/pg-cluster";

describe("postgres.js after a query fails mid-stream", () => {
  let cluster: PgCluster;

  beforeAll(async () => {
    cluster = await createPgCluster();
  }, 120_000);

  afterAll(() => cluster?.destroy());

  /**
   * Five rows, read right after `fail` ran on the only connection. A read that meets the dying
   * connection may fail (the service answers 503 and the caller retries); it must never resolve
   * with rows missing. So read until one resolves, and return what the first that did held.
   */
  async function nextQueryAfter(sql: postgres.Sql, fail: () => Promise<unknown>) {
    await expect(fail()).rejects.toThrow();
    for (let attempt = 0; attempt < 3; attempt++) {
      const rows = await sql<{ x: number }[]>`select x from generate_series(1, 5) x`.catch(() => undefined);
      if (rows) return { length: rows.length, first: rows[0], holes: rows.length - Object.keys(rows).length };
    }
    throw new Error("no read succeeded after the failure");
  }

  it("an error after some rows leaves the next query's rows intact", async () => {
    const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
    try {
      // Enough rows to flush several before the division by zero at the end.
      const after = await nextQueryAfter(
        sql,
        () => sql`select i, 1 / (20000 - i) as boom from generate_series(1, 20000) i`,
      );
      expect(after).toEqual({ length: 5, first: { x: 1 }, holes: 0 });
    } finally {
      await sql.end();
    }
  });

  it("a connection killed after some rows leaves the reconnected connection's next query intact", async () => {
    const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
    try {
      // The backend terminates itself halfway through streaming its rows, as a killer would.
      const after = await nextQueryAfter(
        sql,
        () => sql`select i, case when i = 50000 then pg_terminate_backend(pg_backend_pid()) end as killed
                  from generate_series(1, 100000) i`,
      );
      expect(after).toEqual({ length: 5, first: { x: 1 }, holes: 0 });
    } finally {
      await sql.end();
    }
  });
});
