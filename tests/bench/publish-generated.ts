/**
 * Child process of the scoring benchmark: publishes a generated market into the database the
 * environment names (as the CLI would, through the same publish code), timing the publish alone
 * and reporting peak memory beside what the opened database already took. One JSON line.
 *   tsx tests/bench/publish-generated.ts PRODUCTS INDICATORS GEOGRAPHIES
 */
import { databaseConfigFromEnv, openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { publishGeographies, publishMarket } from "@/server/3-catalog/store";
import { generatedGeographies, generatedMarket } from "../helpers/generated-catalogue";

const [products = 1000, indicators = 50, geographies = 60] = process.argv.slice(2).map(Number);
const handle = await openDatabase(databaseConfigFromEnv());
try {
  await migrateDatabase(handle);
  await publishGeographies(handle.db, "geographies.json", generatedGeographies(geographies));
  const market = generatedMarket(products, indicators);
  const openedRssMiB = process.memoryUsage().rss / 2 ** 20;
  const openedPeakMiB = process.resourceUsage().maxRSS / 1024;
  const started = performance.now();
  await publishMarket(handle.db, "market.json", market, {
    notes: "benchmark",
    material: false,
    publishedAt: new Date(),
  });
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ms, openedRssMiB, openedPeakMiB, peakMiB: process.resourceUsage().maxRSS / 1024 }));
} finally {
  await handle.close();
}
