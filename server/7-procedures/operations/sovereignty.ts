import { z } from "zod";
import { SEAL_NAMES, type SealLevel, SOV_OBJECTIVE_IDS } from "../../1-domain/sovereignty";
import { notFound } from "../../1-errors/api-error";
import { nameList } from "../../2-formats/name-list";
import { sovereigntyProfile } from "../../2-readings/sovereignty";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { LISTS_PRODUCTS } from "../pointers";
import { countryParam, marketIdParam, releaseParam } from "../schemas";
import { productIdParam, sealLevel } from "../sovereignty-schemas";
import { releaseHeader } from "./text";

const factSchema = z.object({
  kind: z.enum(["control", "indicator"]),
  id: z.string(),
  name: z.string(),
  value: z.union([z.number(), z.boolean(), z.string()]).meta({
    description: "The indicator's value; for a control, true (the offering satisfies it).",
  }),
  level: sealLevel.meta({ description: "The level this fact evidences for the objective (0: none)." }),
  statedBy: z.string().meta({ description: "The offering whose catalogue entry states it." }),
  source: z.string().nullable(),
  asOf: z.string().nullable(),
  confidence: z.enum(["verified", "vendor-claimed", "estimated"]).nullable(),
  note: z.string().nullable(),
});

export const sovereigntySchema = z
  .object({
    marketId: z.string(),
    release: z.number().int().positive(),
    lastUpdated: z.string(),
    country: z.string().meta({ description: "The country whose controls choose the offering assessed." }),
    productId: z.string(),
    name: z.string(),
    vendor: z.string(),
    framework: z.string(),
    offering: z.object({ id: z.string(), name: z.string() }),
    available: z.boolean().meta({
      description: "False when no offering satisfies the country's controls: the default offering is assessed.",
    }),
    overall: z.object({
      level: sealLevel.nullable(),
      weakest: z.array(z.enum(SOV_OBJECTIVE_IDS)),
    }),
    objectives: z.array(
      z.object({
        objective: z.enum(SOV_OBJECTIVE_IDS),
        name: z.string(),
        level: sealLevel.nullable().meta({ description: "Null: the catalogue maps no fact to this objective." }),
        facts: z.array(factSchema),
      }),
    ),
    note: z.string(),
  })
  .meta({
    id: "Sovereignty",
    description:
      "A product's EU Cloud Sovereignty Framework profile under a country: each objective's SEAL level with the facts behind it, and the overall level, the weakest objective's.",
  });

const FRAMEWORK = "EU Cloud Sovereignty Framework v1.2.1 (European Commission, DG DIGIT, October 2025)";

const NOTE =
  "The catalogue's facts read against the framework through its published mapping: an objective's level is the highest any one fact evidences (SEAL-0 when none does), the overall level the weakest objective's. Not a certification or an audit; the service recommends nothing.";

const level = (value: number | null) =>
  value === null ? "not assessable" : `SEAL-${value} (${SEAL_NAMES[value as SealLevel]})`;

export const sovereignty = declareReading({
  group: "readings",
  name: "sovereignty",
  scope: MARKET_READ_SCOPE,
  credits: 2,
  path: "/markets/{marketId}/products/{productId}/sovereignty",
  summary: "Sovereignty profile",
  description:
    "One product against the EU Cloud Sovereignty Framework under a country: each objective's SEAL level (0–4) for the offering engaged there, from the controls it satisfies and its Control-axis values (each with source, date, confidence), and the overall level, the weakest objective's.",
  input: z.object({ marketId: marketIdParam, productId: productIdParam, release: releaseParam, country: countryParam }),
  output: sovereigntySchema,
  example: { marketId: "foundation-model-apis", productId: "quillmere-atlas", country: "DE" },
  caching: "release",
  releases: "one",
  country: "home",
  compute: ({ release, country }, input) => {
    const profile = sovereigntyProfile(release, input.productId, country);
    const product = release.definition.products.find((p) => p.productId === input.productId);
    if (!profile || !product)
      throw notFound(
        `Market "${release.marketId}" has no product "${input.productId}" in release ${release.release}.`,
        LISTS_PRODUCTS,
      );
    return {
      marketId: release.marketId,
      release: release.release,
      lastUpdated: release.lastUpdated,
      country: country as string,
      productId: product.productId,
      name: product.name,
      vendor: product.vendor,
      framework: FRAMEWORK,
      offering: profile.offering,
      available: profile.available,
      overall: profile.overall,
      objectives: profile.objectives.map((o) => ({
        ...o,
        facts: o.facts.map((f) => ({ ...f, value: f.value as number | boolean | string })),
      })),
      note: NOTE,
    };
  },
  tool: {
    name: "service_market_get_sovereignty",
    text: (p) =>
      [
        `${p.name} (${p.vendor}), ${releaseHeader(p)}, under ${p.country}'s controls: ${p.available ? `offering ${p.offering.name}` : `unavailable; the default offering ${p.offering.name} assessed`}.`,
        `Overall ${level(p.overall.level)}${p.overall.weakest.length ? `, weakest ${nameList(p.overall.weakest)}` : ""}.`,
        ...p.objectives.map(
          (o) =>
            `${o.objective} ${o.name}: ${level(o.level)}${
              o.facts.length
                ? ` — ${o.facts
                    .slice(0, 3)
                    .map(
                      (f) =>
                        `${f.name} = ${String(f.value)} → SEAL-${f.level}${f.asOf ? ` [${f.confidence ?? "source"} ${f.asOf}]` : ""}`,
                    )
                    .join("; ")}`
                : ""
            }`,
        ),
        NOTE,
      ].join("\n"),
  },
});
