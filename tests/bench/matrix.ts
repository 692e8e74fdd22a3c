/**
 * The availability matrix and the product breakdown at size: a generated market of 1,000 products
 * × 50 indicators under 60 geographies, published into embedded PGlite, served by `npm start`.
 * Latency is what counts here (one analyst asking), so one connection; the snapshot of the same
 * market is measured beside it as the baseline. Target: the matrix at p50 < 50 ms.
 */
import { type Figures, header, measure, row, SECONDS } from "./measure";
import { sizedApp } from "./sized-app";

export const MATRIX_TARGET_P50_MS = 50;

/** One connection: latency is what counts here (one analyst asking), not throughput. */
const latency = (name: string, url: string, headers: Record<string, string>) => measure(name, url, headers, 1);

export async function matrixBench(products = 1000, indicators = 50, geographies = 60): Promise<Figures> {
  const sized = await sizedApp("matrix", products, indicators, geographies);
  const { headers, market } = sized;
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
    await sized.stop();
  }
}
