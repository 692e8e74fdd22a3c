/**
 * A large market's release read as the event loop reads it: its sensitivity (megabytes of JSON)
 * is not parsed with the row but read as text, in pieces, when a worker thread is handed the
 * release; the text is exactly what was stored, and the release shared with a thread reads back
 * with the same sensitivity. On both databases.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as t from "@/db/schema";
import { unparsedSensitivity } from "@/server/2-readings/release";
import { publishGeographies, publishMarket, readReleaseById } from "@/server/3-catalog/store";
import { openRelease, shareRelease } from "@/server/3-workers/shared-release";
import { testDatabase } from "../helpers/database";
import { generatedGeographies, generatedMarket } from "../helpers/generated-catalogue";

const PRODUCTS = 260; // past WORKER_MIN_PRODUCTS (200): read as a large market

describe("a large release's sensitivity", () => {
  const database = testDatabase();
  let releaseId: number;
  beforeAll(async () => {
    const geographies = generatedGeographies(30);
    await publishGeographies(database.db, "geographies.yaml", geographies);
    const market = generatedMarket(PRODUCTS, 20, {
      seed: 5,
      marketId: "generated-large",
      controls: geographies.controls.map((c) => c.id),
    });
    await publishMarket(database.db, "generated-large.json", market, {
      notes: "Generated for the large-release test.",
      material: false,
      publishedAt: new Date("2026-11-01T00:00:00Z"),
    });
    const [row] = await database.db
      .select({ id: t.releases.id })
      .from(t.releases)
      .where(eq(t.releases.marketId, "generated-large"));
    releaseId = row?.id as number;
  }, 120_000);

  it("is read as the stored text, in pieces past a megabyte, and never parsed on the event loop", async () => {
    const [stored] = await database.db
      .select({ sensitivity: t.releases.sensitivity })
      .from(t.releases)
      .where(eq(t.releases.id, releaseId));
    const release = await readReleaseById(database.db, releaseId);
    const text = await unparsedSensitivity(release);
    expect(typeof text).toBe("string");
    expect((text as string).length).toBeGreaterThan(1 << 20);
    expect(JSON.parse(text as string)).toEqual(stored?.sensitivity);
  });

  it("reaches a worker thread's copy of the release whole", async () => {
    const release = await readReleaseById(database.db, releaseId);
    const opened = openRelease(await shareRelease(release));
    expect(opened.products).toHaveLength(PRODUCTS);
    expect(opened.sensitivity).toEqual(release.sensitivity);
  });
});
