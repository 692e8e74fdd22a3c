/**
 * The edge rules of docs/methodology.md against tests/fixtures/rules.yaml. Every expected number
 * was worked out by hand from the written rules (N1–N6, rounding, engagement, missingControls);
 * the arithmetic is in the comments.
 *
 * Field bounds over the default offerings: bench [40, 90] (80 → 40/50 = 0.8); uptime all-equal
 * at 99.9 (Zephyr has none); preview empty (no default offering reports it).
 * Innovation = 100 × (2 × bench + flag) / 3; Control = 100 × (cert + 3 × residency) / 4, cert
 * by position / 4; Scale = 100 × (uptime + preview) / 2, and preview is always 0 (rule N6).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml, stringify } from "yaml";
import { checkMarket, parseDefinition } from "@/server/1-domain/definition-checks";
import { scoreMarket } from "@/server/2-scoring/engine";
import { normalize } from "@/server/2-scoring/normalize";
import { FIXTURES, fixtureGeographies, fixtureMarket, rulesGeographies } from "../helpers/fixtures";

const scored = () => scoreMarket(fixtureMarket("rules.yaml"), rulesGeographies().geographies);
const country = (code: string) => {
  const result = scored();
  const found = result.countries.find((c) => c.country === code);
  if (!found) throw new Error(`no ${code}`);
  // Per-country results are in the order of the published products.
  return { ...found, byId: (id: string) => found.products[result.products.findIndex((p) => p.productId === id)] };
};
const zeros = { innovation: 0, control: 0, scale: 0 };

describe("published scores", () => {
  it("orders products by name, then id, in text order: capitals before lower case", () => {
    // "Apex" < "Nova" (nova-one < nova-two) < "Orbit" < "Zephyr" < "eon" ('Z' is 0x5A, 'e' is 0x65).
    expect(scored().products.map((p) => p.productId)).toEqual([
      "apex",
      "nova-one",
      "nova-two",
      "orbit",
      "zephyr",
      "eon",
    ]);
  });

  it("scores every product by hand", () => {
    expect(scored().products.map((p) => [p.productId, p.scores, p.bands, p.gaps])).toEqual([
      // Apex: bench 90 → 1 (the field's best, whatever the indicator's range [0, 100]), flag 1:
      // innovation = 100 × 3/3 = 100. Control = 100 × (0.75 + 0)/4 = 18.75 → 18.8 (half away from zero).
      // Scale = 100 × (1 + 0)/2 = 50.
      [
        "apex",
        { innovation: 100, control: 18.8, scale: 50 },
        { innovation: "Frontier", control: "Foundation", scale: "Frontier" },
        ["preview"],
      ],
      // Nova (nova-one): innovation = 100 × (1.6 + 1)/3 = 86.67 → 86.7; control = 100 × (1 + 3)/4 = 100.
      [
        "nova-one",
        { innovation: 86.7, control: 100, scale: 50 },
        { innovation: "Established", control: "Frontier", scale: "Frontier" },
        ["preview"],
      ],
      // Nova (nova-two): control = 100 × (0.25 + 0)/4 = 6.25 → 6.3, not 6.2 (half to even) nor 6.2 (truncation).
      [
        "nova-two",
        { innovation: 86.7, control: 6.3, scale: 50 },
        { innovation: "Established", control: "Foundation", scale: "Frontier" },
        ["preview"],
      ],
      // Orbit: control = 100 × (0 + 3)/4 = 75, exactly the Frontier cutoff.
      [
        "orbit",
        { innovation: 86.7, control: 75, scale: 50 },
        { innovation: "Established", control: "Frontier", scale: "Frontier" },
        ["preview"],
      ],
      // Zephyr: bench 40 → 0, flag false; cert none, residency null → 0; uptime absent → 0.
      // Gaps in the file's indicator order (residency, uptime, preview), not alphabetical.
      [
        "zephyr",
        zeros,
        { innovation: "Foundation", control: "Foundation", scale: "Foundation" },
        ["residency", "uptime", "preview"],
      ],
      // eon: control = 100 × (0.5 + 0)/4 = 12.5.
      [
        "eon",
        { innovation: 86.7, control: 12.5, scale: 50 },
        { innovation: "Established", control: "Foundation", scale: "Frontier" },
        ["preview"],
      ],
    ]);
  });
});

describe("under controls", () => {
  it("XA: clamps offerings outside the field, decides a tie by id, honours a null, gives the default no precedence", () => {
    const xa = country("XA");
    expect(xa.products.map((p) => [p.productId, p.offering?.id ?? null, p.missingControls, p.on, p.distance])).toEqual([
      // Apex: eu-b and eu-a both qualify. bench 95 → 55/50 = 1.1 → clamped to 1, so both have innovation 100;
      // eu-b control = 100 × (1 + 3)/4 = 100, eu-a = 100 × (0.75 + 3)/4 = 93.75 → 93.8; scale 50 for both.
      // Innovation and Scale tie, so the smaller id: eu-a. Distance (0, 93.8 − 18.8, 0) = (0, 75, 0), |d| 75.
      [
        "apex",
        "eu-a",
        [],
        { innovation: 100, control: 93.8, scale: 50 },
        { innovation: 0, control: 75, scale: 0, magnitude: 75 },
      ],
      // Nova (nova-one): nothing qualifies → zeros, distance −off = (−86.7, −100, −50),
      // |d| = √(7516.89 + 10000 + 2500) = √20016.89 = 141.48 → 141.5.
      [
        "nova-one",
        null,
        ["eu-data-residency"],
        zeros,
        { innovation: -86.7, control: -100, scale: -50, magnitude: 141.5 },
      ],
      // Nova (nova-two) eu: residency true → control = 100 × (0.25 + 3)/4 = 81.25 → 81.3; 81.3 − 6.3 = 75.
      [
        "nova-two",
        "eu",
        [],
        { innovation: 86.7, control: 81.3, scale: 50 },
        { innovation: 0, control: 75, scale: 0, magnitude: 75 },
      ],
      // Orbit sovereign writes flag: null → 0 (not the default's true): innovation = 100 × 1.6/3 = 53.3.
      // uptime 99.5 below the all-equal field 99.9 → 0: scale 0. Control inherits: 75.
      // Distance (53.3 − 86.7, 0, 0 − 50) = (−33.4, 0, −50), |d| = √(1115.56 + 2500) = 60.13 → 60.1.
      [
        "orbit",
        "sovereign",
        [],
        { innovation: 53.3, control: 75, scale: 0 },
        { innovation: -33.4, control: 0, scale: -50, magnitude: 60.1 },
      ],
      // Zephyr: its default offering qualifies too, but plus has more Innovation: 100 × (0 + 1)/3 = 33.3.
      // uptime 99.99 ≥ 99.9 → 1; preview 3 has no field → 0: scale = 100 × 1/2 = 50. Control inherits 0.
      // Distance from (0, 0, 0): (33.3, 0, 50), |d| = √(1108.89 + 2500) = 60.07 → 60.1.
      [
        "zephyr",
        "plus",
        [],
        { innovation: 33.3, control: 0, scale: 50 },
        { innovation: 33.3, control: 0, scale: 50, magnitude: 60.1 },
      ],
      // eon b-eu: bench 30 → −10/50 = −0.2 → clamped to 0, flag false: innovation 0.
      // Control = 100 × (0.5 + 3)/4 = 87.5. Distance (−86.7, 75, 0), |d| = √(7516.89 + 5625) = 114.64 → 114.6.
      [
        "eon",
        "b-eu",
        [],
        { innovation: 0, control: 87.5, scale: 50 },
        { innovation: -86.7, control: 75, scale: 0, magnitude: 114.6 },
      ],
    ]);
    expect(xa.products.map((p) => p.available)).toEqual([true, false, true, true, true, true]);
  });

  it("XC: nothing moves without controls, even where a sovereign offering would score higher", () => {
    for (const moved of country("XC").products) {
      const published = scored().products.find((p) => p.productId === moved.productId);
      expect(moved).toMatchObject({ available: true, offering: { id: "public" }, missingControls: [] });
      expect(moved.on).toEqual(published?.scores);
      expect(moved.distance).toEqual({ ...zeros, magnitude: 0 });
    }
  });

  it("lists first the controls no offering satisfies, in control-id order", () => {
    const xe = country("XE");
    // XE is written eu-resident-ops, eu-data-residency, customer-held-keys; it is read in id order.
    expect(xe.controls).toEqual(["customer-held-keys", "eu-data-residency", "eu-resident-ops"]);
    expect(xe.byId("nova-one")?.missingControls).toEqual([
      "customer-held-keys",
      "eu-data-residency",
      "eu-resident-ops",
    ]);
    // Apex: eu-a and eu-b satisfy eu-data-residency; nobody the other two.
    expect(xe.byId("apex")?.missingControls).toEqual(["customer-held-keys", "eu-resident-ops"]);
    // Nova (nova-two): keys and eu cover two; nobody eu-resident-ops. Only that one is listed,
    // though the closest offering (keys or eu) lacks two.
    expect(xe.byId("nova-two")?.missingControls).toEqual(["eu-resident-ops"]);
    expect(xe.byId("zephyr")?.missingControls).toEqual(["customer-held-keys"]);
  });

  it("otherwise names what the offering closest to compliance lacks: most controls, then id", () => {
    // XE, eon: a-keys covers customer-held-keys, b-eu the other two; none covers all three.
    // b-eu covers 2 > 1, so it is closest although its id is larger: it lacks customer-held-keys.
    expect(country("XE").byId("eon")).toMatchObject({
      available: false,
      offering: null,
      missingControls: ["customer-held-keys"],
      on: zeros,
    });
    // XD = {customer-held-keys, eu-resident-ops}: a-keys and b-eu cover one each; the smaller id,
    // a-keys, is closest: it lacks eu-resident-ops.
    expect(country("XD").byId("eon")?.missingControls).toEqual(["eu-resident-ops"]);
  });

  it("XB: unavailable products retain zeros, whatever they lacked", () => {
    const xb = country("XB");
    expect(xb.products.map((p) => [p.productId, p.available, p.missingControls, p.on.innovation])).toEqual([
      ["apex", false, ["eu-resident-ops"], 0],
      ["nova-one", false, ["eu-data-residency", "eu-resident-ops"], 0],
      ["nova-two", false, ["eu-resident-ops"], 0],
      ["orbit", false, ["eu-resident-ops"], 0],
      ["zephyr", true, [], 33.3],
      ["eon", true, [], 0], // b-eu, clamped to 0 on Innovation, yet available
    ]);
  });
});

describe("normalisation to 0..1, per indicator", () => {
  const lower = { id: "n", axis: "innovation", name: "n", kind: "number", direction: "lower", weight: 1 } as const;

  it("clamps lower-is-better values outside the field", () => {
    // Field [100, 400]: 450 → 1 − 350/300 = −0.17 → 0; 50 → 1 + 50/300 = 1.17 → 1; 250 → 1 − 0.5 = 0.5.
    expect(normalize(lower, 450, { min: 100, max: 400 })).toBe(0);
    expect(normalize(lower, 50, { min: 100, max: 400 })).toBe(1);
    expect(normalize(lower, 250, { min: 100, max: 400 })).toBe(0.5);
  });

  it("scores 0 where the field is empty, even a value", () => {
    expect(normalize({ ...lower, direction: "higher" }, 3, undefined)).toBe(0);
  });
});

describe("what the file check refuses", () => {
  const rules = () => parseYaml(readFileSync(path.join(FIXTURES, "rules.yaml"), "utf8"));

  it("a level indicator with one level", () => {
    const market = rules();
    market.indicators[2].levels = ["certified"];
    expect(() => parseDefinition("rules.yaml", stringify(market))).toThrow(
      "rules.yaml: indicators[2].levels: a level indicator needs at least two levels",
    );
  });

  it("a number outside the indicator's range, which is a check, not the field", () => {
    // 95 is above the field [40, 90] and accepted (it is clamped when scored); 101 is outside range [0, 100].
    const market = rules();
    market.products[3].offerings[1].values.bench = 101;
    const definition = parseDefinition("rules.yaml", stringify(market));
    if (definition.kind !== "market") throw new Error("not a market");
    expect(() => checkMarket("rules.yaml", definition, fixtureGeographies().controls)).toThrow(
      'products[3].offerings[1].values.bench: score input 101 is out of range [0, 100] for "bench"',
    );
  });
});
