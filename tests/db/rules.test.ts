/**
 * The rankings of docs/methodology.md over a published release of tests/fixtures/rules.yaml, read
 * back from the database. Scores are worked out by hand in tests/unit/scoring.rules.test.ts:
 * published Innovation Apex 100; Nova (nova-one), Nova (nova-two), Orbit, eon 86.7; Zephyr 0.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { capaindex } from "@/server/2-readings/capaindex";
import { delta } from "@/server/2-readings/delta";
import type { ReleaseData } from "@/server/2-readings/release";
import { servicemax } from "@/server/2-readings/servicemax";
import { publishGeographies, publishMarket } from "@/server/3-catalog/store";
import { testDatabase } from "../helpers/database";
import { fixtureMarket, rulesGeographies } from "../helpers/fixtures";
import { readRelease } from "../helpers/releases";

describe("rankings and ties in a published release", () => {
  const database = testDatabase();
  let release: ReleaseData;
  beforeAll(async () => {
    await publishGeographies(database.db, "geographies.yaml", rulesGeographies());
    await publishMarket(database.db, "rules.yaml", fixtureMarket("rules.yaml"), {
      notes: "edge rules",
      material: false,
      publishedAt: new Date("2026-01-01T00:00:00Z"),
    });
    const read = await readRelease(database.db, "edge-rules");
    if (!read) throw new Error("edge-rules not published");
    release = read;
  });

  it("Capability Index: a four-way tie in published Innovation, listed by name then id", () => {
    // Competition ranking: the four at 86.7 share rank 2, the next is 6th in the list.
    // "Nova" < "Orbit" < "eon" (capitals first); the two Novas by id, nova-one < nova-two.
    expect(capaindex(release).products.map((p) => [p.rank, p.productId, p.innovation, p.band])).toEqual([
      [1, "apex", 100, "Frontier"],
      [2, "nova-one", 86.7, "Established"],
      [2, "nova-two", 86.7, "Established"],
      [2, "orbit", 86.7, "Established"],
      [2, "eon", 86.7, "Established"],
      [6, "zephyr", 0, "Foundation"],
    ]);
  });

  it("Max: an unavailable product ranks with its 0, tied with an available product that retains 0", () => {
    // XA retained Innovation: Apex (eu-a) 100, Nova nova-two (eu) 86.7, Orbit (sovereign) 53.3,
    // Zephyr (plus) 33.3, eon (b-eu, clamped) 0, Nova nova-one unavailable 0.
    expect(servicemax(release, "XA").products.map((p) => [p.rank, p.productId, p.on.innovation, p.available])).toEqual([
      [1, "apex", 100, true],
      [2, "nova-two", 86.7, true],
      [3, "orbit", 53.3, true],
      [4, "zephyr", 33.3, true],
      [5, "nova-one", 0, false],
      [5, "eon", 0, true],
    ]);
    // XB: only Zephyr (plus, 33.3) and eon (b-eu, 0) qualify; the rest are unavailable at 0.
    expect(servicemax(release, "XB").products.map((p) => [p.rank, p.productId, p.available])).toEqual([
      [1, "zephyr", true],
      [2, "apex", false],
      [2, "nova-one", false],
      [2, "nova-two", false],
      [2, "orbit", false],
      [2, "eon", true],
    ]);
  });

  it("Delta: controls in id order, products by name then id, each saying what it lacks", () => {
    const reading = delta(release, "xe");
    expect(reading.controls.map((c) => c.id)).toEqual(["customer-held-keys", "eu-data-residency", "eu-resident-ops"]);
    expect(reading.products.map((p) => [p.productId, p.available, p.missingControls])).toEqual([
      ["apex", false, ["customer-held-keys", "eu-resident-ops"]],
      ["nova-one", false, ["customer-held-keys", "eu-data-residency", "eu-resident-ops"]],
      ["nova-two", false, ["eu-resident-ops"]],
      ["orbit", false, ["customer-held-keys", "eu-resident-ops"]],
      ["zephyr", false, ["customer-held-keys"]],
      ["eon", false, ["customer-held-keys"]], // what b-eu, the closest (2 of 3), lacks
    ]);
  });
});
