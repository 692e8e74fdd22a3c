/**
 * Every number explains itself, on the stored demo catalogue: for every product of every demo
 * market and release, the breakdown's contributions add up to the published scores (and, under
 * every country, to the scores under controls), and every cell of the availability matrix is what
 * the Delta reading says for that country.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "@/db/schema";
import { AXES } from "@/server/1-domain/market-definition";
import { availability } from "@/server/2-readings/availability";
import { delta } from "@/server/2-readings/delta";
import { product as productBreakdown, scoringFrame } from "@/server/2-readings/product";
import type { ReleaseData } from "@/server/2-readings/release";
import { readReleaseById } from "@/server/3-catalog/store";
import { testDatabase } from "../helpers/database";

const database = testDatabase({ seeded: true });
const releases: ReleaseData[] = [];

/** Sums in tenths, so float noise cannot hide or fake a mismatch. */
const tenths = (values: number[]) => values.reduce((sum, value) => sum + Math.round(value * 10), 0);

beforeAll(async () => {
  // Archived markets included: their releases stay readable by number.
  const stored = await database.db.select({ id: schema.releases.id }).from(schema.releases);
  for (const { id } of stored) releases.push(await readReleaseById(database.db, id));
}, 120_000);

describe("the product breakdown", () => {
  it("covers every demo market and release", () => {
    expect(new Set(releases.map((r) => r.marketId)).size).toBeGreaterThanOrEqual(5);
    expect(releases.filter((r) => r.marketId === "foundation-model-apis").map((r) => r.release)).toEqual(
      expect.arrayContaining([1, 2, 3]),
    );
  });

  it("adds up to the published score on every axis of every product", () => {
    let checked = 0;
    for (const release of releases) {
      const frame = scoringFrame(release.definition);
      for (const product of release.products) {
        const detail = productBreakdown(release, product.productId, null, frame);
        expect(detail.scores).toEqual(product.scores);
        for (const axis of AXES) {
          const label = `${release.marketId}#${release.release} ${product.productId} ${axis}`;
          const contributions = detail.axes[axis].indicators.map((i) => i.contribution);
          expect(tenths(contributions), label).toBe(Math.round(product.scores[axis] * 10));
          // Every indicator of the axis is listed once, with its weight.
          const ids = release.definition.indicators.filter((i) => i.axis === axis).map((i) => i.id);
          expect(detail.axes[axis].indicators.map((i) => i.indicatorId).sort(), label).toEqual([...ids].sort());
          // A gap contributes nothing.
          for (const i of detail.axes[axis].indicators) if (i.gap) expect(i.contribution, label).toBe(0);
          checked++;
        }
        // The default offering's scores are the published ones.
        expect(detail.offerings[0]?.default).toBe(true);
        expect(detail.offerings[0]?.scores).toEqual(product.scores);
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("adds up to the scores under controls for every country, and its changes to the distance", () => {
    for (const release of releases) {
      const frame = scoringFrame(release.definition);
      for (const [country, result] of release.countries) {
        for (const moved of result.products) {
          const detail = productBreakdown(release, moved.productId, country, frame);
          const under = detail.underControls;
          const label = `${release.marketId}#${release.release} ${moved.productId} ${country}`;
          expect(under?.available, label).toBe(moved.available);
          expect(under?.offering, label).toEqual(moved.offering);
          expect(under?.underControls, label).toEqual(moved.on);
          for (const axis of AXES) {
            const indicators = under?.axes[axis].indicators ?? [];
            expect(tenths(indicators.map((i) => i.contribution)), `${label} ${axis}`).toBe(
              Math.round(moved.on[axis] * 10),
            );
            expect(tenths(indicators.map((i) => i.change)), `${label} ${axis}`).toBe(
              Math.round(moved.distance[axis] * 10),
            );
          }
          // An offering other than the default is scored as the engine scored it for this country.
          const engaged = detail.offerings.find((o) => o.offeringId === moved.offering?.id);
          if (moved.available) expect(engaged?.scores, label).toEqual(moved.on);
        }
      }
    }
  });
});

describe("the availability matrix", () => {
  it("equals the Delta reading for every country, every product, every demo release", () => {
    let cells = 0;
    for (const release of releases) {
      const matrix = availability(release, release.geographies);
      expect(matrix.countries.map((c) => c.country)).toEqual([...release.countries.keys()].sort());
      expect(matrix.products.map((p) => p.productId)).toEqual(release.products.map((p) => p.productId));
      matrix.countries.forEach((column, c) => {
        const reading = delta(release, column.country);
        expect(column.controls).toEqual(reading.controls);
        for (const [index, row] of matrix.products.entries()) {
          const expected = reading.products[index];
          const cell = row.cells[c];
          expect(cell, `${release.marketId} ${row.productId} ${column.country}`).toEqual({
            country: column.country,
            available: expected?.available,
            offeringId: expected?.offering?.id ?? null,
            innovationRetained: expected?.underControls.innovation,
            distance: expected?.distance.magnitude,
            missingControls: expected?.missingControls,
          });
          cells++;
        }
      });
      for (const row of matrix.products) expect(row.availableIn).toBe(row.cells.filter((c) => c.available).length);
    }
    expect(cells).toBeGreaterThan(1000);
  });
});
