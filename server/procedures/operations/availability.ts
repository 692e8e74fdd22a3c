import { availability as availabilityOf } from "../../readings/availability";
import { declareReading, MARKET_READ_SCOPE } from "../declaration";
import { availabilitySchema, countriesParam, narrowingParams, releaseInput } from "../schemas";
import { releaseHeader } from "./text";

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
