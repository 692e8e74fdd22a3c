/**
 * What a release changed, over real HTTP and MCP against the demo catalogue (foundation-model-apis
 * has three releases: 2 changed the methodology, 3 refreshed the data and added a product): the
 * defaults, the same payload on both surfaces, the price, ETag, and every refusal, uncharged.
 */
import { describe, expect, inject, it } from "vitest";
import { dashboardCall } from "../helpers/dashboard";
import { callToolWithToken } from "../helpers/mcp";

const base = inject("appUrl");
const accounts = inject("accounts");
const MARKET = "foundation-model-apis";
const AXES = ["innovation", "control", "scale"] as const;

type Changes = {
  from: { release: number };
  to: { release: number };
  country: string;
  market: Record<string, unknown> & { productsAdded: string[]; methodologyChanged: boolean; material: boolean };
  products: {
    productId: string;
    status: string;
    scores: Record<
      (typeof AXES)[number],
      { change: number; attribution: { ownValues: number; field: number; method: number } }
    > | null;
  }[];
};

const get = async (query = "", headers: Record<string, string> = {}) => {
  const response = await fetch(`${base}/v1/markets/${MARKET}/changes${query}`, {
    headers: { Authorization: `Bearer ${accounts.changes.token}`, ...headers },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
};

const balance = async () =>
  ((await dashboardCall(base, accounts.changes.session, "credits.summary")).data as { balance: number }).balance;

describe("GET /v1/markets/{marketId}/changes", () => {
  it("compares the latest release with the one before, under the home country, for 2 credits", async () => {
    const before = await balance();
    const answer = await get();
    expect(answer.status).toBe(200);
    const body = answer.body as Changes;
    expect(body.from.release).toBe(2);
    expect(body.to.release).toBe(3);
    expect(body.country).toBe("FR");
    expect(body.market.productsAdded).toEqual(["fennwick-private-inference"]);
    // Release 3 kept methodology 2.0 but reworded its text (thirteen providers, new dates).
    expect(body.market).toMatchObject({
      methodologyChanged: true,
      material: false,
      methodologyVersion: { from: "2.0", to: "2.0" },
    });
    expect(body.products.find((p) => p.productId === "fennwick-private-inference")?.status).toBe("entered");
    // Every attribution adds up to its change, on every axis of every product that stayed.
    for (const product of body.products.filter((p) => p.status === "stayed"))
      for (const axis of AXES) {
        const { change, attribution } = (product.scores as NonNullable<typeof product.scores>)[axis];
        const parts = attribution.ownValues + attribution.field + attribution.method;
        expect(Math.round(parts * 10), `${product.productId} ${axis}`).toBe(Math.round(change * 10));
      }
    // A product added moves the field: someone whose own values did not change still moved.
    expect(body.products.some((p) => p.scores && AXES.some((axis) => p.scores?.[axis].attribution.field !== 0))).toBe(
      true,
    );
    expect(before - (await balance())).toBe(2);
  });

  it("compares any earlier pair, naming the material methodology change", async () => {
    const answer = await get("?from=1&to=2&country=de");
    expect(answer.status).toBe(200);
    const body = answer.body as Changes;
    expect(body.country).toBe("DE");
    expect(body.market).toMatchObject({
      methodologyChanged: true,
      material: true,
      methodologyVersion: { from: "1.0", to: "2.0" },
      indicatorsAdded: ["eu-legal-immunity"],
    });
    // Control was reweighted: its changes are the method's.
    const moved = body.products.filter((p) => p.scores && p.scores.control.change !== 0);
    expect(moved.length).toBeGreaterThan(0);
    for (const product of moved) expect(product.scores?.control.attribution.method).not.toBe(0);
  });

  it("answers a named pair's ETag with 304, free", async () => {
    const first = await get("?from=1&to=3");
    const etag = first.headers.get("etag") as string;
    expect(etag).toMatch(/^(W\/)?"[A-Za-z0-9_-]{32}"$/); // weak when compressed: fetch asks for br
    expect(first.headers.get("cache-control")).toContain("max-age=3600");
    const before = await balance();
    const again = await get("?from=1&to=3", { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(await balance()).toBe(before);
    expect((await get("?from=2&to=3")).headers.get("etag")).not.toBe(etag);
  });

  it("refuses what cannot be compared with problem+json, uncharged", async () => {
    const before = await balance();
    const cases: [string, number, string][] = [
      [`?from=3&to=2`, 400, "invalid_request"],
      [`?from=2&to=2`, 400, "invalid_request"],
      [`?to=9`, 404, "not_found"],
      [`?from=0`, 400, "invalid_request"],
      [`?country=ZZ`, 400, "invalid_request"],
    ];
    for (const [query, status, code] of cases) {
      const answer = await get(query);
      expect(answer.status, query).toBe(status);
      expect(answer.headers.get("content-type"), query).toBe("application/problem+json");
      expect(answer.body.code, query).toBe(code);
    }
    const oneRelease = await fetch(`${base}/v1/markets/managed-kubernetes/changes`, {
      headers: { Authorization: `Bearer ${accounts.changes.token}` },
    });
    expect(oneRelease.status).toBe(404);
    expect(((await oneRelease.json()) as { detail: string }).detail).toMatch(/only release 1/);
    expect(await balance()).toBe(before);
  });

  it("is in the OpenAPI document", async () => {
    const document = (await (await fetch(`${base}/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toContain("/markets/{marketId}/changes");
  });
});

describe("service_market_get_changes", () => {
  it("answers the REST body as structuredContent, with a text a model can quote", async () => {
    const result = await callToolWithToken(base, accounts.changes.token, "service_market_get_changes", {
      marketId: MARKET,
      from: 2,
      to: 3,
      country: "FR",
    });
    expect(result.isError).toBeFalsy();
    const rest = await get("?from=2&to=3&country=FR");
    expect(result.structuredContent).toEqual(rest.body);
    const text = result.content[0]?.text ?? "";
    expect(text).toMatch(/^Release 3 of foundation-model-apis against release 2/);
    expect(text).toContain("Methodology 2.0 reworded.");
    expect(text).toContain("Products added: Fennwick Private Inference.");
    expect(text).toMatch(/of which [+−-]?[\d.]+ (from its own values|because the field moved)/);
  });
});
