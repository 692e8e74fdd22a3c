import { z } from "zod";
import { nameList } from "../../2-formats/name-list";
import { products as productsOf } from "../../2-readings/products";
import { declareReading } from "../declaration";
import { narrowingParams, pageSchema, releaseInput } from "../schemas";
import { releaseHeader } from "./text";

const productsSchema = z
  .object({
    marketId: z.string(),
    release: z.number().int().positive(),
    lastUpdated: z.string().meta({ description: "ISO 8601 timestamp.", example: "2026-05-04T09:00:00.000Z" }),
    products: z.array(
      z
        .object({
          productId: z.string().meta({ description: "The `productId` the product breakdown takes." }),
          name: z.string(),
          vendor: z.string(),
          offerings: z.array(
            z.object({
              id: z.string(),
              name: z.string(),
              default: z.boolean().meta({ description: "The offering scored when no control is engaged." }),
              satisfies: z.array(z.string()).meta({ description: "Ids of the sovereign controls it satisfies." }),
            }),
          ),
        })
        .meta({ id: "ProductListItem" }),
    ),
    page: pageSchema,
  })
  .meta({ id: "ProductList", description: "The products of a release: ids to name them by, vendors and offerings." });

export const products = declareReading({
  group: "readings",
  name: "products",
  scope: null,
  credits: 0,
  path: "/markets/{marketId}/products",
  summary: "List products",
  description:
    "The products of one market release, in the catalogue's order: each `productId` (what the product breakdown takes), name, vendor and offerings (the default first) with the sovereign controls each satisfies. No scores.",
  input: releaseInput.extend(narrowingParams),
  narrowing: { lists: ["products"] },
  output: productsSchema,
  example: { marketId: "foundation-model-apis" },
  caching: "release",
  growsWithMarket: true,
  releases: "one",
  compute: ({ release }) => productsOf(release),
  tool: {
    name: "service_market_products_list",
    text: (payload) =>
      [
        `${payload.products.length} products of ${releaseHeader(payload)}:`,
        ...payload.products.map(
          (p) =>
            `- ${p.productId}: ${p.name} (${p.vendor}); offerings ${nameList(p.offerings.map((o) => `${o.id}${o.satisfies.length ? ` [${nameList(o.satisfies)}]` : ""}`))}`,
        ),
      ].join("\n"),
  },
});
