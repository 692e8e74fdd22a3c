/**
 * Numbers that explain themselves, over real HTTP and MCP against the demo catalogue: the product
 * breakdown and the availability matrix, their prices, ETags and refusals (uncharged), the same
 * payload on both surfaces, and agreement with the Delta reading.
 */
import { describe, expect, inject, it } from "vitest";
import type { AvailabilityCell } from "@/server/2-readings/availability";
import { dashboardCall } from "../helpers/dashboard";
import { callToolWithToken } from "../helpers/mcp";

const base = inject("appUrl");
const accounts = inject("accounts");
const MARKET = "foundation-model-apis";
const PRODUCT = "quillmere-atlas";
const AXES = ["innovation", "control", "scale"] as const;

type Contribution = { indicatorId: string; contribution: number; gap: boolean; evidence: { asOf: string } | null };
type Product = {
  release: number;
  productId: string;
  scores: Record<(typeof AXES)[number], number>;
  axes: Record<(typeof AXES)[number], { score: number; indicators: Contribution[] }>;
  offerings: { offeringId: string; default: boolean; satisfies: string[] }[];
  underControls: null | {
    country: string;
    available: boolean;
    offering: { id: string } | null;
    missingControls: string[];
    underControls: Record<(typeof AXES)[number], number>;
    distance: Record<string, number>;
    axes: Record<(typeof AXES)[number], { indicators: { change: number; contribution: number }[] }>;
  };
};
type Matrix = {
  release: number;
  countries: { country: string }[];
  products: {
    productId: string;
    cells: AvailabilityCell[];
  }[];
};
type Delta = {
  products: {
    productId: string;
    available: boolean;
    offering: { id: string } | null;
    missingControls: string[];
    underControls: Record<string, number>;
    distance: Record<string, number>;
  }[];
};

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${base}/v1/markets/${MARKET}${path}`, {
    headers: { Authorization: `Bearer ${accounts.explained.token}`, ...headers },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
};

const balance = async () =>
  ((await dashboardCall(base, accounts.explained.session, "credits.summary")).data as { balance: number }).balance;

const tenths = (values: number[]) => values.reduce((sum, value) => sum + Math.round(value * 10), 0);

describe("GET /v1/markets/{marketId}/products/{productId}", () => {
  it("traces every published score to its indicators, with evidence, for 2 credits", async () => {
    const before = await balance();
    const answer = await get(`/products/${PRODUCT}`);
    expect(answer.status).toBe(200);
    const body = answer.body as Product;
    expect(body.productId).toBe(PRODUCT);
    expect(body.underControls).toBeNull();
    for (const axis of AXES) {
      expect(body.axes[axis].score).toBe(body.scores[axis]);
      expect(tenths(body.axes[axis].indicators.map((i) => i.contribution)), axis).toBe(
        Math.round(body.scores[axis] * 10),
      );
      // The demo catalogue documents every value it gives.
      for (const indicator of body.axes[axis].indicators.filter((i) => !i.gap))
        expect(indicator.evidence?.asOf, `${axis} ${indicator.indicatorId}`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(body.offerings[0]?.default).toBe(true);
    expect(body.offerings.length).toBeGreaterThan(1);
    expect(before - (await balance())).toBe(2);
  });

  it("with a country, says what the product keeps exactly as the Delta does", async () => {
    const product = (await get(`/products/${PRODUCT}?country=de`)).body as Product;
    const reading = (await get("/delta?country=DE")).body as Delta;
    const moved = reading.products.find((p) => p.productId === PRODUCT);
    const under = product.underControls;
    expect(under?.country).toBe("DE");
    expect(under?.available).toBe(moved?.available);
    expect(under?.offering?.id).toBe(moved?.offering?.id);
    expect(under?.missingControls).toEqual(moved?.missingControls);
    expect(under?.underControls).toEqual(moved?.underControls);
    expect(under?.distance).toEqual(moved?.distance);
    for (const axis of AXES) {
      const indicators = under?.axes[axis].indicators ?? [];
      expect(tenths(indicators.map((i) => i.contribution))).toBe(Math.round((under?.underControls[axis] ?? 0) * 10));
      expect(tenths(indicators.map((i) => i.change))).toBe(Math.round((moved?.distance[axis] ?? 0) * 10));
    }
  });

  it("answers its ETag with 304, free", async () => {
    const first = await get(`/products/${PRODUCT}?release=2&country=FR`);
    const etag = first.headers.get("etag") as string;
    expect(etag).toMatch(/^(W\/)?"[A-Za-z0-9_-]{32}"$/); // weak when compressed: fetch asks for br
    expect(first.headers.get("cache-control")).toContain("max-age=3600");
    const before = await balance();
    expect((await get(`/products/${PRODUCT}?release=2&country=FR`, { "If-None-Match": etag })).status).toBe(304);
    expect(await balance()).toBe(before);
    expect((await get(`/products/${PRODUCT}?release=2`)).headers.get("etag")).not.toBe(etag);
  });

  it("refuses an unknown product, release or country with problem+json, uncharged", async () => {
    const before = await balance();
    const cases: [string, number, string][] = [
      ["/products/no-such-product", 404, "not_found"],
      ["/products/Not_A_Slug", 400, "invalid_request"],
      [`/products/${PRODUCT}?release=9`, 404, "not_found"],
      [`/products/${PRODUCT}?country=ZZ`, 400, "invalid_request"],
      // Release 1 had no Fennwick: it entered in release 3.
      ["/products/fennwick-private-inference?release=1", 404, "not_found"],
    ];
    for (const [path, status, code] of cases) {
      const answer = await get(path);
      expect(answer.status, path).toBe(status);
      expect(answer.headers.get("content-type"), path).toBe("application/problem+json");
      expect(answer.body.code, path).toBe(code);
    }
    expect(await balance()).toBe(before);
  });
});

describe("GET /v1/markets/{marketId}/availability", () => {
  it("gives every product under every country for 3 credits, each cell what that country's Delta says", async () => {
    const before = await balance();
    const answer = await get("/availability");
    expect(answer.status).toBe(200);
    const matrix = answer.body as Matrix;
    expect(before - (await balance())).toBe(3);
    const geographies = (await (
      await fetch(`${base}/v1/geographies`, { headers: { Authorization: `Bearer ${accounts.explained.token}` } })
    ).json()) as { geographies: { country: string }[] };
    expect(matrix.countries.map((c) => c.country)).toEqual(geographies.geographies.map((g) => g.country).sort());
    for (const country of ["FR", "DE", "US"]) {
      const reading = (await get(`/delta?country=${country}`)).body as Delta;
      const column = matrix.countries.findIndex((c) => c.country === country);
      for (const [index, row] of matrix.products.entries()) {
        const expected = reading.products[index];
        expect(row.productId).toBe(expected?.productId);
        expect(row.cells[column], `${row.productId} ${country}`).toEqual({
          country,
          available: expected?.available,
          offeringId: expected?.offering?.id ?? null,
          innovationRetained: expected?.underControls.innovation,
          distance: expected?.distance.magnitude,
          missingControls: expected?.missingControls,
        });
      }
    }
    // Somewhere a control set leaves a product unavailable, and says why.
    const unavailable = matrix.products.flatMap((p) => p.cells).filter((c) => !c.available);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const cell of unavailable) expect(cell.missingControls.length).toBeGreaterThan(0);
  });

  it("answers its ETag with 304, free, and refuses an unknown market uncharged", async () => {
    const first = await get("/availability?release=1");
    const etag = first.headers.get("etag") as string;
    const before = await balance();
    expect((await get("/availability?release=1", { "If-None-Match": etag })).status).toBe(304);
    const unknown = await fetch(`${base}/v1/markets/no-such-market/availability`, {
      headers: { Authorization: `Bearer ${accounts.explained.token}` },
    });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: string }).code).toBe("not_found");
    expect(await balance()).toBe(before);
  });

  it("is in the OpenAPI document beside the breakdown", async () => {
    const document = (await (await fetch(`${base}/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/markets/{marketId}/availability", "/markets/{marketId}/products/{productId}"]),
    );
  });
});

describe("MCP: service_market_get_product and service_market_get_availability", () => {
  it("answer the REST bodies as structuredContent, with texts a model can read", async () => {
    const product = await callToolWithToken(base, accounts.explained.token, "service_market_get_product", {
      marketId: MARKET,
      productId: PRODUCT,
      country: "FR",
    });
    expect(product.isError).toBeFalsy();
    expect(product.structuredContent).toEqual((await get(`/products/${PRODUCT}?country=FR`)).body);
    const productText = product.content[0]?.text ?? "";
    expect(productText).toMatch(/^Quillmere Atlas API \(Quillmere Labs\) in foundation-model-apis, release 3/);
    expect(productText).toMatch(/Innovation [\d.]+ \(\w+\) =\n {2}[\d.]+ from /);
    expect(productText).toContain("Under FR's controls:");

    const matrix = await callToolWithToken(base, accounts.explained.token, "service_market_get_availability", {
      marketId: MARKET,
    });
    expect(matrix.isError).toBeFalsy();
    // The whole matrix is over an MCP result's token budget: the tool answers its first page,
    // which is REST's answer for the same page (tests/app/narrowing.test.ts pages through it all).
    const returned = (matrix.structuredContent as { page?: { returned: number } }).page?.returned ?? 0;
    expect(returned).toBeGreaterThan(0);
    const rest = (await get(`/availability?limit=${returned}`)).body as Matrix;
    expect(matrix.structuredContent).toEqual(rest);
    const lines = (matrix.content[0]?.text ?? "").split("\n");
    // A header, a legend, then one line per product naming every country, then what was left out.
    expect(lines.slice(2, 2 + returned).every((line) => / FR:([\d.]+|—)/.test(line))).toBe(true);
    expect(lines.at(-1)).toMatch(new RegExp(`^Showing products 1–${returned} of \\d+`));
  });

  it("refuses an unknown product as a tool error carrying not_found, uncharged", async () => {
    const before = await balance();
    const result = await callToolWithToken(base, accounts.explained.token, "service_market_get_product", {
      marketId: MARKET,
      productId: "no-such-product",
    });
    expect(result.isError).toBe(true);
    expect((result._meta as { problem?: { code: string } } | undefined)?.problem?.code).toBe("not_found");
    expect(await balance()).toBe(before);
  });
});
