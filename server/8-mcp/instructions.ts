/**
 * What an agent is told once, when it connects (the `instructions` of MCP's initialize result):
 * how the tools fit together and the terms every tool's text uses, defined here and nowhere else,
 * so no tool description spends its words (and every agent's tokens) defining them again.
 */
import { DECLARED } from "../7-procedures/operations";

const tool = (declaration: { tool?: { name: string } }) => declaration.tool?.name ?? "";

export const MCP_INSTRUCTIONS = [
  "Market positioning readings of technology markets (e.g. foundation-model APIs, managed Kubernetes).",
  `Start with ${tool(DECLARED.marketsList)} (markets and their latest release), ${tool(DECLARED.products)} (a market's products, free) and ${tool(DECLARED.geographiesList)} (countries and their sovereign controls); readings cost credits, stated in each tool's description and in each result's _meta.credits.`,
  "Arguments many tools share, defined here once: marketId (a market's slug, from the markets list), productId (a product's slug, from the market's products list), release (a release number; default: the latest), country (the ISO alpha-2 code of the country whose controls are engaged; default: your organization's home country).",
  "Size: every result stays within about 8,000 tokens. A reading of every product that would not fit answers its first page: its text says which products it shows and gives the cursor for the next page. Readings of every product take limit (the top N in the reading's own order), cursor (a page's page.nextCursor), productIds (comma-separated), fields (product fields to keep, comma-separated: the answer lists them in fields; productId, name and available always stay) and, for the availability matrix, countries (comma-separated codes).",
  "Terms:",
  "- Innovation (I), Control (C), Scale (S): three separate scores, 0 to 100, each relative to the field of the market's products in that release; never added together.",
  "- Band: the named range a score falls in (per market, Foundation up to Frontier). Not settled: fewer than 95% of the sensitivity analysis's draws (the indicators re-weighted) fall in the published band; the interval is the draws' 5th to 95th percentile.",
  "- Under a country's controls: the product as its offering that satisfies every control the country engages (the one with the highest Innovation when several do); unavailable when no offering satisfies them — then it has no score there, never a zero.",
  "- Capability Index: products ranked by published Innovation. Max: ranked by the Innovation they keep under the controls, each product in both states, off (no controls) and on (every control engaged), with the distance between them. Delta: published against under the controls.",
  "- Distance: what each score changes by under the controls (under minus published, in points) and its magnitude, the Euclidean length of the three.",
  "- SEAL level: the EU Cloud Sovereignty Framework's assurance level, 0 to 4, per objective SOV-1 to SOV-8, as the catalogue's facts evidence it for the offering engaged; a product's overall level is its weakest objective's. Not a certification.",
  "- Gates (minSeal, requireControls): your own filters on the Max and Delta readings, minSeal (the lowest overall SEAL level, 0 to 4, to pass) and requireControls (control ids, comma-separated, the engaged offering must also satisfy); products that fail stay in the answer after the others, each naming the gate it failed. The service never recommends.",
  "- Rank odds: the share of the sensitivity draws in which a product ranks in the top 1, 3 and 5; products with the same tie group are statistically tied.",
  "- Rank moves: movedUp and rankChange are places gained, positive when a product moved up (3 → 1 is +2). An unavailable product has no Max rank to move: its rank in the data is tied last, not a standing.",
  "- Restated: a past release re-scored under a later methodology, never published; the published release is unchanged.",
].join("\n");
