import { AXIS_LABELS } from "../../domain/market-definition";
import { notFound } from "../../errors/api-error";
import { nameList } from "../../formats/name-list";
import { signed } from "../../readings/comparison-summary";
import { product as productOf, scoringFrame, UnknownProductError } from "../../readings/product";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { LISTS_PRODUCTS } from "../pointers";
import { productInput, productSchema } from "../schemas";
import { releaseHeader, scoresText } from "./text";

const valueText = (value: number | boolean | string | null, unit: string | null) =>
  value === null
    ? "not demonstrated"
    : typeof value === "boolean"
      ? value
        ? "yes"
        : "no"
      : `${value}${unit ? ` ${unit}` : ""}`;

export const product = declareReading({
  group: "readings",
  name: "product",
  scope: MARKET_READ_SCOPE,
  credits: 2,
  path: "/markets/{marketId}/products/{productId}",
  summary: "Product breakdown",
  description:
    "One product of a market taken apart: published scores and bands; per axis, each indicator's raw and normalised value, unit, weight and contribution in points (adding up to the score), the field's min and max, its evidence (source, as-of date, confidence) and gaps; its offerings, the values each overrides and the controls each satisfies. With `country`: the offering engaged there (or the controls missing) and what each indicator keeps.",
  input: productInput,
  output: productSchema,
  example: { marketId: "foundation-model-apis", productId: "quillmere-atlas", country: "FR" },
  // A breakdown touches one product: computed per call from the release's scoring frame (kept).
  caching: "per-call",
  releases: "one",
  country: "optional",
  compute: ({ release, country, cached }, input) => {
    const frame = cached("scoring-frame", (data) => scoringFrame(data.definition));
    try {
      return productOf(release, input.productId, country, frame);
    } catch (error) {
      if (error instanceof UnknownProductError)
        throw notFound(
          `Market "${release.marketId}" has no product "${input.productId}" in release ${release.release}.`,
          LISTS_PRODUCTS,
        );
      throw error;
    }
  },
  tool: {
    name: "service_market_get_product",
    /**
     * A product's breakdown as a model can quote it: per axis, the score and what each indicator
     * contributes (largest first), with the evidence's date and confidence; then the country's part.
     */
    text: (payload) => {
      const lines = [
        `${payload.name} (${payload.vendor}) in ${releaseHeader(payload)}: ${scoresText(payload.scores)}.`,
      ];
      for (const axis of ["innovation", "control", "scale"] as const) {
        const breakdown = payload.axes[axis];
        lines.push(`${AXIS_LABELS[axis]} ${breakdown.score} (${breakdown.band}) =`);
        for (const i of [...breakdown.indicators].sort((a, b) => b.contribution - a.contribution)) {
          const evidence = i.evidence
            ? ` [${i.evidence.confidence ?? "source"} as of ${i.evidence.asOf}]`
            : i.gap
              ? ""
              : " [no evidence given]";
          lines.push(
            `  ${i.contribution} from ${i.name}: ${valueText(i.value, i.unit)}, weight ${i.weight}${evidence}`,
          );
        }
      }
      const under = payload.underControls;
      if (under) {
        lines.push(
          under.available
            ? `Under ${under.country}'s controls: ${under.offering?.name} engaged, ${scoresText(under.underControls)} (distance ${under.distance.magnitude}).`
            : `Under ${under.country}'s controls: unavailable — misses ${nameList(under.missingControls)}.`,
        );
        const moved = (["innovation", "control", "scale"] as const).flatMap((axis) =>
          under.axes[axis].indicators.filter((i) => i.change !== 0).map((i) => ({ axis, ...i })),
        );
        for (const i of moved.sort((a, b) => a.change - b.change).slice(0, 8))
          lines.push(`  ${signed(i.change)} ${AXIS_LABELS[i.axis]} from ${i.indicatorId}`);
      }
      return lines.join("\n");
    },
  },
});
