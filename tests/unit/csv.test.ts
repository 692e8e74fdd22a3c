/**
 * The one CSV writer (server/2-formats/csv.ts): RFC 4180 bytes by hand, and formula injection
 * neutralised as OWASP's CSV Injection guidance asks — text that a spreadsheet would read as a
 * formula gets a leading single quote inside a quoted field; numbers handed over as numbers stay
 * numbers, negative ones included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Column, cellText, csvField, csvFileName, neutralised, toCsv } from "@/server/2-formats/csv";
import { readCsvFields } from "../helpers/csv";

describe("CSV of a chart's table (RFC 4180)", () => {
  interface Row {
    name: string;
    score: number;
  }
  const columns: Column<Row>[] = [
    { label: "Name", value: (r) => r.name },
    { label: "Score", value: (r) => r.score, numeric: true, decimals: 1 },
  ];

  it("writes the header, one CRLF line per row, and quotes only what needs it", () => {
    const rows = [
      { name: "Alpha, Inc.", score: 80.4 },
      { name: 'Say "hi"', score: 0 },
      { name: "Line\nbreak", score: 100 },
      { name: "Zürich 東京", score: 5.55 },
    ];
    expect(toCsv(columns, rows)).toBe(
      'Name,Score\r\n"Alpha, Inc.",80.4\r\n"Say ""hi""",0.0\r\n"Line\nbreak",100.0\r\nZürich 東京,5.5\r\n',
    );
  });

  it("writes no number where there is none: an empty field in the CSV, a dash in the table", () => {
    const kept: Column<{ name: string; kept: number | null }>[] = [
      { label: "Name", value: (r) => r.name },
      { label: "Kept", value: (r) => r.kept, numeric: true, decimals: 1 },
    ];
    const rows = [
      { name: "Usable", kept: 0 },
      { name: "Unavailable", kept: null },
    ];
    expect(toCsv(kept, rows)).toBe("Name,Kept\r\nUsable,0.0\r\nUnavailable,\r\n");
    expect(cellText(kept[1] as Column<(typeof rows)[number]>, rows[1] as (typeof rows)[number])).toBe("—");
    expect(cellText(kept[1] as Column<(typeof rows)[number]>, rows[0] as (typeof rows)[number])).toBe("0.0");
  });

  it("writes only the header for an empty chart", () => {
    expect(toCsv(columns, [])).toBe("Name,Score\r\n");
  });

  it("quotes a lone carriage return and leaves plain fields alone", () => {
    expect(csvField("a\rb")).toBe('"a\rb"');
    expect(csvField(-18.3)).toBe("-18.3");
    expect(csvField(false)).toBe("false");
  });

  it("names the file from its parts, skipping the missing ones", () => {
    expect(csvFileName("foundation-model-apis", "r3", "delta", "bars", "FR")).toBe(
      "foundation-model-apis-r3-delta-bars-fr.csv",
    );
    expect(csvFileName("object-storage", undefined, "Capability Index", "")).toBe(
      "object-storage-capability-index.csv",
    );
  });
});

describe("formula injection (OWASP CSV Injection)", () => {
  // Written out here rather than taken from the writer, so a writer that forgets one fails.
  const PREFIXES: [string, string][] = [
    ["equals", "="],
    ["plus", "+"],
    ["minus", "-"],
    ["at", "@"],
    ["tab", "\t"],
    ["carriage return", "\r"],
    ["line feed", "\n"],
    ["NUL", "\0"],
    ["full-width equals", "\uFF1D"],
    ["full-width plus", "\uFF0B"],
    ["full-width minus", "\uFF0D"],
    ["full-width at", "\uFF20"],
  ];

  it.each(PREFIXES)("puts a single quote before text starting with %s, inside a quoted field", (_, prefix) => {
    expect(csvField(`${prefix}1+1 Corp`)).toBe(`"'${prefix}1+1 Corp"`);
    expect(csvField(prefix)).toBe(`"'${prefix}"`);
  });

  it("neutralises a formula behind leading whitespace, which a spreadsheet may trim", () => {
    expect(csvField(" =1+1")).toBe(`"' =1+1"`);
    expect(csvField("\u00A0\u3000@SUM(A1)")).toBe(`"'\u00A0\u3000@SUM(A1)"`);
    expect(csvField("\t\r\n-2")).toBe(`"'\t\r\n-2"`);
  });

  it("writes a HYPERLINK formula as text, its quotes doubled", () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });

  it("escapes OWASP's two examples as OWASP does", () => {
    expect(csvField('=1+2";=1+2')).toBe('"\'=1+2"";=1+2"');
    expect(csvField("=1+2'\" ;,=1+2")).toBe('"\'=1+2\'"" ;,=1+2"');
  });

  it("leaves text alone when no formula can start it", () => {
    for (const text of ["Alpha", "a-b", "x=y", "1+1", "'quoted", "", " ", "Zürich 東京", "−3.1 (a real minus)"])
      expect(csvField(text)).toBe(text);
    expect(neutralised("Alpha")).toBe("Alpha");
    expect(neutralised("-Alpha")).toBe("'-Alpha");
  });

  it("keeps numbers numbers, negative ones too, and neutralises the same digits given as text", () => {
    expect(csvField(-3.1)).toBe("-3.1");
    expect(csvField(-3.14, 1)).toBe("-3.1");
    expect(csvField(-0.04, 1)).toBe("-0.0");
    expect(csvField(+12.5, 1)).toBe("12.5");
    expect(csvField(-1e21)).toBe("-1e+21");
    expect(csvField(true)).toBe("true");
    // A column that hands over text decides for text: "-3.1" as a string is neutralised.
    expect(csvField("-3.1")).toBe(`"'-3.1"`);
    expect(csvField("+3.1")).toBe(`"'+3.1"`);
  });

  it("writes a mixed row: hostile names neutralised and quoted, numbers as they are", () => {
    interface Row {
      product: string;
      vendor: string;
      rank: number;
      delta: number;
      state: string;
    }
    const columns: Column<Row>[] = [
      { label: "Rank", value: (r) => r.rank, numeric: true },
      { label: "Product", value: (r) => r.product },
      { label: "Vendor", value: (r) => r.vendor },
      { label: "Delta", value: (r) => r.delta, numeric: true, decimals: 1 },
      { label: "State", value: (r) => r.state },
    ];
    const rows: Row[] = [
      { product: "-Minus", vendor: '=HYPERLINK("http://x","y")', rank: 1, delta: -3.1, state: "available" },
      { product: "Plain, Inc.", vendor: "@Vendor", rank: 2, delta: 0, state: "\tunavailable" },
    ];
    expect(toCsv(columns, rows)).toBe(
      "Rank,Product,Vendor,Delta,State\r\n" +
        '1,"\'-Minus","\'=HYPERLINK(""http://x"",""y"")",-3.1,available\r\n' +
        '2,"Plain, Inc.","\'@Vendor",0.0,"\'\tunavailable"\r\n',
    );
    // The table shows the names as they are: neutralising is for the file, not the screen.
    expect(rows.map((r) => cellText(columns[2] as Column<Row>, r))).toEqual(['=HYPERLINK("http://x","y")', "@Vendor"]);
    expect(rows.map((r) => cellText(columns[3] as Column<Row>, r))).toEqual(["-3.1", "0.0"]);
  });

  it("reads back, for any text, as the text itself or the text behind a quote, never as a formula", () => {
    const starts = /^[\s\0]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r\n\0]/;
    const piece = fc.constantFrom(
      "=",
      "+",
      "-",
      "@",
      "\t",
      "\r",
      "\n",
      " ",
      '"',
      ",",
      ";",
      "'",
      "a",
      "1",
      "\uFF1D",
      "é",
    );
    const text = fc.oneof(
      fc.string(),
      fc.array(piece, { maxLength: 8 }).map((p) => p.join("")),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.double({ noNaN: true, noDefaultInfinity: true }))), (rows) => {
        const columns: Column<[string, number]>[] = [
          { label: "Text", value: (r) => r[0] },
          { label: "Number", value: (r) => r[1], numeric: true },
        ];
        const [header, ...records] = readCsvFields(toCsv(columns, rows));
        expect(header?.map((f) => f.text)).toEqual(["Text", "Number"]);
        expect(records).toHaveLength(rows.length);
        rows.forEach(([written, number], i) => {
          const [cell, numberCell] = records[i] ?? [];
          if (starts.test(written)) expect(cell).toEqual({ text: `'${written}`, quoted: true });
          else expect(cell?.text).toBe(written);
          expect(starts.test(cell?.text ?? "")).toBe(false);
          expect(numberCell?.quoted).toBe(false);
          expect(Number(numberCell?.text)).toBe(number === 0 ? 0 : number);
        });
      }),
    );
  });
});
