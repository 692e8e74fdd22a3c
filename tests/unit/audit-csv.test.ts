/**
 * The audit trail's CSV (server/4-organizations/audit.ts over server/2-formats/csv.ts) and the text it
 * keeps (server/1-domain/audit.ts): hostile text everywhere — formulas, quotes, commas, line breaks,
 * control characters — stays one quoted, neutralised cell.
 */
import { describe, expect, it } from "vitest";
import { AUDIT_ADDRESS_MAX, auditText, oneLine } from "@/server/1-domain/audit";
import { type AuditEvent, auditCsv } from "@/server/4-organizations/audit";

const event = (overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  id: 7,
  occurredAt: new Date("2026-05-04T09:30:00.000Z"),
  actorKind: "user",
  actorUserId: "usr_1",
  actorTokenId: null,
  actorLabel: "a@example.com",
  clientAddress: "203.0.113.7",
  userAgent: "Mozilla/5.0",
  action: "token.create",
  targetType: "token",
  targetId: "tok_1",
  details: { name: "ci" },
  ...overrides,
});

/** RFC 4180 fields of one CSV text, quotes undone (enough for these tests). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  return rows;
}

describe("the audit CSV", () => {
  it("has a header and one line per event, CRLF ends", () => {
    const csv = auditCsv([event(), event({ id: 6 })]);
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual([
      "id",
      "occurred_at",
      "actor_kind",
      "actor_user_id",
      "actor_token_id",
      "actor_label",
      "client_address",
      "user_agent",
      "action",
      "target_type",
      "target_id",
      "details",
    ]);
    expect(rows).toHaveLength(3);
    expect(rows[1]?.[0]).toBe("7");
    expect(rows[1]?.[1]).toBe("2026-05-04T09:30:00.000Z");
    expect(rows[1]?.[11]).toBe('{"name":"ci"}');
    expect(csv.endsWith("\r\n")).toBe(true);
  });

  it.each([
    ['=HYPERLINK("http://evil","x")'],
    ["+1+1"],
    ["-2+3"],
    ["@SUM(A1)"],
    ["\tleading tab"],
    ["\rleading CR"],
    ["  =after spaces"],
    ["＝full-width"],
  ])("neutralises %j wherever it is: label, user agent, details", (hostile) => {
    const csv = auditCsv([event({ actorLabel: hostile, userAgent: hostile, details: { name: hostile } })]);
    const row = parseCsv(csv)[1] ?? [];
    expect(row[5]).toBe(`'${hostile}`);
    expect(row[7]).toBe(`'${hostile}`);
    // The details cell starts with `{`: JSON is never a formula, and the text inside is escaped JSON.
    expect(row[11]?.startsWith("{")).toBe(true);
    expect(JSON.parse(row[11] ?? "")).toEqual({ name: hostile });
  });

  it("quotes commas, quotes and line breaks, so a cell never spills into the next", () => {
    const hostile = 'a,"b"\r\nc,d';
    const csv = auditCsv([event({ actorLabel: hostile, targetId: hostile })]);
    const rows = parseCsv(csv);
    expect(rows).toHaveLength(2);
    expect(rows[1]?.[5]).toBe(hostile);
    expect(rows[1]?.[10]).toBe(hostile);
    expect(rows[1]).toHaveLength(12);
  });

  it("writes empty cells for what an event lacks", () => {
    const row = parseCsv(
      auditCsv([event({ actorUserId: null, clientAddress: null, targetType: null, targetId: null, details: {} })]),
    )[1];
    expect(row?.[3]).toBe("");
    expect(row?.[6]).toBe("");
    expect(row?.[9]).toBe("");
    expect(row?.[11]).toBe("{}");
  });
});

describe("the text the trail keeps", () => {
  it("puts every control character on one line, cuts to length, and keeps nothing empty", () => {
    expect(oneLine("a\r\nb\u0000c\u001bd\u007fe")).toBe("a  b c d e");
    expect(auditText("x".repeat(500), AUDIT_ADDRESS_MAX)).toHaveLength(AUDIT_ADDRESS_MAX);
    expect(auditText("  \r\n ", 10)).toBeNull();
    expect(auditText(undefined, 10)).toBeNull();
    expect(auditText(" ok ", 10)).toBe("ok");
  });
});
