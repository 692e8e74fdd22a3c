/**
 * Readings narrowed as asked, on REST and MCP through one implementation, and every MCP tool result
 * within its token budget by default: over real HTTP and through the MCP SDK client. Pages put
 * back together are exactly REST's complete reading; expectations come from REST's own answers.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DECLARATIONS } from "@/server/7-procedures/operations";
import type { ToolResult } from "../helpers/mcp";

const base = inject("appUrl");
const { reader } = inject("accounts");
const auth = { Authorization: `Bearer ${reader.token}` };
const MARKET = "foundation-model-apis";
const BUDGET_TOKENS = 8_000;

type Json = Record<string, unknown>;
interface Page {
  offset: number;
  returned: number;
  total: number;
  nextCursor: string | null;
}
interface Reading extends Json {
  products: (Json & { productId: string; name: string })[];
  page?: Page;
}

async function rest(path: string): Promise<{ status: number; body: Json; etag: string | null }> {
  const response = await fetch(`${base}/v1${path}`, { headers: auth });
  return { status: response.status, body: (await response.json()) as Json, etag: response.headers.get("etag") };
}

let client: Client;
beforeAll(async () => {
  client = new Client({ name: "mps-narrowing", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: auth } }));
});
afterAll(() => client?.close());

const call = async (name: string, args: Json) =>
  (await client.callTool({ name, arguments: args })) as ToolResult & { structuredContent: Reading };
/** A result's size as the budget counts it: its bytes ÷ 4. */
const tokens = (result: unknown) => Buffer.byteLength(JSON.stringify(result)) / 4;

describe("narrowing on REST", () => {
  it("pages through a reading in its own order; the pages put together are the complete reading", async () => {
    const full = (await rest(`/markets/${MARKET}/snapshot`)).body as Reading;
    expect(full.page).toBeUndefined();
    const seen: Reading["products"] = [];
    let cursor: string | null = null;
    do {
      const answer = await rest(
        `/markets/${MARKET}/snapshot?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(answer.status).toBe(200);
      const page = answer.body as Reading;
      expect(page.page?.offset).toBe(seen.length);
      expect(page.page?.total).toBe(full.products.length);
      expect(page.methodology).toBe(full.methodology);
      seen.push(...page.products);
      cursor = page.page?.nextCursor ?? null;
    } while (cursor);
    expect(seen).toEqual(full.products);
  });

  it("keeps the products named and, in the matrix, the countries asked for", async () => {
    const full = (await rest(`/markets/${MARKET}/availability`)).body as Reading & { countries: { country: string }[] };
    const [a, b] = [full.products[3], full.products[1]] as [Reading["products"][number], Reading["products"][number]];
    const some = (
      await rest(
        `/markets/${MARKET}/availability?productIds=${a.productId},${b.productId}&countries=fr,de&fields=cells`,
      )
    ).body as Reading & { countries: { country: string }[] };
    expect(some.countries.map((c) => c.country)).toEqual(
      full.countries.map((c) => c.country).filter((c) => c === "FR" || c === "DE"),
    );
    // In the reading's order, not the order asked; each product's cells of those countries only,
    // and of its fields only what names it and the cells asked for.
    const keep = (p: Json & { cells: { country: string }[] }) => ({
      productId: p.productId,
      name: p.name,
      cells: p.cells.filter((c) => c.country === "FR" || c.country === "DE"),
    });
    expect(some.products).toEqual(full.products.filter((p) => p === a || p === b).map((p) => keep(p as never)));
  });

  it("names the parameter and what exists when a narrowing cannot be done", async () => {
    for (const [query, parameter] of [
      ["productIds=no-such-product", "productIds"],
      ["limit=0", "limit"],
      ["cursor=bm90LW91cnM", "cursor"],
      ["countries=ZZ", "countries"],
      ["fields=scores,nothing", "fields"],
      ["fields=scores;drop", "fields"],
    ] as const) {
      const response = await fetch(`${base}/v1/markets/${MARKET}/availability?${query}`, { headers: auth });
      const body = (await response.json()) as { code: string; issues?: { path: string }[] };
      expect(response.status, query).toBe(400);
      expect(body.code).toBe("invalid_request");
      expect(body.issues?.[0]?.path, query).toBe(parameter);
    }
  });

  it("cuts every product to the fields asked for, keeping what names it, and charges the same", async () => {
    const full = await rest(`/markets/${MARKET}/delta?country=FR`);
    const sparse = await rest(`/markets/${MARKET}/delta?country=FR&fields=available,distance`);
    expect(sparse.status).toBe(200);
    expect(sparse.etag).not.toBe(full.etag);
    const { products: fullProducts, ...fullRest } = full.body as Reading;
    const { products: sparseProducts, fields, ...sparseRest } = sparse.body as Reading & { fields: string[] };
    expect(sparseRest).toEqual(fullRest);
    // A sparse answer says what it is, and which fields its products kept.
    expect(fields).toEqual(["productId", "name", "available", "distance"]);
    expect(sparseProducts).toEqual(
      fullProducts.map((p) => ({ productId: p.productId, name: p.name, available: p.available, distance: p.distance })),
    );
    // With the other narrowing parameters, in any order of the fields.
    const top = await rest(`/markets/${MARKET}/delta?country=FR&limit=2&fields=distance,available`);
    expect((top.body as Reading).products).toEqual(sparseProducts.slice(0, 2));
  });

  it("names a narrowed reading apart from the complete one, and answers its own ETag with 304", async () => {
    const full = await rest(`/markets/${MARKET}/capaindex`);
    const top = await rest(`/markets/${MARKET}/capaindex?limit=3`);
    expect(top.etag).not.toBe(full.etag);
    const again = await fetch(`${base}/v1/markets/${MARKET}/capaindex?limit=3`, {
      headers: { ...auth, "If-None-Match": String(top.etag) },
    });
    expect(again.status).toBe(304);
  });
});

describe("MCP results within the token budget", () => {
  it("answers every tool's example in at most 8,000 tokens, saying what was left out", async () => {
    const sizes: Record<string, number> = {};
    for (const declaration of DECLARATIONS.filter((d) => d.tool)) {
      const name = declaration.tool?.name as string;
      const result = await call(name, declaration.example as Json);
      expect(result.isError ?? false, name).toBe(false);
      sizes[name] = Math.round(tokens(result));
      expect(sizes[name], name).toBeLessThanOrEqual(BUDGET_TOKENS);
      const page = result.structuredContent.page;
      if (page?.nextCursor) expect(result.content[0]?.text, name).toContain(`cursor "${page.nextCursor}"`);
    }
    console.log(`[budget] tokens per default result: ${JSON.stringify(sizes)}`);
  });

  it("pages the availability matrix (over the budget whole) back into exactly REST's complete matrix", async () => {
    const full = (await rest(`/markets/${MARKET}/availability`)).body as Reading;
    expect(tokens(full)).toBeGreaterThan(BUDGET_TOKENS); // the whole matrix would not fit
    const seen: Reading["products"] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = await call("service_market_get_availability", { marketId: MARKET, ...(cursor ? { cursor } : {}) });
      expect(tokens(result)).toBeLessThanOrEqual(BUDGET_TOKENS);
      const { products, page, ...rest } = result.structuredContent;
      const { products: _all, ...fullRest } = full;
      expect(rest).toEqual(fullRest);
      expect(page?.offset).toBe(seen.length);
      expect(result.content[0]?.text).toContain(
        `Showing products ${seen.length + 1}–${seen.length + products.length} of ${full.products.length}`,
      );
      seen.push(...products);
      cursor = page?.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual(full.products);
  });

  it("answers a sparse reading with the fields asked for, its text listing them", async () => {
    const args = { marketId: MARKET, country: "FR", fields: "available" };
    const onMcp = await call("service_market_get_delta", args);
    expect(onMcp.isError ?? false, JSON.stringify(onMcp).slice(0, 600)).toBe(false);
    const onRest = (await rest(`/markets/${MARKET}/delta?country=FR&fields=available`)).body as Reading;
    expect(onMcp.structuredContent).toEqual(onRest);
    const text = onMcp.content[0]?.text ?? "";
    for (const p of onRest.products)
      expect(text).toContain(
        `- ${p.name} (${p.productId})${p.available ? "" : ", unavailable: no score under the controls"}: {"available":${p.available}}`,
      );
  });

  it("narrows as REST does, through the same implementation", async () => {
    const args = { marketId: MARKET, country: "FR", limit: 2, productIds: "quillmere-atlas,kestrelune-models" };
    const onMcp = await call("service_market_get_servicemax", args);
    expect(onMcp.isError ?? false, JSON.stringify(onMcp).slice(0, 600)).toBe(false);
    const onRest = (
      await rest(`/markets/${MARKET}/servicemax?country=FR&limit=2&productIds=quillmere-atlas,kestrelune-models`)
    ).body;
    expect((onRest as Reading).products).toHaveLength(2);
    expect(onMcp.structuredContent).toEqual(onRest);
  });
});
