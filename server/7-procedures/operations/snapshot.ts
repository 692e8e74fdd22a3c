import { z } from "zod";
import { snapshot as snapshotOf } from "../../2-readings/snapshot";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { bandSchema, narrowingParams, pageSchema, readingHeader, releaseInput, score, scoresSchema } from "../schemas";
import { snapshotHtml, snapshotResourceUri } from "./snapshot-html";
import { releaseHeader, scoresText } from "./text";

export const indicatorSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    kind: z.enum(["number", "boolean", "level"]),
    weight: z.number().positive(),
    direction: z.enum(["higher", "lower"]).optional(),
    unit: z.string().optional(),
    levels: z.array(z.string()).optional().meta({ description: "Ordered worst first." }),
    source: z.string().optional(),
  })
  .meta({ id: "Indicator" });

export const dimensionSchema = z
  .object({
    id: z.enum(["innovation", "control", "scale"]),
    name: z.string(),
    description: z.string(),
    bands: z.array(bandSchema),
    indicators: z.array(indicatorSchema),
  })
  .meta({ id: "Dimension" });

const axisUncertaintySchema = z
  .object({
    interval: z.object({ p5: score, p95: score }).meta({
      description:
        "5th and 95th percentile of the axis score across the draws, widened to contain the published score.",
    }),
    bands: z.record(z.string(), z.number().min(0).max(1)).meta({
      description: "Share of the draws (0..1, three decimals) that fall in each band of the axis, by band name.",
    }),
    bandSettled: z.boolean().meta({
      description: "True when at least 95 % of the draws fall in the published band; false: the band is not settled.",
    }),
  })
  .meta({ id: "AxisUncertainty" });

const productUncertaintySchema = z
  .object({ innovation: axisUncertaintySchema, control: axisUncertaintySchema, scale: axisUncertaintySchema })
  .meta({ id: "ProductUncertainty", description: "How sure each published axis score is." });

const analysisSchema = z
  .object({
    method: z.literal("monte-carlo"),
    draws: z.number().int().positive(),
    seed: z.string().meta({ description: "Names the release: the same release always gives the same intervals." }),
    concentration: z.number().positive().meta({
      description: "Dirichlet concentration of the perturbed weights (larger: closer to the published weights).",
    }),
    evidenceSpread: z
      .object({ verified: z.number(), "vendor-claimed": z.number(), estimated: z.number() })
      .meta({ description: "Relative error drawn for a value, by the confidence of its evidence." }),
  })
  .meta({
    id: "UncertaintyAnalysis",
    description: "The sensitivity analysis behind every interval of this release (docs/methodology.md, Uncertainty).",
  });

export const snapshotSchema = z
  .object({
    ...readingHeader,
    name: z.string(),
    methodologyVersion: z.string(),
    methodology: z.string().meta({ description: "How each axis was scored; to be quoted verbatim." }),
    dimensions: z.array(dimensionSchema),
    products: z.array(
      z
        .object({
          productId: z.string(),
          name: z.string(),
          vendor: z.string(),
          scores: scoresSchema,
          bands: z
            .object({ innovation: z.string(), control: z.string(), scale: z.string() })
            .meta({ description: "Band name per axis." }),
          gaps: z.array(z.string()).meta({ description: "Indicators the product does not demonstrate (scored 0)." }),
          uncertainty: productUncertaintySchema,
        })
        .meta({ id: "SnapshotProduct" }),
    ),
    uncertainty: analysisSchema,
    page: pageSchema,
  })
  .meta({
    id: "Snapshot",
    description: "Every product's published scores, the dimensions with their bands, and the methodology.",
  });

export const snapshot = declareReading({
  group: "readings",
  name: "snapshot",
  scope: MARKET_READ_SCOPE,
  credits: 5,
  path: "/markets/{marketId}/snapshot",
  summary: "Market snapshot",
  description:
    "Every product of one market with its published Innovation, Control and Scale scores (0–100) and band per axis, the band cutoffs and indicators of each dimension, and the market's methodology text, to be quoted verbatim. No country is involved.",
  input: releaseInput.extend(narrowingParams),
  narrowing: { lists: ["products"] },
  output: snapshotSchema,
  example: { marketId: "foundation-model-apis" },
  caching: "release",
  growsWithMarket: true,
  releases: "one",
  compute: ({ release }) => snapshotOf(release),
  tool: {
    name: "service_market_get_snapshot",
    instead: { country: "service_market_get_delta" },
    addendum: "Also returns it as a readable HTML table (resource ui://service/snapshot/{marketId}, a URI per page).",
    text: (payload) =>
      [
        `Snapshot of ${payload.name}, ${releaseHeader(payload)}; methodology ${payload.methodologyVersion}.`,
        ...payload.products.map(
          (p) =>
            `- ${p.name} (${p.vendor}): ${scoresText(p.scores)} — ${p.bands.innovation} / ${p.bands.control} / ${p.bands.scale}`,
        ),
        "The methodology text is in structuredContent.methodology; quote it verbatim.",
      ].join("\n"),
    embed: (payload, args) => [
      {
        type: "resource",
        resource: { uri: snapshotResourceUri(payload, args), mimeType: "text/html", text: snapshotHtml(payload) },
        // A page for the person's eyes: the model has the same data in structuredContent and the text.
        annotations: { audience: ["user"], priority: 0.2 },
      },
    ],
  },
});
