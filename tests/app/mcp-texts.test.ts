/**
 * What a model reads: each tool's text, read alone, must hold the facts an agent asks of the call.
 * Every fact is taken from the same call's structuredContent (the REST payload), never from the
 * text's own wording, so a text that drops a fact fails whatever it says instead. Names are joined
 * by a separator no name of the list contains.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const base = inject("appUrl");
const { schemaFuzz } = inject("accounts");

// biome-ignore lint/suspicious/noExplicitAny: payloads are read field by field
type Payload = any;

let client: Client;
beforeAll(async () => {
  client = new Client({ name: "mps-texts", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${schemaFuzz.token}` } },
    }),
  );
});
afterAll(() => client?.close());

async function call(tool: string, args: Record<string, unknown>): Promise<{ text: string; data: Payload }> {
  const result = (await client.callTool({ name: tool, arguments: args })) as {
    isError?: boolean;
    content: { type: string; text?: string }[];
    structuredContent: Payload;
  };
  expect(result.isError ?? false, `${tool} ${JSON.stringify(args)}: ${result.content[0]?.text}`).toBe(false);
  return { text: result.content.find((c) => c.type === "text")?.text ?? "", data: result.structuredContent };
}

/** The line of the text about a product (its name starts the product's part of the line). */
const lineOf = (text: string, name: string) => text.split("\n").find((line) => line.includes(`${name} (`)) ?? "";

describe("every tool's text answers its question", () => {
  it("service_geographies_list: every country, and each one's controls", async () => {
    const { text, data } = await call("service_geographies_list", {});
    for (const geography of data.geographies as { country: string; controls: string[] }[]) {
      expect(text).toContain(geography.country);
      for (const control of geography.controls) expect(text, geography.country).toContain(control);
    }
  });

  it("service_markets_list: every market with its release", async () => {
    const { text, data } = await call("service_markets_list", {});
    for (const market of data.markets) {
      expect(text).toContain(market.marketId);
      expect(text).toContain(String(market.release));
    }
  });

  it("service_market_get_snapshot: every product's three scores", async () => {
    const { text, data } = await call("service_market_get_snapshot", { marketId: "foundation-model-apis" });
    for (const product of data.products) {
      const line = lineOf(text, product.name);
      for (const axis of ["innovation", "control", "scale"])
        expect(line, product.name).toContain(String(product.scores[axis]));
    }
  });

  it("service_market_get_capaindex: every product's rank", async () => {
    const { text, data } = await call("service_market_get_capaindex", { marketId: "managed-kubernetes" });
    for (const product of data.products) expect(lineOf(text, product.name)).toContain(`${product.rank}.`);
  });

  for (const country of ["FR", "DE", "US"]) {
    it(`service_market_get_servicemax under ${country}: the offering each product engages, the controls each unavailable one lacks, no rank for it`, async () => {
      const { text, data } = await call("service_market_get_servicemax", {
        marketId: "foundation-model-apis",
        country,
      });
      const names = new Map((data.controls as { id: string; name: string }[]).map((c) => [c.id, c.name]));
      for (const control of data.controls) expect(text).toContain(control.name);
      for (const product of data.products) {
        const line = lineOf(text, product.name);
        if (product.available) {
          expect(line).toMatch(new RegExp(`^${product.rank}\\. `));
          expect(line).toContain(product.offering.name);
        } else {
          expect(line).not.toMatch(/^\d+\. /);
          expect(line).toContain("unavailable");
          for (const missing of product.missingControls) expect(line).toContain(names.get(missing) ?? missing);
        }
      }
    });

    it(`service_market_get_delta under ${country}: the engaged offering or the controls lacked`, async () => {
      const { text, data } = await call("service_market_get_delta", { marketId: "foundation-model-apis", country });
      const names = new Map((data.controls as { id: string; name: string }[]).map((c) => [c.id, c.name]));
      for (const product of data.products) {
        const line = lineOf(text, product.name);
        if (product.available) expect(line).toContain(product.offering.name);
        else for (const missing of product.missingControls) expect(line).toContain(names.get(missing) ?? missing);
      }
    });

    it(`service_market_get_changes under ${country}: availability, Max ranks and bands there, indicators, movers`, async () => {
      const { text, data } = await call("service_market_get_changes", {
        marketId: "foundation-model-apis",
        from: 2,
        to: 3,
        country,
      });
      expect(text).toContain(`under ${country}'s controls`);
      const products = data.products as Payload[];
      const moved = products.filter((p) => p.max.availability && p.max.availability !== "unchanged");
      if (moved.length === 0) expect(text).toContain(`Availability under ${country}: nothing moved`);
      for (const p of moved.slice(0, 5)) expect(text).toContain(p.name);
      const usable = products.filter((p) => p.max.available.from === true && p.max.available.to === true);
      const reranked = usable.filter((p) => p.max.rank.from !== p.max.rank.to);
      if (reranked.length === 0)
        expect(text).toContain(`Max ranks under ${country}: none moved among the ${usable.length}`);
      for (const p of reranked.slice(0, 5)) expect(text).toContain(p.name);
      // No Max rank is said of a product unusable in either release.
      for (const p of products.filter((x) => x.max.available.to === false && x.max.available.from === false))
        expect(text).not.toMatch(new RegExp(`${p.name} \\d+ → \\d+, (up|down)`));
      const bandChanges = products.flatMap((p) =>
        (["innovation", "control", "scale"] as const).filter((axis) => p.bands[axis].changed).map(() => p.name),
      );
      if (bandChanges.length === 0) expect(text).toContain("Bands: no product changed band.");
      else expect(text).toContain(bandChanges[0]);
      const { market } = data;
      for (const id of [...market.indicatorsAdded, ...market.indicatorsRemoved]) expect(text).toContain(id);
      for (const w of market.weightsChanged) expect(text).toContain(w.indicatorId);
    });
  }

  it("service_market_get_servicemax with gates nothing passes: one line, not a line per failure", async () => {
    const { text, data } = await call("service_market_get_servicemax", {
      marketId: "foundation-model-apis",
      country: "FR",
      minSeal: 4,
      requireControls: "exit-capability",
    });
    expect(data.gates.passed).toBe(0);
    expect(text).toContain("No product passes your gates");
    expect(text.split("\n").length).toBeLessThanOrEqual(3);
  });

  it("service_market_products_list: every product id", async () => {
    const { text, data } = await call("service_market_products_list", { marketId: "speech-to-text" });
    for (const product of data.products) expect(text).toContain(product.productId);
  });

  it("service_market_get_product: its scores, and under a country the offering or what it lacks", async () => {
    const { text, data } = await call("service_market_get_product", {
      marketId: "foundation-model-apis",
      productId: "quillmere-atlas",
      country: "FR",
    });
    for (const axis of ["innovation", "control", "scale"]) expect(text).toContain(String(data.scores[axis]));
    expect(text).toContain("FR");
  });

  it("service_market_get_sovereignty: the overall SEAL level", async () => {
    const { text, data } = await call("service_market_get_sovereignty", {
      marketId: "foundation-model-apis",
      productId: "quillmere-atlas",
      country: "DE",
    });
    expect(text).toContain(data.overall.level === null ? "not assessable" : `SEAL-${data.overall.level}`);
  });

  it("service_market_get_product_history: every release", async () => {
    const { text, data } = await call("service_market_get_product_history", {
      marketId: "foundation-model-apis",
      productId: "quillmere-atlas",
    });
    for (const entry of data.releases) expect(text).toContain(`${entry.release}`);
  });

  it("service_market_get_availability: how many countries each product is available in", async () => {
    const { text, data } = await call("service_market_get_availability", { marketId: "object-storage" });
    for (const product of data.products.slice(0, 5)) expect(lineOf(text, product.name) || text).toContain(product.name);
  });

  it("service_market_whatif: each product's rank change with the caller's weights, signed as places gained", async () => {
    const { text, data } = await call("service_market_whatif", {
      marketId: "foundation-model-apis",
      weights: "reasoning-benchmark:5",
    });
    const mover = (data.capabilityIndex.products as Payload[]).find((p) => p.rankChange !== 0);
    expect(mover).toBeDefined();
    expect(text).toContain(mover.name);
    expect(text).toContain(mover.rankChange > 0 ? `+${mover.rankChange}` : String(mover.rankChange));
  });

  it("service_market_whatif: every product's Control and Scale with the caller's weights, the unavailable set apart", async () => {
    const { text, data } = await call("service_market_whatif", {
      marketId: "foundation-model-apis",
      weights: "key-custody:8",
      country: "FR",
    });
    const [index, max] = text.split(/^Max under FR:$/m);
    for (const p of data.capabilityIndex.products as Payload[]) {
      const line = lineOf(index ?? "", p.name);
      expect(line).toContain(`Control ${p.scores.control} (published ${p.publishedScores.control})`);
      expect(line).toContain(`Scale ${p.scores.scale} (published ${p.publishedScores.scale})`);
    }
    const kept = data.max.products as Payload[];
    expect(kept.some((p) => !p.available)).toBe(true);
    for (const p of kept) {
      const line = lineOf(max ?? "", p.name);
      if (p.available) expect(line).toContain(`Control ${p.on.control} (published ${p.publishedOn.control})`);
      else expect(line).toMatch(/^- .* unavailable under FR's controls: unranked, no score$/);
    }
    // The ranked ones first, then those set apart.
    const lines = (max ?? "").trim().split("\n");
    expect(lines.findIndex((l) => l.startsWith("- "))).toBe(kept.filter((p) => p.available).length);
  });

  it("service_account_get: the balance and the members with their roles", async () => {
    const { text, data } = await call("service_account_get", {});
    expect(text).toContain(data.balance.toLocaleString("en"));
    const members = data.members as { email: string | null; name: string | null; userId: string; role: string }[];
    expect(text).toContain(`${members.length} member${members.length === 1 ? "" : "s"}: `);
    for (const m of members) expect(text).toContain(`${m.name ?? m.email ?? m.userId} (${m.role})`);
  });
});

describe("lists of names", () => {
  it("join names with a separator none of them contains", async () => {
    const { text, data } = await call("service_market_get_servicemax", {
      marketId: "foundation-model-apis",
      country: "FR",
    });
    const line = text.split("\n")[0] ?? "";
    const names = (data.controls as { name: string }[]).map((c) => c.name);
    const joined = line.slice(line.indexOf(": ") + 2).replace(/\.$/, "");
    const separator = ["; ", " | ", " / ", " · "].find((s) => joined.includes(s) || names.length < 2);
    expect(separator).toBeDefined();
    expect(joined.split(separator as string)).toEqual(names);
  });
});
