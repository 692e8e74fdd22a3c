/**
 * Sovereignty profiles, gates and restated history (server/2-readings/sovereignty.ts, gates.ts,
 * restated.ts): fast-check properties over the fixture market with generated mappings and gates —
 * the overall level is the weakest objective's, no product leaves a gated reading without naming
 * a gate it failed, a release restated under its own methodology is itself — and the demo
 * catalogue showing every level.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkGeographies, checkMarket, marketIssues, parseDefinition } from "@/server/1-domain/definition-checks";
import type { Control, IndicatorSov, MarketFile } from "@/server/1-domain/market-definition";
import { SOV_OBJECTIVE_IDS, type SovObjective } from "@/server/1-domain/sovereignty";
import type { GateVerdict } from "@/server/2-readings/gates";
import { rankBy } from "@/server/2-readings/rank";
import { restate } from "@/server/2-readings/restated";
import { servicemax } from "@/server/2-readings/servicemax";
import { indicatorLevel, sovereigntyProfile } from "@/server/2-readings/sovereignty";
import { fixtureGeographies, fixtureMarket } from "../helpers/fixtures";
import { scoredRelease } from "../helpers/scored-release";

const geographies = fixtureGeographies();
const market = fixtureMarket();
const objective = fc.constantFrom(...SOV_OBJECTIVE_IDS);
const level = fc.integer({ min: 0, max: 4 });

/** Sovereignty mappings for the fixture's controls and Control-axis indicators, fitting each kind. */
const mappingsArb = fc.record({
  controls: fc.array(fc.uniqueArray(fc.record({ objective, level }), { selector: (m) => m.objective, maxLength: 3 }), {
    minLength: geographies.controls.length,
    maxLength: geographies.controls.length,
  }),
  indicators: fc.array(
    fc.uniqueArray(
      fc.record({
        objective,
        level,
        levels: fc.array(level, { minLength: 5, maxLength: 5 }),
        thresholds: fc.array(fc.record({ from: fc.integer({ min: 0, max: 100 }), level }), {
          minLength: 1,
          maxLength: 3,
        }),
      }),
      { selector: (m) => m.objective, maxLength: 3 },
    ),
    { minLength: market.indicators.length, maxLength: market.indicators.length },
  ),
  // Every objective mapped somewhere, or the overall level is null (checked on its own below).
  everyObjective: fc.boolean(),
});

function apply(mappings: {
  controls: { objective: SovObjective; level: number }[][];
  indicators: {
    objective: SovObjective;
    level: number;
    levels: number[];
    thresholds: { from: number; level: number }[];
  }[][];
  everyObjective: boolean;
}) {
  const controls: Control[] = geographies.controls.map((c, i) => ({ ...c, sov: mappings.controls[i] ?? [] }));
  if (mappings.everyObjective) {
    const first = controls[0] as Control;
    controls[0] = { ...first, sov: SOV_OBJECTIVE_IDS.map((o) => ({ objective: o, level: 1 })) };
  }
  const definition: MarketFile = structuredClone(market);
  definition.indicators = definition.indicators.map((indicator, i) => {
    if (indicator.axis !== "control") return indicator;
    const sov: IndicatorSov[] = (mappings.indicators[i] ?? []).map((m) =>
      indicator.kind === "boolean"
        ? { objective: m.objective, level: m.level }
        : indicator.kind === "level"
          ? {
              objective: m.objective,
              levels: Object.fromEntries(indicator.levels.map((name, n) => [name, m.levels[n] ?? 0])),
            }
          : { objective: m.objective, thresholds: m.thresholds },
    );
    return { ...indicator, sov };
  });
  expect(marketIssues(definition, controls)).toEqual([]);
  return scoredRelease(definition, geographies.geographies, controls, { draws: 30 });
}

const countries = [null, ...geographies.geographies.map((g) => g.country)];

describe("a sovereignty profile", () => {
  it("has the weakest objective's level overall, each objective the highest level of its facts", () => {
    fc.assert(
      fc.property(mappingsArb, (mappings) => {
        const release = apply(mappings);
        for (const country of countries)
          for (const product of market.products) {
            const profile = sovereigntyProfile(release, product.productId, country);
            if (!profile) throw new Error("no profile");
            const levels = profile.objectives.map((o) => o.level);
            if (levels.includes(null)) expect(profile.overall).toEqual({ level: null, weakest: [] });
            else {
              const min = Math.min(...(levels as number[]));
              expect(profile.overall.level).toBe(min);
              expect(profile.overall.weakest).toEqual(
                profile.objectives.filter((o) => o.level === min).map((o) => o.objective),
              );
            }
            for (const o of profile.objectives)
              if (o.level !== null) expect(o.level).toBe(Math.max(0, ...o.facts.map((f) => f.level)));
          }
      }),
      { numRuns: 60 },
    );
  });

  it("reads each kind of indicator as its mapping says, in the indicator's direction", () => {
    const number = { id: "n", axis: "control", name: "n", kind: "number", direction: "higher", weight: 1 } as const;
    const thresholds = {
      objective: "SOV-7" as const,
      thresholds: [
        { from: 2, level: 1 },
        { from: 4, level: 3 },
      ],
    };
    expect([0, 2, 3, 4, 9].map((v) => indicatorLevel(number, thresholds, v))).toEqual([0, 1, 1, 3, 3]);
    const lower = { ...number, direction: "lower" } as const;
    expect(
      [50, 20, 0].map((v) =>
        indicatorLevel(
          lower,
          {
            objective: "SOV-6",
            thresholds: [
              { from: 20, level: 1 },
              { from: 0, level: 2 },
            ],
          },
          v,
        ),
      ),
    ).toEqual([0, 1, 2]);
    const yes = { id: "b", axis: "control", name: "b", kind: "boolean", weight: 1 } as const;
    expect([true, false, null].map((v) => indicatorLevel(yes, { objective: "SOV-2", level: 3 }, v))).toEqual([3, 0, 0]);
    const levels = {
      id: "l",
      axis: "control" as const,
      name: "l",
      kind: "level" as const,
      levels: ["a", "b", "c"],
      weight: 1,
    };
    expect(
      ["a", "b", "c"].map((v) => indicatorLevel(levels, { objective: "SOV-3", levels: { b: 2, c: 4 } }, v)),
    ).toEqual([0, 2, 4]);
  });

  it("refuses mappings that do not fit their indicator, and control evidence for a control not satisfied", () => {
    const definition: MarketFile = structuredClone(market);
    const residency = definition.indicators.find((i) => i.id === "residency");
    const cert = definition.indicators.find((i) => i.id === "cert");
    const bench = definition.indicators.find((i) => i.id === "bench");
    if (!residency || !cert || !bench) throw new Error("fixture indicators");
    residency.sov = [{ objective: "SOV-3", levels: { yes: 2 } }];
    cert.sov = [{ objective: "SOV-7", levels: { platinum: 4 } }];
    bench.sov = [{ objective: "SOV-6", thresholds: [{ from: 1, level: 1 }] }];
    const first = definition.products[0]?.offerings[0];
    if (!first) throw new Error("fixture offering");
    first.controlEvidence = { "customer-held-keys": { source: "doc", asOf: "2026-01-01" } };
    const messages = marketIssues(definition, geographies.controls).map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /residency\b.*a boolean indicator maps an objective with `level` only|indicators\.\d+\.sov\.0: a boolean/,
        ),
        expect.stringMatching(/"platinum" is not a level of cert/),
        expect.stringMatching(/only Control-axis indicators evidence sovereignty objectives/),
        expect.stringMatching(/evidence for a control this offering does not satisfy: "customer-held-keys"/),
      ]),
    );
  });
});

describe("the caller's gates on the Max reading", () => {
  const gatesArb = fc.record({
    minSeal: fc.option(fc.constantFrom(0, 1, 2, 3, 4) as fc.Arbitrary<0 | 1 | 2 | 3 | 4>, { nil: undefined }),
    requireControls: fc.subarray(geographies.controls.map((c) => c.id)),
  });

  it("keeps every product: those that pass ranked among themselves, the rest after, each naming a gate it failed", () => {
    fc.assert(
      fc.property(mappingsArb, gatesArb, (mappings, gates) => {
        const release = apply(mappings);
        for (const country of release.countries.keys()) {
          const plain = servicemax(release, country);
          const answer = servicemax(release, country, gates);
          type Judged = (typeof answer.products)[number] & { gate?: GateVerdict; publishedRank?: number };
          const products = answer.products as Judged[];
          if (gates.minSeal === undefined && gates.requireControls.length === 0) {
            // No gate asked: the reading as published, with no verdicts.
            expect(answer).toEqual(plain);
            continue;
          }
          expect(products.map((p) => p.productId).sort()).toEqual(plain.products.map((p) => p.productId).sort());
          const passing = products.filter((p) => p.gate?.passed);
          const failing = products.filter((p) => !p.gate?.passed);
          expect(products).toEqual([...passing, ...failing]);
          const satisfies = (productId: string, offeringId: string | undefined) =>
            new Set(
              release.definition.products
                .find((p) => p.productId === productId)
                ?.offerings.find((o) => o.id === offeringId)?.satisfies ?? [],
            );
          for (const p of failing) {
            expect(p.gate?.failed.length, p.productId).toBeGreaterThan(0);
            expect(p.rank).toBe(passing.length + 1);
          }
          for (const p of passing) {
            expect(p.available).toBe(true);
            if (gates.minSeal !== undefined) expect(p.seal?.level ?? -1).toBeGreaterThanOrEqual(gates.minSeal);
            for (const id of gates.requireControls) expect(satisfies(p.productId, p.offering?.id).has(id)).toBe(true);
          }
          // Those that pass are ranked as the reading ranks, among themselves.
          expect(passing.map((p) => p.rank)).toEqual(rankBy(passing, (p) => p.on.innovation).map((p) => p.rank));
          // Nothing else about a product changes.
          for (const p of products) {
            const before = plain.products.find((q) => q.productId === p.productId);
            expect(p.on).toEqual(before?.on);
            expect(p.publishedRank).toBe(before?.rank);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("a restated history", () => {
  it("restates a release under its own methodology as it was published", () => {
    fc.assert(
      fc.property(mappingsArb, (mappings) => {
        const release = apply(mappings);
        const again = restate(release, release);
        for (const p of release.products)
          expect(again.products.get(p.productId)).toEqual({ scores: p.scores, bands: p.bands, gaps: p.gaps });
        expect(again.unreadable.size).toBe(0);
      }),
      { numRuns: 20 },
    );
  });

  it("measures an older release with a later methodology: new indicators as gaps, a changed kind unreadable", () => {
    const later: MarketFile = structuredClone(market);
    later.methodologyVersion = "2.0";
    later.indicators = [
      ...later.indicators.map((i) =>
        i.id === "multimodal" ? { ...i, kind: "level" as const, levels: ["no", "yes"] } : i,
      ),
      { id: "new-one", axis: "innovation", name: "New", kind: "boolean", weight: 1 },
    ];
    // The later release writes multimodal as a level: its own values fit its own method.
    for (const product of later.products)
      for (const offering of product.offerings)
        if (typeof offering.values.multimodal === "boolean")
          offering.values.multimodal = offering.values.multimodal ? "yes" : "no";
    const earlier = scoredRelease(market, geographies.geographies, geographies.controls, { release: 1, draws: 20 });
    const yardstick = scoredRelease(
      checkMarket("later", later, geographies.controls),
      geographies.geographies,
      geographies.controls,
      {
        release: 2,
        draws: 20,
      },
    );
    const restated = restate(earlier, yardstick);
    expect(restated.yardstick).toEqual({ release: 2, methodologyVersion: "2.0" });
    for (const p of earlier.products) {
      expect(restated.products.get(p.productId)?.gaps).toContain("new-one");
      expect(restated.unreadable.get(p.productId)).toEqual(["multimodal"]);
    }
    // The published release is untouched.
    expect(earlier.products[0]?.gaps).not.toContain("new-one");
  });
});

describe("the demo catalogue", () => {
  it("shows every SEAL level, per objective and overall", () => {
    const root = path.resolve(import.meta.dirname, "../../db/demo");
    const read = (file: string) => parseDefinition(file, readFileSync(path.join(root, file), "utf8"));
    const geo = checkGeographies("geographies.yaml", read("geographies.yaml") as never);
    const objective = new Set<number | null>();
    const overall = new Set<number | null>();
    for (const file of [
      "foundation-model-apis.r3",
      "managed-kubernetes",
      "object-storage",
      "speech-to-text",
      "vector-databases",
    ]) {
      const definition = checkMarket(file, read(`markets/${file}.yaml`) as never, geo.controls);
      const release = scoredRelease(definition, geo.geographies, geo.controls, { draws: 20 });
      for (const country of [null, ...release.countries.keys()])
        for (const p of definition.products) {
          const profile = sovereigntyProfile(release, p.productId, country);
          if (!profile?.available) continue;
          for (const o of profile.objectives) objective.add(o.level);
          overall.add(profile.overall.level);
          // Every fact a level stands on has its source, or is a control the catalogue asserts.
          for (const o of profile.objectives)
            for (const f of o.facts)
              if (f.kind === "indicator" && f.level > 0) expect(f.source, `${p.productId} ${f.id}`).not.toBeNull();
        }
    }
    expect([...objective].sort()).toEqual([0, 1, 2, 3, 4]);
    expect([...overall].sort()).toEqual([0, 1, 2, 3, 4]);
  });
});
