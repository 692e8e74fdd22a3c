/**
 * The sensitivity analysis is part of a release: stored at publish time with the release, through
 * the database's JSON and back unchanged, and a release stored without it (published before the
 * analysis existed) reads the same analysis, since the seed names the release. Every stored
 * interval of every demo release holds its published score and rank.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "@/db/schema";
import { AXES } from "@/server/1-domain/market-definition";
import { capaindex } from "@/server/2-readings/capaindex";
import { servicemax } from "@/server/2-readings/servicemax";
import { analyseSensitivity } from "@/server/2-scoring/sensitivity";
import { decodeRelease, readReleaseById, sensitivitySeed } from "@/server/3-catalog/store";
import { testDatabase } from "../helpers/database";

const database = testDatabase({ seeded: true });
let ids: number[] = [];

beforeAll(async () => {
  ids = (await database.db.select({ id: schema.releases.id }).from(schema.releases)).map((r) => r.id);
}, 120_000);

const storedRow = async (id: number) => {
  const [row] = await database.db.select().from(schema.releases).where(eq(schema.releases.id, id));
  if (!row) throw new Error(`no release ${id}`);
  return row;
};

describe("the stored sensitivity analysis", () => {
  it("is written with every release, seeded by the release, and reads back as analysed", async () => {
    expect(ids.length).toBeGreaterThanOrEqual(7);
    for (const id of ids) {
      const row = await storedRow(id);
      expect(row.sensitivity, `release ${id}`).not.toBeNull();
      expect(row.sensitivity?.seed).toBe(sensitivitySeed(row.marketId, row.release));
      const { definition, geographies } = await readReleaseById(database.db, id);
      expect(row.sensitivity).toEqual(
        analyseSensitivity(definition, geographies, { seed: `${row.marketId}#${row.release}` }),
      );
    }
  });

  it("is the same for a release stored without it: analysed on first read with the same seed", async () => {
    for (const id of ids) {
      const row = await storedRow(id);
      const results = await database.db
        .select({ country: schema.releaseCountryResults.country, result: schema.releaseCountryResults.result })
        .from(schema.releaseCountryResults)
        .where(eq(schema.releaseCountryResults.releaseId, id));
      const older = decodeRelease({ ...row, sensitivity: null }, results);
      expect(older.sensitivity).toEqual(row.sensitivity);
      expect(older.sensitivity).toBe(older.sensitivity); // analysed once, then kept
    }
  });

  it("holds every published score and rank of every demo release inside its interval", async () => {
    for (const id of ids) {
      const release = await readReleaseById(database.db, id);
      const analysis = release.sensitivity;
      for (const product of release.products)
        for (const axis of AXES) {
          const { interval } = analysis.products[product.productId]?.[axis] ?? { interval: { p5: NaN, p95: NaN } };
          expect(
            interval.p5,
            `${release.marketId}#${release.release} ${product.productId} ${axis}`,
          ).toBeLessThanOrEqual(product.scores[axis]);
          expect(interval.p95).toBeGreaterThanOrEqual(product.scores[axis]);
        }
      for (const p of capaindex(release).products) {
        expect(p.rankInterval.best).toBeLessThanOrEqual(p.rank);
        expect(p.rankInterval.worst).toBeGreaterThanOrEqual(p.rank);
      }
      for (const country of release.countries.keys())
        for (const p of servicemax(release, country).products) {
          expect(p.rankInterval.best, `${release.marketId} ${country} ${p.productId}`).toBeLessThanOrEqual(p.rank);
          expect(p.rankInterval.worst).toBeGreaterThanOrEqual(p.rank);
        }
    }
  });
});
