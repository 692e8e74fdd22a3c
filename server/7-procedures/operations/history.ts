import { z } from "zod";
import { notFound } from "../../1-errors/api-error";
import { productHistory, restate } from "../../2-readings/restated";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { LISTS_PRODUCTS } from "../pointers";
import { marketIdParam, releaseParam } from "../schemas";
import { productIdParam } from "../sovereignty-schemas";
import { scoresText } from "./text";

const axisScores = z.object({ innovation: z.number(), control: z.number(), scale: z.number() });
const axisBands = z.object({ innovation: z.string(), control: z.string(), scale: z.string() });

export const historySchema = z
  .object({
    marketId: z.string(),
    productId: z.string(),
    name: z.string(),
    vendor: z.string(),
    yardstick: z
      .object({ release: z.number().int().positive(), methodologyVersion: z.string() })
      .meta({ description: "The release whose methodology every release is restated under." }),
    releases: z.array(
      z.object({
        release: z.number().int().positive(),
        lastUpdated: z.string(),
        methodologyVersion: z.string().meta({ description: "The methodology it was published under." }),
        published: z.object({ scores: axisScores, bands: axisBands }),
        restated: z
          .object({
            methodologyVersion: z.string(),
            scores: axisScores,
            bands: axisBands,
            gaps: z.array(z.string()),
            unreadable: z.array(z.string()).meta({
              description: "Indicators whose value this methodology cannot read (counted as not demonstrated).",
            }),
          })
          .meta({
            description:
              "Restated: the release's own values re-scored under the yardstick's methodology. Not published.",
          }),
      }),
    ),
    note: z.string(),
  })
  .meta({
    id: "ProductHistory",
    description:
      "A product's releases as published and restated under one methodology, so that only like is compared with like.",
  });

const NOTE =
  "Restated values re-score each release's own values and field under the yardstick release's methodology (indicators, weights, bands), so that only like is compared with like. They are computed, never published: every release stays as it was published.";

export const history = declareReading({
  group: "readings",
  name: "history",
  scope: MARKET_READ_SCOPE,
  credits: 2,
  path: "/markets/{marketId}/products/{productId}/history",
  summary: "Product history, restated",
  description:
    "One product's scores and bands in every release, as published and restated under the methodology of the yardstick `release` (default the latest): each release's own values and field re-scored with its indicators, weights and bands. Published releases never change.",
  input: z.object({ marketId: marketIdParam, productId: productIdParam, release: releaseParam }),
  output: historySchema,
  example: { marketId: "foundation-model-apis", productId: "quillmere-atlas" },
  caching: "release",
  releases: "history",
  compute: ({ release, history: releases, cached }, input) => {
    const all = releases ?? [release];
    const rows = productHistory(all, release, input.productId, (earlier) =>
      cached(`restated:${earlier.release}`, () => restate(earlier, release)),
    );
    const product = [...all]
      .reverse()
      .find((r) => r.products.some((p) => p.productId === input.productId))
      ?.products.find((p) => p.productId === input.productId);
    if (!product || rows.length === 0)
      throw notFound(
        `Market "${release.marketId}" has no product "${input.productId}" in releases 1 to ${release.release}.`,
        LISTS_PRODUCTS,
      );
    return {
      marketId: release.marketId,
      productId: product.productId,
      name: product.name,
      vendor: product.vendor,
      yardstick: { release: release.release, methodologyVersion: release.methodologyVersion },
      releases: rows,
      note: NOTE,
    };
  },
  tool: {
    name: "service_market_get_product_history",
    text: (p) =>
      [
        `${p.name} (${p.vendor}) in ${p.marketId}, every release restated under release ${p.yardstick.release}'s methodology ${p.yardstick.methodologyVersion}:`,
        ...p.releases.map(
          (r) =>
            `release ${r.release} (${r.lastUpdated.slice(0, 10)}, methodology ${r.methodologyVersion}): published ${scoresText(r.published.scores)}; restated ${scoresText(r.restated.scores)}`,
        ),
        NOTE,
      ].join("\n"),
  },
});
