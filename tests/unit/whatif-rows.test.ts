/**
 * What the what-if view shows (components/market/what-if-rows.ts), from the what-if reading of the
 * demo catalogue: by Innovation the API's own rankings; by Control or Scale the same competition
 * ranking of the recomputed scores against the published ones; the unavailable set apart, never
 * ranked; and what each axis moved.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { WhatIfReading } from "@/components/market/reading-types";
import { axisMoves, rankMoves, scoreChange, signedScore, whatIfRows } from "@/components/market/what-if-rows";
import { checkGeographies, checkMarket, parseDefinition } from "@/server/1-domain/definition-checks";
import { whatif } from "@/server/2-readings/whatif";
import { scoredRelease } from "../helpers/scored-release";

const root = path.resolve(import.meta.dirname, "../../db/demo");
const read = (file: string) => parseDefinition(file, readFileSync(path.join(root, file), "utf8"));
const geo = checkGeographies("geographies.yaml", read("geographies.yaml") as never);
const market = checkMarket("r3", read("markets/foundation-model-apis.r3.yaml") as never, geo.controls);
const release = scoredRelease(market, geo.geographies, geo.controls, { draws: 20 });
/** The reading as the dashboard receives it (the router's output is this payload). */
const reading = (weights: [string, number][], country = "FR") =>
  whatif(release, new Map(weights), country) as WhatIfReading;

describe("the what-if view's rows", () => {
  it("by Innovation are the API's rankings, with the unavailable set apart, by name", () => {
    const payload = reading([["reasoning-benchmark", 0]]);
    const rows = whatIfRows(payload, "innovation");
    expect(rows.capabilityIndex.map((r) => [r.productId, r.rank, r.publishedRank, r.rankChange])).toEqual(
      payload.capabilityIndex.products.map((p) => [p.productId, p.rank, p.publishedRank, p.rankChange]),
    );
    const usable = payload.max?.products.filter((p) => p.available) ?? [];
    expect(rows.max?.ranked.map((r) => [r.productId, r.rank, r.rankChange, r.now])).toEqual(
      usable.map((p) => [p.productId, p.rank, p.rankChange, p.on]),
    );
    const unavailable = payload.max?.products.filter((p) => !p.available).map((p) => p.name) ?? [];
    expect(unavailable.length).toBeGreaterThan(0);
    expect(rows.max?.unavailable.map((p) => p.name)).toEqual([...unavailable].sort());
    expect(rows.max?.ranked.some((r) => unavailable.includes(r.name))).toBe(false);
  });

  it("by Control rank the recomputed Control, highest first, against the rank the published Control gives", () => {
    const published = whatIfRows(reading([["key-custody", 2]]), "control");
    for (const row of [...published.capabilityIndex, ...(published.max?.ranked ?? [])]) expect(row.rankChange).toBe(0);

    const rows = whatIfRows(reading([["key-custody", 0]]), "control");
    const index = rows.capabilityIndex;
    for (let i = 1; i < index.length; i++) {
      const [before, row] = [index[i - 1], index[i]] as [(typeof index)[0], (typeof index)[0]];
      expect(before.now.control).toBeGreaterThanOrEqual(row.now.control);
      // Competition ranking: a tie shares the rank, the next one skips.
      expect(row.rank).toBe(before.now.control === row.now.control ? before.rank : i + 1);
    }
    const byPublished = [...index].sort((a, b) => b.published.control - a.published.control);
    for (const row of index) {
      const publishedRank = byPublished.findIndex((r) => r.published.control === row.published.control) + 1;
      expect(row.publishedRank).toBe(publishedRank);
      expect(row.rankChange).toBe(publishedRank - row.rank);
    }
    expect(rankMoves(index)).toBeGreaterThan(0);
  });

  it("says what each axis moved: a Control weight moves Control alone", () => {
    const rows = whatIfRows(reading([["key-custody", 0]]), "innovation");
    const [innovation, control, scale] = axisMoves(rows.capabilityIndex);
    expect(innovation).toMatchObject({ axis: "innovation", changed: 0, largest: null });
    expect(scale).toMatchObject({ axis: "scale", changed: 0, largest: null });
    const changes = rows.capabilityIndex.map((r) => scoreChange(r, "control")).filter((c) => c !== 0);
    expect(control?.changed).toBe(changes.length);
    expect(Math.abs(control?.largest?.change ?? 0)).toBe(Math.max(...changes.map(Math.abs)));
  });

  it("writes a change with its sign, a true minus and one decimal", () => {
    expect([signedScore(4.25), signedScore(-0.5), signedScore(0)]).toEqual(["+4.3", "−0.5", "0"]);
    const row = {
      now: { innovation: 0.3, control: 0, scale: 0 },
      published: { innovation: 0.1, control: 0, scale: 0 },
    };
    expect(scoreChange(row as never, "innovation")).toBe(0.2);
  });
});
