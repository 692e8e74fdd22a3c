/** The catalogue store against a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL). */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as t from "@/db/schema";
import { delta } from "@/server/2-readings/delta";
import {
  archiveMarket,
  CatalogStateError,
  listMarkets,
  publishGeographies,
  publishMarket,
  readGeographies,
  restoreMarket,
} from "@/server/3-catalog/store";
import { seedDemoCatalogue } from "@/server/5-startup/seed";
import { testDatabase } from "../helpers/database";
import { fixtureGeographies, fixtureMarket } from "../helpers/fixtures";
import { readRelease } from "../helpers/releases";

const EU_27 = "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split(" ");
const at = (iso: string) => new Date(iso);

describe("catalogue store", () => {
  const database = testDatabase();
  beforeAll(async () => {
    await publishGeographies(database.db, "geographies.yaml", fixtureGeographies());
  });

  it("stores the geographies with their controls", async () => {
    const geographies = await readGeographies(database.db);
    expect(geographies.map((g) => [g.country, g.controls])).toEqual([
      ["XA", ["eu-data-residency"]],
      ["XB", ["eu-data-residency", "eu-resident-ops"]],
      ["XC", []],
      ["XD", ["customer-held-keys", "eu-resident-ops"]],
    ]);
  });

  it("publishes release 1, then 2, keeping release 1 unchanged", async () => {
    const first = await publishMarket(database.db, "m.yaml", fixtureMarket(), {
      notes: "first",
      material: false,
      publishedAt: at("2026-01-01T00:00:00Z"),
    });
    expect(first).toMatchObject({ marketId: "hand-computed", release: 1, products: 3, countries: 4 });
    const before = await readRelease(database.db, "hand-computed", 1);
    expect(before?.lastUpdated).toBe("2026-01-01T00:00:00.000Z");
    expect(before?.products.find((p) => p.productId === "alpha")?.scores).toEqual({
      innovation: 93.3,
      control: 16.7,
      scale: 100,
    });

    const changed = fixtureMarket();
    changed.methodologyVersion = "2.0";
    const alpha = changed.products[0]?.offerings[0];
    if (alpha) alpha.values.bench = 61; // Alpha falls to the bottom of the benchmark field
    const second = await publishMarket(database.db, "m.yaml", changed, {
      notes: "second",
      material: true,
      publishedAt: at("2026-02-01T00:00:00Z"),
    });
    expect(second.release).toBe(2);

    expect(await readRelease(database.db, "hand-computed", 1)).toEqual(before);
    const latest = await readRelease(database.db, "hand-computed");
    expect(latest).toMatchObject({ release: 2, material: true, methodologyVersion: "2.0", notes: "second" });
    expect(latest?.lastUpdated).toBe("2026-02-01T00:00:00.000Z");
    expect(latest?.products.find((p) => p.productId === "alpha")?.scores.innovation).not.toBe(93.3);
    expect(await readRelease(database.db, "hand-computed", 3)).toBeUndefined();
  });

  it("stores the per-country results a reading needs", async () => {
    const release = await readRelease(database.db, "hand-computed", 1);
    if (!release) throw new Error("release 1 missing");
    expect([...release.countries.keys()].sort()).toEqual(["XA", "XB", "XC", "XD"]);
    const reading = delta(release, "xa");
    expect(reading.products.find((p) => p.productId === "charlie")).toMatchObject({
      available: false,
      missingControls: ["eu-data-residency"],
    });
  });

  it("refuses to change or delete a stored release", async () => {
    // Drizzle wraps the driver's error; the database's own message is its cause.
    const refusal = async (query: PromiseLike<unknown>) => {
      try {
        await query;
        return "accepted";
      } catch (error) {
        return String((error as { cause?: Error }).cause?.message ?? error);
      }
    };
    expect(await refusal(database.db.update(t.releases).set({ notes: "rewritten" }))).toMatch(/immutable/);
    expect(await refusal(database.db.delete(t.releaseCountryResults))).toMatch(/immutable/);
    expect((await readRelease(database.db, "hand-computed", 1))?.notes).toBe("first");
  });

  it("numbers concurrent publishes of one market one after the other", async () => {
    const options = { notes: "concurrent", material: false, publishedAt: at("2026-03-01T00:00:00Z") };
    const results = await Promise.all(
      [1, 2, 3].map(() => publishMarket(database.db, "m.yaml", fixtureMarket(), options)),
    );
    expect(results.map((r) => r.release).sort()).toEqual([3, 4, 5]);
  });

  it("archives: gone from readings and the listed markets, kept in the full list; restores", async () => {
    await archiveMarket(database.db, "hand-computed");
    expect(await readRelease(database.db, "hand-computed")).toBeUndefined();
    expect(await listMarkets(database.db, { listedOnly: true })).toEqual([]);
    expect((await listMarkets(database.db))[0]).toMatchObject({ status: "archived", release: 5, productCount: 3 });
    await expect(
      publishMarket(database.db, "m.yaml", fixtureMarket(), {
        notes: "x",
        material: false,
        publishedAt: new Date(),
      }),
    ).rejects.toThrow(CatalogStateError);
    await restoreMarket(database.db, "hand-computed");
    expect((await readRelease(database.db, "hand-computed"))?.release).toBe(5);
    await expect(archiveMarket(database.db, "no-such-market")).rejects.toThrow(/no market/);
  });
});

describe("demo catalogue seed", () => {
  const database = testDatabase();

  it("seeds an empty database once", async () => {
    expect(await seedDemoCatalogue(database.db)).toBe(true);
    expect(await seedDemoCatalogue(database.db)).toBe(false);
  });

  it("has the markets the demo promises", async () => {
    const markets = await listMarkets(database.db);
    expect(markets.map((m) => [m.marketId, m.status, m.release])).toEqual([
      ["foundation-model-apis", "listed", 3],
      ["managed-kubernetes", "listed", 1],
      ["object-storage", "listed", 1],
      ["speech-to-text", "listed", 1],
      ["vector-databases", "archived", 1],
    ]);
    for (const m of markets.filter((m) => m.status === "listed")) {
      expect(m.productCount).toBeGreaterThanOrEqual(8);
      expect(m.productCount).toBeLessThanOrEqual(15);
      expect(m.description).toMatch(/^Demo data \(fictional vendors\): /);
    }
    const history = await database.db
      .select({ release: t.releases.release, material: t.releases.material, version: t.releases.methodologyVersion })
      .from(t.releases)
      .where(eq(t.releases.marketId, "foundation-model-apis"))
      .orderBy(t.releases.release);
    expect(history).toEqual([
      { release: 1, material: false, version: "1.0" },
      { release: 2, material: true, version: "2.0" },
      { release: 3, material: false, version: "2.0" },
    ]);
  });

  it("has the geographies and controls the demo promises", async () => {
    const geographies = await readGeographies(database.db);
    const countries = geographies.map((g) => g.country);
    expect(geographies.length).toBeGreaterThanOrEqual(30);
    for (const code of [...EU_27, "CH", "GB", "NO", "US", "CA", "JP", "AU"]) expect(countries).toContain(code);
    expect(geographies.filter((g) => g.controls.length === 0).length).toBeGreaterThan(0);
    const distinctSets = new Set(geographies.map((g) => g.controls.join(",")));
    expect(distinctSets.size).toBeGreaterThanOrEqual(8);
    const controls = await database.db.select().from(t.controls);
    expect(controls.length).toBeGreaterThanOrEqual(8);
  });

  it("makes things move where controls apply, and nothing move where none do", async () => {
    for (const marketId of ["foundation-model-apis", "managed-kubernetes", "object-storage", "speech-to-text"]) {
      const release = await readRelease(database.db, marketId);
      if (!release) throw new Error(`${marketId} missing`);
      const france = delta(release, "FR").products;
      expect(france.some((p) => !p.available)).toBe(true);
      expect(france.some((p) => p.available && p.distance.magnitude > 0)).toBe(true);
      for (const p of delta(release, "GB").products) expect(p.distance.magnitude).toBe(0);
      expect(release.products.some((p) => p.gaps.length > 0)).toBe(true);
    }
  });
});
