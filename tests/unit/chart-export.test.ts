/** What a chart exports and draws beyond the transforms: CSV bytes and arrowhead geometry, by hand. */
import { describe, expect, it } from "vitest";
import { type Column, csvField, csvFileName, toCsv } from "@/components/charts/csv";
import { arrowHead, signed } from "@/components/charts/geometry";

describe("CSV of a chart's table (RFC 4180)", () => {
  interface Row {
    name: string;
    score: number;
  }
  const columns: Column<Row>[] = [
    { label: "Name", value: (r) => r.name },
    { label: "Score", value: (r) => r.score.toFixed(1), numeric: true },
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

describe("arrowhead of a delta streak", () => {
  // Corners sit 7 px back from the tip, turned π/7 either side: cos π/7 = 0.90097, sin π/7 = 0.43388.
  it("points right for a streak moving right", () => {
    // 10 − 7·0.90097 = 3.69; ±7·0.43388 = ±3.04
    expect(arrowHead({ x: 0, y: 0 }, { x: 10, y: 0 })).toBe("10.0,0.0 3.7,-3.0 3.7,3.0");
  });

  it("points up (towards more Innovation) for a streak moving up the screen", () => {
    // angle −π/2: corners at x = 5 ∓ 7·sin π/7 = 1.96 / 8.04, y = 0 + 7·cos π/7 = 6.31
    expect(arrowHead({ x: 5, y: 20 }, { x: 5, y: 0 })).toBe("5.0,0.0 2.0,6.3 8.0,6.3");
  });

  it("points down-left for a product losing Innovation and Control", () => {
    // angle 3π/4 (135°); corners at 160.7° and 109.3°: (0 + 7·0.94388, 10 − 7·0.33028) = (6.61, 7.69)
    // and (0 + 7·0.33028, 10 − 7·0.94388) = (2.31, 3.39)
    expect(arrowHead({ x: 10, y: 0 }, { x: 0, y: 10 })).toBe("0.0,10.0 6.6,7.7 2.3,3.4");
  });
});

describe("signed changes", () => {
  it("writes a plus for gains, a real minus for losses, and no sign for zero", () => {
    expect(signed(3)).toBe("+3.0");
    expect(signed(-12.5)).toBe("−12.5");
    expect(signed(0)).toBe("0.0");
    expect(signed(-0)).toBe("0.0");
    expect(signed(0.04)).toBe("0.0");
    expect(signed(-0.06)).toBe("−0.1");
  });
});
