import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { statementSql } from "@/db/rows";

const rendered = (text: string, params: unknown[]) => new PgDialect().sqlToQuery(statementSql(text, params));

describe("statementSql: a numbered statement as drizzle's SQL (db/rows.ts)", () => {
  it("binds each $n to its parameter, in the order they appear, repeats and two digits included", () => {
    const params = Array.from({ length: 11 }, (_, i) => `p${i + 1}`);
    const query = rendered("select $11::text, $1, $2::jsonb, $1 from f($10)", params);
    expect(query.sql).toBe("select $1::text, $2, $3::jsonb, $4 from f($5)");
    expect(query.params).toEqual(["p11", "p1", "p2", "p1", "p10"]);
  });

  it("keeps the debit's statement as written", () => {
    const text = "select position, debited, balance, mails, top_up from debit_batch($1::jsonb, $2::integer)";
    const query = rendered(text, ['[{"cost":5}]', 250]);
    expect(query.sql).toBe(text);
    expect(query.params).toEqual(['[{"cost":5}]', 250]);
  });

  it("refuses a $n with no parameter rather than binding nothing", () => {
    expect(() => statementSql("select $3", [1, 2])).toThrow(RangeError);
    expect(() => statementSql("select $0", [1])).toThrow(RangeError);
  });
});
