/**
 * `npm start` on a generated market at size (1,000 products × 50 indicators under 60 geographies by
 * default), published into a fresh embedded PGlite folder with a token that may spend without end:
 * what the benchmarks at size measure against.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "@/db/client";
import { publishGeographies, publishMarket } from "@/server/3-catalog/store";
import { demoCatalogueWithOrganization } from "../helpers/accounts";
import { generatedGeographies, generatedMarket } from "../helpers/generated-catalogue";
import { type RunningApp, startApp } from "../helpers/server";

export interface SizedApp {
  app: RunningApp;
  headers: Record<string, string>;
  /** The generated market's /v1 URL. */
  market: string;
  stop(): Promise<void>;
}

export async function sizedApp(name: string, products = 1000, indicators = 50, geographies = 60): Promise<SizedApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `mps-bench-${name}-`));
  const handle = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
  let token: string;
  try {
    token = (await demoCatalogueWithOrganization(handle, "Bench", 2_000_000_000)).token;
    await publishGeographies(handle.db, "geographies.json", generatedGeographies(geographies));
    await publishMarket(handle.db, "market.json", generatedMarket(products, indicators), {
      notes: "benchmark",
      material: false,
      publishedAt: new Date(),
    });
  } finally {
    await handle.close();
  }
  const app = await startApp({ DATABASE_URL: "", DATA_DIR: dataDir, RATE_LIMIT: "1000000000", REDIS_URL: "" });
  return {
    app,
    headers: { Authorization: `Bearer ${token}` },
    market: `${app.url}/v1/markets/generated-market`,
    stop: async () => {
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
