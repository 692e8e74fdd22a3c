import { z } from "zod";
import { availability as availabilityOf } from "../../2-readings/availability";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { commaList, controlRef, narrowingParams, pageSchema, readingHeader, releaseInput, score } from "../schemas";
import { releaseHeader } from "./text";

/** For the availability matrix: only these countries' columns. */
export const countriesParam = commaList("countries", "A-Za-z, ", "ISO 3166-1 alpha-2 codes").optional().meta({
  description: "Only these countries' columns, comma-separated codes.",
  example: "FR,DE,US",
});

export const availabilitySchema = z
  .object({
    ...readingHeader,
    countries: z.array(z.object({ country: z.string(), name: z.string(), controls: z.array(controlRef) })).meta({
      description: "The columns, by country code; every product's `cells` follow this order.",
    }),
    products: z.array(
      z
        .object({
          productId: z.string(),
          name: z.string(),
          vendor: z.string(),
          innovation: score.meta({ description: "Published Innovation." }),
          availableIn: z.number().int().min(0).meta({ description: "How many countries it is available in." }),
          cells: z.array(
            z
              .object({
                country: z.string(),
                available: z.boolean(),
                offeringId: z.string().nullable(),
                innovationRetained: score,
                distance: z.number().min(0).meta({ description: "The Delta's distance magnitude." }),
                missingControls: z.array(z.string()),
              })
              .meta({ id: "AvailabilityCell" }),
          ),
        })
        .meta({ id: "AvailabilityRow" }),
    ),
    page: pageSchema,
  })
  .meta({
    id: "AvailabilityMatrix",
    description: "Every product under every country's controls; each cell equals the Delta for its country.",
  });

export const availability = declareReading({
  group: "readings",
  name: "availability",
  scope: MARKET_READ_SCOPE,
  credits: 3,
  path: "/markets/{marketId}/availability",
  summary: "Availability matrix",
  description:
    "Every product of a market under every country's sovereign controls in one call: per product and country, whether it is available, the offering engaged, the Innovation it retains, the distance magnitude and the controls it misses. Each cell equals the Delta reading for that country.",
  input: releaseInput.extend({ ...narrowingParams, countries: countriesParam }),
  narrowing: { lists: ["products"], columns: { path: "countries", cells: "cells" } },
  output: availabilitySchema,
  example: { marketId: "foundation-model-apis" },
  caching: "release",
  growsWithMarket: true,
  releases: "one",
  compute: ({ release }) => availabilityOf(release, release.geographies),
  tool: {
    name: "service_market_get_availability",
    /**
     * The matrix as compact lines: per product, how many countries it is available in, then each
     * country as CODE:retained, or CODE:— when unavailable.
     */
    text: (payload) => {
      const lines = [
        `Availability of ${payload.products.length} products in ${payload.countries.length} countries, ${releaseHeader(payload)}.`,
        "Each cell: country code and the Innovation retained under its controls; — means unavailable (structuredContent lists the missing controls).",
      ];
      for (const p of payload.products)
        lines.push(
          `- ${p.name} (I ${p.innovation}, available in ${p.availableIn}/${p.cells.length}): ${p.cells
            .map((c) => `${c.country}:${c.available ? c.innovationRetained : "—"}`)
            .join(" ")}`,
        );
      return lines.join("\n");
    },
  },
});
