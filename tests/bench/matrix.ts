/**
 * The availability matrix and the product breakdown at size: a generated market of 1,000 products
 * × 50 indicators under 60 geographies, published into embedded PGlite, served by `npm start`.
 * Latency is what counts here (one analyst asking), so one connection; the snapshot of the same
 * market is measured beside it as the baseline. Target: the matrix at p50 < 50 ms.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "@/db/client";
import { publishGeographies, publishMarket } from "@/server/catalog/store";
import { demoCatalogueWithOrganization } from "../helpers/accounts";
import { generatedGeographies, generatedMarket } from "../helpers/generated-catalogue";
import { startApp } from "../helpers/server";
import { type Figures, header, measure, row, SECONDS } from "./measure";

export const MATRIX_TARGET_P50_MS = 50;

/** One connection: latency is what counts here (one analyst asking), not throughput. */
const latency = (name: string, url: string, headers: Record<string, string>) => measure(name, url, headers, 1);

export async function matrixBench(products = 1000, indicators = 50, geographies = 60): Promise<Figures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "mps-bench-matrix-"));
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
  const headers = { Authorization: `Bearer ${token}` };
  const market = `${app.url}/v1/markets/generated-market`;
  try {
    console.log(
      `\nExplained numbers on a generated market of ${products} products × ${indicators} indicators under ${geographies} geographies (PGlite, 1 connection, ${SECONDS} s each)`,
    );
    console.log(header());
    const snapshot = await latency("GET … /snapshot (baseline)", `${market}/snapshot`, headers);
    const matrix = await latency("GET … /availability", `${market}/availability`, headers);
    const product = await latency(
      "GET … /products/{id}?country=AB",
      `${market}/products/product-500?country=AB`,
      headers,
    );
    console.log(row(snapshot));
    console.log(row(matrix, snapshot));
    console.log(row(product, snapshot));
    console.log(
      `  availability matrix p50 ${matrix.p50.toFixed(1)} ms (target < ${MATRIX_TARGET_P50_MS} ms: ${matrix.p50 < MATRIX_TARGET_P50_MS ? "met" : "MISSED"})`,
    );
    return matrix;
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
