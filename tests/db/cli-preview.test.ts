/**
 * `ops catalog preview`: what publishing a market file would change against the market's latest
 * release, worked out by hand on copies of tests/fixtures/market.yaml (the arithmetic is in the
 * comments; tests/unit/scoring.test.ts has the fixture's own scores), and proof that it writes
 * nothing: every table's row count and checksum are the same before and after each preview.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changes } from "@/server/2-comparisons/release-comparison";
import { loadRelease } from "@/server/3-catalog/releases";
import { marketVariant, runOps, type Yaml } from "../helpers/cli";
import { testDatabase } from "../helpers/database";
import { FIXTURES } from "../helpers/fixtures";

const GEOGRAPHIES = path.join(FIXTURES, "geographies.yaml");
const MARKET = path.join(FIXTURES, "market.yaml");
const M = "\u2212"; // the minus sign of a signed change

const database = testDatabase();
let workDir: string;

const ops = (...argv: string[]) => runOps(database, argv);

/** The market fixture with one change, written to a file of its own. */
const marketWith = (name: string, change: (market: Yaml) => void) => marketVariant(workDir, name, change);

const rowsOf = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows);

/** Every table of the database: its row count and an md5 of its rows, whatever its columns. */
async function databaseState(): Promise<Record<string, { rows: number; md5: string | null }>> {
  const tables = rowsOf(
    await database.db.execute(
      "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
    ),
  ) as { name: string }[];
  const state: Record<string, { rows: number; md5: string | null }> = {};
  for (const { name } of tables) {
    const [row] = rowsOf(
      await database.db.execute(
        `select count(*)::int as rows, md5(string_agg(t::text, '|' order by t::text)) as md5 from "${name}" t`,
      ),
    ) as { rows: number; md5: string | null }[];
    state[name] = row as { rows: number; md5: string | null };
  }
  return state;
}

/** Runs a preview and checks it wrote nothing at all. */
async function preview(...argv: string[]) {
  const before = await databaseState();
  const result = await ops("catalog", "preview", ...argv);
  const after = await databaseState();
  expect(after).toEqual(before);
  return result;
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), "mps-preview-"));
  expect((await ops("catalog", "publish", GEOGRAPHIES)).code).toBe(0);
});
afterAll(async () => {
  rmSync(workDir, { recursive: true, force: true });
});

describe("ops catalog preview of a market with no release", () => {
  it("says it would be release 1 of a new market, and writes nothing", async () => {
    const state = await databaseState();
    expect(state.markets?.rows).toBe(0);
    const text = await preview(MARKET);
    expect(text).toMatchObject({ code: 0, stderr: "" });
    expect(text.stdout).toBe(
      `hand-computed has no release yet: publishing ${MARKET} would store release 1 of a new market with 3 products`,
    );
    const json = await preview(MARKET, "--json");
    expect(JSON.parse(json.stdout)).toEqual({ marketId: "hand-computed", release: 1, newMarket: true, products: 3 });
  });
});

describe("ops catalog preview against release 1", () => {
  beforeAll(async () => {
    expect((await ops("catalog", "publish", MARKET, "--notes", "first")).code).toBe(0);
  });

  // Charlie's benchmark 75 → 100 stretches the field's bench bounds from [60, 90] to [60, 100].
  const charlieBench = () =>
    marketWith("charlie-bench", (m) => {
      m.products[2].offerings[0].values.bench = 100;
    });

  it("attributes a product's own change to its values, and the others' to the field", async () => {
    const result = await preview(charlieBench());
    expect(result.code).toBe(0);
    // Innovation = 100 × (3 × bench + latency + multimodal) / 5, latency over [100, 400].
    // Charlie: 50.0 = (3 × 0.5 + 0 + 1) / 5 → own values: bench 100 on the old field clamps to 1,
    //   (3 + 0 + 1) / 5 = 80.0; on the new field (100 − 60) / 40 = 1 still: field 0. +30.0 in all.
    // Alpha: 93.3 = (3 × 1 + 2/3 + 1) / 5 → its values did not change; on the new field its bench
    //   is (90 − 60) / 40 = 0.75: (2.25 + 2/3 + 1) / 5 = 78.3, so the field takes 15.0. Charlie (80.0)
    //   passes it in the Capability Index. Max under XA (the first country: no US): Alpha's eu-plus
    //   (73.3 → 65.8) stays first, Bravo second, Charlie unavailable (no offering with residency).
    expect(result.stdout.split("\n")).toEqual([
      "Preview of hand-computed release 2 against release 1 (country XA)",
      "",
      "Methodology 1.0 unchanged.",
      "",
      "Alpha (Alpha Co): stayed",
      `  Innovation 93.3 → 78.3 (${M}15.0): field ${M}15.0; band Frontier → Established`,
      "  Control 16.7 → 16.7 (0.0)",
      "  Scale 100.0 → 100.0 (0.0)",
      "  Capability Index rank 1 → 2, down 1",
      "  Max under XA: rank 1, unchanged; still available",
      "Bravo (Bravo GmbH): no change",
      "Charlie (Charlie SA): stayed",
      "  Innovation 50.0 → 80.0 (+30.0): own values +30.0; band Established → Frontier",
      "  Control 66.7 → 66.7 (0.0)",
      "  Scale 8.3 → 8.3 (0.0)",
      "  Capability Index rank 2 → 1, up 1",
      "  Max under XA: rank 3, unchanged; still unavailable",
    ]);
  });

  it("engages the country asked for, in either case, and prints the comparison as JSON", async () => {
    const result = await preview(charlieBench(), "--country", "xc", "--json");
    expect(result.code).toBe(0);
    const comparison = JSON.parse(result.stdout);
    expect(comparison).toMatchObject({
      marketId: "hand-computed",
      from: { release: 1, lastUpdated: "2026-06-01T12:00:00.000Z", methodologyVersion: "1.0" },
      to: { release: 2, lastUpdated: "2026-06-01T12:00:00.000Z", methodologyVersion: "1.0" },
      country: "XC",
      market: { methodologyChanged: false, material: false, productsAdded: [], productsRemoved: [] },
    });
    const charlie = comparison.products.find((p: { productId: string }) => p.productId === "charlie");
    expect(charlie.scores.innovation).toEqual({
      from: 50,
      to: 80,
      change: 30,
      attribution: { ownValues: 30, field: 0, method: 0 },
      // All of it the benchmark's: 100 × 3 × (1 − 0.5) / 5 on the old field.
      ownValuesBy: { indicators: [{ indicatorId: "bench", name: "Benchmark", points: 30 }], more: 0 },
    });
    // XC engages no control: Max is the published Innovation, where Charlie (80.0) passes Alpha (78.3).
    expect(charlie.max).toEqual({
      rank: { from: 2, to: 1, movedUp: 1, change: -1 },
      available: { from: true, to: true },
      offering: { from: "public", to: "public" },
      availability: "unchanged",
    });
  });

  it("attributes a reweighting to the method and says the methodology changed", async () => {
    const file = marketWith("heavier-bench", (m) => {
      m.methodologyVersion = "1.1";
      m.indicators[0].weight = 4;
    });
    const result = await preview(file, "--country", "XC");
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "Preview of hand-computed release 2 against release 1 (country XC)",
      "",
      "Methodology 1.0 → 1.1.",
      "Weights changed: bench 3 → 4.",
      "If the methodology change is material, publish with --material (this preview assumes it is not).",
    ]);
    // Innovation weighs 6 now. Alpha: (4 × 1 + 2/3 + 1) / 6 = 94.4 (+1.1 from 93.3; exactly 1.11).
    // Bravo: (0 + 1 + 0) / 6 = 16.7 (−3.3 from 20.0). Charlie: (4 × 0.5 + 0 + 1) / 6 = 50.0, no change.
    expect(lines).toContain("  Innovation 93.3 → 94.4 (+1.1): method +1.1");
    expect(lines).toContain(`  Innovation 20.0 → 16.7 (${M}3.3): method ${M}3.3`);
    expect(lines).toContain("Charlie (Charlie SA): no change");
  });

  it("shows a product that entered, and the ranks it pushed down", async () => {
    const file = marketWith("delta-enters", (m) => {
      m.products.push({
        productId: "delta",
        name: "Delta",
        vendor: "Delta Ltd",
        offerings: [
          {
            id: "public",
            name: "Public",
            default: true,
            satisfies: ["eu-data-residency"],
            // Inside every field bound (bench [60, 90], latency [100, 400], regions [6, 30]): no one else moves.
            values: {
              bench: 70,
              latency: 300,
              multimodal: true,
              residency: true,
              cert: "basic",
              sla: "99.9",
              regions: 10,
            },
          },
        ],
      });
    });
    const result = await preview(file);
    expect(result.code).toBe(0);
    // Delta: Innovation (3 × 1/3 + 1/3 + 1) / 5 = 46.7 Established; Control (2 + 0.5) / 3 = 83.3
    // Frontier; Scale (1/3 + 4/24) / 2 = 25.0 Foundation. Capability Index: Alpha 93.3, Charlie 50.0,
    // Delta 46.7, Bravo 20.0. Max under XA: Alpha 73.3, Delta 46.7, Bravo 20.0, Charlie unavailable.
    expect(result.stdout.split("\n")).toEqual([
      "Preview of hand-computed release 2 against release 1 (country XA)",
      "",
      "Methodology 1.0 unchanged.",
      "Products added: Delta.",
      "",
      "Alpha (Alpha Co): no change",
      "Bravo (Bravo GmbH): stayed",
      "  Innovation 20.0 → 20.0 (0.0)",
      "  Control 100.0 → 100.0 (0.0)",
      "  Scale 16.7 → 16.7 (0.0)",
      "  Capability Index rank 3 → 4, down 1",
      "  Max under XA: rank 2 → 3, down 1; still available",
      "Charlie (Charlie SA): stayed",
      "  Innovation 50.0 → 50.0 (0.0)",
      "  Control 66.7 → 66.7 (0.0)",
      "  Scale 8.3 → 8.3 (0.0)",
      "  Capability Index rank 2, unchanged",
      "  Max under XA: rank 3 → 4, down 1; still unavailable",
      "Delta (Delta Ltd): entered",
      "  Bands: Innovation Established, Control Frontier, Scale Foundation",
      "  Capability Index rank new at 3",
      "  Max under XA: rank new at 2; available",
    ]);
  });

  it("refuses what publish would refuse, and a country it cannot compare under, writing nothing", async () => {
    const bad = marketWith("unknown-control", (m) => {
      m.products[0].offerings[1].satisfies[0] = "no-such-control";
    });
    const refused = await preview(bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("nothing was written");
    expect(refused.stderr).toContain(
      `${bad}: products[0].offerings[1].satisfies[0]: unknown control id "no-such-control"`,
    );

    const unknownCountry = await preview(MARKET, "--country", "ZZ");
    expect(unknownCountry.code).toBe(1);
    expect(unknownCountry.stderr).toContain(
      'cannot preview under "ZZ": it is not a live geography; choose one of XA, XB, XC, XD',
    );

    const geographies = await preview(GEOGRAPHIES);
    expect(geographies.code).toBe(1);
    expect(geographies.stderr).toContain("is a geographies file");

    expect((await preview(MARKET, "--notes", "x")).code).toBe(2);
    expect((await preview()).code).toBe(2);
  });

  it("refuses an archived market as publish does", async () => {
    expect((await ops("catalog", "archive", "hand-computed")).code).toBe(0);
    try {
      const refused = await preview(MARKET);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('market "hand-computed" is archived; restore it first');
    } finally {
      expect((await ops("catalog", "restore", "hand-computed")).code).toBe(0);
    }
  });

  it("previews exactly what publishing then stores", async () => {
    const file = charlieBench();
    const predicted = JSON.parse((await preview(file, "--country", "XB", "--json")).stdout);
    expect((await ops("catalog", "publish", file, "--notes", "Charlie's new benchmark")).code).toBe(0);
    const [earlier, later] = await Promise.all([
      loadRelease(database.db, "hand-computed", 1),
      loadRelease(database.db, "hand-computed", 2),
    ]);
    if (!earlier || !later) throw new Error("releases 1 and 2 should be stored");
    expect(predicted).toEqual(JSON.parse(JSON.stringify(changes(earlier.data, later.data, "XB"))));
    // The next preview is of release 3, against the release just published.
    expect((await preview(MARKET)).stdout).toMatch(
      /^Preview of hand-computed release 3 against release 2 \(country XA\)$/m,
    );
  });
});
