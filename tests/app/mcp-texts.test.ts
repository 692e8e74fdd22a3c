/**
 * What a model reads: each tool's text, read alone, must hold the facts an agent asks of the call.
 * Every fact is taken from the same call's structuredContent (the REST payload), never from the
 * text's own wording, so a text that drops a fact fails whatever it says instead. Names are joined
 * by a separator no name of the list contains.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callToolComingBack } from "../helpers/mcp";

const base = inject("appUrl");
const { schemaFuzz } = inject("accounts");

/**
 * A cold reading of a large market runs on the worker pool; while other files read theirs at the
 * same time, a loaded machine can find the pool's queue full, and the service answers 503 with
 * Retry-After, nothing debited (as designed: the size suite floods it). A client comes back then;
 * so does this one, a few times, and any other answer is held to the test.
 */
const BUSY_TRIES = 5;
const pause = (seconds: number) => new Promise((resolve) => setTimeout(resolve, Math.min(seconds, 10) * 1000));

/** A REST reading with the same token: what the texts are held to, computed apart from them. */
async function rest(path: string): Promise<Payload> {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(`${base}/v1${path}`, { headers: { Authorization: `Bearer ${schemaFuzz.token}` } });
    const retryAfter = response.headers.get("retry-after");
    if (response.status === 503 && retryAfter && attempt < BUSY_TRIES) {
      await response.body?.cancel();
      await pause(Number(retryAfter));
      continue;
    }
    expect(response.status, path).toBe(200);
    return response.json();
  }
}

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent: Payload;
}

/** A result's size as the token budget counts it (server/8-mcp/budget.ts): its JSON bytes ÷ 4, with the envelope's room. */
const tokensOf = (result: unknown) => Math.ceil((Buffer.byteLength(JSON.stringify(result)) + 600) / 4);
const BUDGET_TOKENS = 8_000;

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

async function call(
  tool: string,
  args: Record<string, unknown>,
): Promise<{ text: string; data: Payload; content: Payload[]; tokens: number }> {
  const result = (await callToolComingBack(client, tool, args)) as ToolAnswer;
  expect(result.isError ?? false, `${tool} ${JSON.stringify(args)}: ${result.content[0]?.text}`).toBe(false);
  const tokens = tokensOf({ content: result.content, structuredContent: result.structuredContent });
  expect(tokens, `${tool} ${JSON.stringify(args)}`).toBeLessThanOrEqual(BUDGET_TOKENS);
  return {
    text: result.content.find((c) => c.type === "text")?.text ?? "",
    data: result.structuredContent,
    content: result.content,
    tokens,
  };
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
      const names = new Map((market.indicatorNames as Payload[]).map((i) => [i.indicatorId, i.name]));
      for (const id of [...market.indicatorsAdded, ...market.indicatorsRemoved, ...market.indicatorsRedefined])
        expect(text).toContain(names.get(id));
      for (const w of market.weightsChanged) expect(text).toContain(names.get(w.indicatorId));
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

describe("texts that lead with the headline (issue 48)", () => {
  const MARKET = "foundation-model-apis";
  /** Who ranks first in a reading, by name; for Max, among the products usable under its country. */
  const firstOf = (reading: Payload) =>
    (reading.products as Payload[]).filter((p) => p.rank === 1 && p.available !== false).map((p) => p.name as string);

  it("service_market_get_changes under DE: who took Capability Index #1 from whom, and Max #1 there, from REST's readings", async () => {
    const [before, after, maxBefore, maxAfter] = await Promise.all([
      rest(`/markets/${MARKET}/capaindex?release=2`),
      rest(`/markets/${MARKET}/capaindex?release=3`),
      rest(`/markets/${MARKET}/servicemax?release=2&country=DE`),
      rest(`/markets/${MARKET}/servicemax?release=3&country=DE`),
    ]);
    const { text } = await call("service_market_get_changes", { marketId: MARKET, from: 2, to: 3, country: "DE" });
    const [was] = firstOf(before);
    const [is] = firstOf(after);
    // The demo's release 3 hands first place on: the headline says so, second line, before anything else.
    expect(is).not.toBe(was);
    const headline = text.split("\n")[1] ?? "";
    expect(headline).toContain(`${is} took Capability Index #1 from ${was}.`);
    const [maxWas] = firstOf(maxBefore);
    const [maxIs] = firstOf(maxAfter);
    expect(headline).toContain(
      maxIs === maxWas ? `${maxIs} kept Max #1 under DE.` : `${maxIs} took Max #1 under DE from ${maxWas}.`,
    );
    // Every Capability Index rank move is listed.
    const ranks = new Map((before.products as Payload[]).map((p) => [p.productId, p.rank]));
    for (const p of after.products as Payload[]) {
      const from = ranks.get(p.productId);
      if (from !== undefined && from !== p.rank)
        expect(text).toContain(`${p.name}: Capability Index ${from} → ${p.rank}`);
    }
  });

  it("service_market_get_changes: a score move names the indicators whose values moved it, by name, as REST's two breakdowns differ", async () => {
    const { text, data } = await call("service_market_get_changes", {
      marketId: MARKET,
      from: 2,
      to: 3,
      country: "DE",
    });
    // The biggest move the payload has, and the indicators whose values differ between the two releases.
    const moves = (data.products as Payload[]).flatMap((p) =>
      p.scores
        ? (["innovation", "control", "scale"] as const).map((axis) => ({ p, axis, change: p.scores[axis].change }))
        : [],
    );
    const biggest = moves.sort((a, b) => Math.abs(b.change) - Math.abs(a.change))[0] as Payload;
    const [r2, r3] = await Promise.all(
      [2, 3].map((release) => rest(`/markets/${MARKET}/products/${biggest.p.productId}?release=${release}`)),
    );
    const valuesOf = (breakdown: Payload) =>
      new Map((breakdown.axes[biggest.axis].indicators as Payload[]).map((i) => [i.indicatorId, i]));
    const earlier = valuesOf(r2);
    const moved = [...valuesOf(r3).values()].filter(
      (i) => earlier.has(i.indicatorId) && JSON.stringify(earlier.get(i.indicatorId).value) !== JSON.stringify(i.value),
    );
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.length).toBeLessThanOrEqual(3);
    const label = { innovation: "Innovation", control: "Control", scale: "Scale" }[biggest.axis as string];
    const line = text.split("\n").find((l) => l.startsWith(`- ${biggest.p.name}: `) && l.includes(` ${label} (`)) ?? "";
    expect(line).toContain("from its own values (");
    for (const i of moved) {
      expect(line).toContain(i.name);
      expect(line).not.toContain(i.indicatorId);
    }
  });

  it("service_market_get_changes at 1,000 products under DE: within the budget, the headline kept, the cut said", async () => {
    // One after the other: two cold readings of a large market at once may find the worker pool
    // full on a loaded machine and be answered 503 (as designed; the size suite floods it).
    const before = await rest("/markets/generated-1000/capaindex?release=1");
    const after = await rest("/markets/generated-1000/capaindex?release=2");
    const { text, data } = await call("service_market_get_changes", { marketId: "generated-1000", country: "DE" });
    const [was] = firstOf(before);
    const [is] = firstOf(after);
    const headline = text.split("\n")[1] ?? "";
    expect(headline).toContain(
      is === was ? `${is} kept Capability Index #1.` : `${is} took Capability Index #1 from ${was}`,
    );
    expect(data.page.total).toBe(1000);
    expect(data.page.returned).toBeLessThan(1000);
    expect(text).toContain(`(of the ${data.page.returned} products shown)`);
    const moves = (data.products as Payload[]).flatMap((p) =>
      (["innovation", "control", "scale"] as const).filter((axis) => p.scores && p.scores[axis].change !== 0),
    );
    if (moves.length > 10) expect(text).toContain(`- and ${moves.length - 10} smaller moves.`);
  });

  it("service_market_get_product under FR: every gain and the largest losses by indicator name, 'and N more' when cut, and its sources", async () => {
    for (const productId of ["brightwater-cortex", "quillmere-atlas"]) {
      const { text, data } = await call("service_market_get_product", { marketId: MARKET, productId, country: "FR" });
      const names = new Map(
        (["innovation", "control", "scale"] as const).flatMap((axis) =>
          (data.axes[axis].indicators as Payload[]).map((i) => [i.indicatorId, i.name]),
        ),
      );
      const changed = (["innovation", "control", "scale"] as const).flatMap((axis) =>
        (data.underControls.axes[axis].indicators as Payload[]).filter((i) => i.change !== 0),
      );
      const [, under = ""] = text.split(/^Under FR's controls: /m);
      const gains = changed.filter((i) => i.change > 0);
      for (const i of gains) expect(under).toContain(`+${i.change} `);
      for (const i of gains) expect(under).toContain(names.get(i.indicatorId));
      if (changed.length > 12) expect(under).toContain(`and ${changed.length - 12} more (`);
      else expect(under).not.toMatch(/and \d+ more/);
      // Each change under controls names its indicator by name, never by id.
      const said = [...under.matchAll(/^ {2}[+-]\d+(?:\.\d)? (?:Innovation|Control|Scale) from (.+?): /gm)].map(
        (m) => m[1],
      );
      expect(said).toHaveLength(Math.min(changed.length, 12));
      for (const name of said) expect([...names.values()]).toContain(name);
      // Every source of the published breakdown is cited once, numbered.
      const sources = new Set(
        (["innovation", "control", "scale"] as const).flatMap((axis) =>
          (data.axes[axis].indicators as Payload[]).flatMap((i) => (i.evidence ? [i.evidence.source as string] : [])),
        ),
      );
      expect(sources.size).toBeGreaterThan(0);
      const [, cited = ""] = text.split(/^Sources:$/m);
      for (const source of sources) expect(cited.split("\n").filter((l) => l.endsWith(`] ${source}`))).toHaveLength(1);
    }
    // At 50 indicators a product, every one of them moved under controls: cut at 12, within the budget (call() holds it).
    const wide = await call("service_market_get_product", {
      marketId: "generated-1000",
      productId: "product-1",
      country: "DE",
    });
    const wideChanged = (["innovation", "control", "scale"] as const).flatMap((axis) =>
      (wide.data.underControls.axes[axis].indicators as Payload[]).filter((i) => i.change !== 0),
    );
    expect(wideChanged.length).toBeGreaterThan(12);
    expect(wide.text).toContain(`and ${wideChanged.length - 12} more (`);
    // The case of the issue: Brightwater under FR gains Control and says why.
    const { text } = await call("service_market_get_product", {
      marketId: MARKET,
      productId: "brightwater-cortex",
      country: "FR",
    });
    expect(text).toMatch(/^ {2}\+\d+(\.\d)? Control from .+ → .+, the engaged offering's own value/m);
  });

  it("the snapshot's HTML at 1,000 products says which of how many it holds, each page under its own URI", async () => {
    const first = await call("service_market_get_snapshot", { marketId: "generated-1000" });
    const htmlOf = (content: Payload[]) => content.find((c) => c.type === "resource")?.resource;
    const page1 = htmlOf(first.content);
    const { returned, total, nextCursor } = first.data.page;
    expect(total).toBe(1000);
    expect(page1.text).toContain(`${returned} of 1,000 products shown (products 1–${returned},`);
    expect(page1.text).toContain(`cursor <code>${nextCursor}</code>`);
    expect(page1.text.match(/<tr><th scope="row">/g)?.length).toBe(returned + 3);
    const second = await call("service_market_get_snapshot", { marketId: "generated-1000", cursor: nextCursor });
    const page2 = htmlOf(second.content);
    expect(page2.uri).not.toBe(page1.uri);
    expect(page2.text).toContain(`of 1,000 products shown (products ${returned + 1}–`);
    // Each URI names its own page back: the same products.
    for (const [page, data] of [
      [page1, first.data],
      [page2, second.data],
    ] as const) {
      const read = await client.readResource({ uri: page.uri });
      const html = read.contents[0] as { text: string };
      for (const p of [data.products[0], data.products.at(-1)]) expect(html.text).toContain(`>${p.name}</th>`);
      expect(html.text).toBe(page.text);
    }
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
