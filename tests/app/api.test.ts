/**
 * The /v1 REST API over real HTTP against the running app seeded with the demo catalogue.
 * Expectations come from the demo files and the manifest (the inputs), never from the API's own
 * output; every response is validated against the served OpenAPI document.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { DECLARATIONS } from "@/server/7-procedures/operations";
import { type CheckedResponse, responseValidator } from "../helpers/openapi-validator";
import { FIXED_NAMES } from "../helpers/spec";
import { SIZED_MARKET } from "./global-setup";

const base = inject("appUrl");
const { reader, french } = inject("accounts");
const asReader = { Authorization: `Bearer ${reader.token}` };
const DEMO = path.resolve(import.meta.dirname, "../../db/demo");
const demo = (file: string) => parseYaml(readFileSync(path.join(DEMO, file), "utf8"));
const fmr3 = demo("markets/foundation-model-apis.r3.yaml");
const geographiesFile = demo("geographies.yaml");
const manifest = demo("manifest.yaml");
const FR_CONTROLS: string[] = geographiesFile.geographies.find((g: { country: string }) => g.country === "FR").controls;

let validate: ReturnType<typeof responseValidator>;

/** Calls the API and checks the response against the OpenAPI document before returning it. */
async function api(apiPath: string, init: RequestInit = {}): Promise<CheckedResponse> {
  const response = await fetch(`${base}/v1${apiPath}`, { ...init, headers: { ...asReader, ...init.headers } });
  const text = await response.text();
  const isJson = /json/.test(response.headers.get("content-type") ?? "");
  const checked = {
    status: response.status,
    headers: response.headers,
    text,
    body: isJson && text ? JSON.parse(text) : undefined,
  };
  validate(init.method ?? "GET", apiPath, checked);
  return checked;
}

/** The problem+json contract every failure keeps. */
function expectProblem(response: CheckedResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(response.body).toMatchObject({ status, code, type: `${base}/docs/errors#${code}` });
  expect(typeof response.body.title).toBe("string");
  expect(response.body.detail.length).toBeGreaterThan(0);
  expect(response.body.requestId).toBe(response.headers.get("x-request-id"));
  expect(response.text).not.toMatch(/stack|trpc|TRPCError|at .*\.js|<html/i);
}

beforeAll(async () => {
  const document = await (await fetch(`${base}/v1/openapi.json`)).json();
  validate = responseValidator(document);
});

describe("products", () => {
  it("lists a release's products free, in the file's order, each with its offerings (the default first)", async () => {
    const response = await api("/markets/foundation-model-apis/products");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-credits-cost")).toBe("0");
    expect(response.headers.get("etag")).toMatch(/^(W\/)?"/); // weak when compressed
    type FileOffering = { id: string; name: string; default?: boolean; satisfies?: string[] };
    type FileProduct = { productId: string; name: string; vendor: string; offerings: FileOffering[] };
    expect(response.body.release).toBe(3);
    expect(response.body.products).toEqual(
      fmr3.products.map((p: FileProduct) => ({
        productId: p.productId,
        name: p.name,
        vendor: p.vendor,
        offerings: [...p.offerings.filter((o) => o.default), ...p.offerings.filter((o) => !o.default)].map((o) => ({
          id: o.id,
          name: o.name,
          default: o.default === true,
          satisfies: o.satisfies ?? [],
        })),
      })),
    );
  });

  it("names every product the breakdown takes, and answers 404 for a market it does not know", async () => {
    const listed = await api("/markets/foundation-model-apis/products?release=1");
    expect(listed.status).toBe(200);
    for (const { productId } of listed.body.products.slice(0, 3))
      expect((await api(`/markets/foundation-model-apis/products/${productId}?release=1`)).status).toBe(200);
    expectProblem(await api("/markets/no-such-market/products"), 404, "not_found");
  });
});

describe("markets", () => {
  it("lists the listed demo markets with their latest release, without the archived one", async () => {
    const response = await api("/markets");
    expect(response.status).toBe(200);
    const publishedAt = (file: string) =>
      new Date(manifest.steps.filter((s: { publish?: string }) => s.publish === file).at(-1).publishedAt).toISOString();
    const rows = response.body.markets.map((m: Record<string, unknown>) => [
      m.marketId,
      m.productCount,
      m.release,
      m.lastUpdated,
    ]);
    // The suite's setup publishes the size tests' generated market beside the demo's.
    expect(rows.find((row: unknown[]) => row[0] === SIZED_MARKET.marketId)?.slice(0, 3)).toEqual([
      SIZED_MARKET.marketId,
      SIZED_MARKET.products,
      2,
    ]);
    expect(rows.filter((row: unknown[]) => row[0] !== SIZED_MARKET.marketId)).toEqual([
      ["foundation-model-apis", 13, 3, publishedAt("markets/foundation-model-apis.r3.yaml")],
      ["managed-kubernetes", 12, 1, publishedAt("markets/managed-kubernetes.yaml")],
      ["object-storage", 11, 1, publishedAt("markets/object-storage.yaml")],
      ["speech-to-text", 10, 1, publishedAt("markets/speech-to-text.yaml")],
    ]);
    expect(response.body.markets[0]).toMatchObject({ name: fmr3.name, description: fmr3.description });
  });

  it("gets one market", async () => {
    const response = await api("/markets/foundation-model-apis");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      marketId: "foundation-model-apis",
      name: "Foundation-model APIs",
      productCount: 13,
      release: 3,
      methodologyVersion: "2.0",
      material: false,
    });
  });

  it("gives the changelog newest first, with the material release marked", async () => {
    const response = await api("/markets/foundation-model-apis/changelog");
    const steps = manifest.steps.filter((s: { publish?: string }) =>
      s.publish?.startsWith("markets/foundation-model-apis"),
    );
    expect(
      response.body.releases.map((r: Record<string, unknown>) => [
        r.release,
        r.methodologyVersion,
        r.material,
        r.notes,
      ]),
    ).toEqual([
      [3, "2.0", false, steps[2].notes],
      [2, "2.0", true, steps[1].notes],
      [1, "1.0", false, steps[0].notes],
    ]);
  });
});

describe("geographies", () => {
  it("lists every country with its controls and their frameworks", async () => {
    const response = await api("/geographies");
    expect(response.status).toBe(200);
    const countries = response.body.geographies.map((g: { country: string }) => g.country);
    expect(countries).toHaveLength(geographiesFile.geographies.length);
    const fr = response.body.geographies.find((g: { country: string }) => g.country === "FR");
    expect(fr.controls.map((c: { id: string }) => c.id).sort()).toEqual([...FR_CONTROLS].sort());
    expect(fr.controls.find((c: { id: string }) => c.id === "secnumcloud").framework).toBe(
      "SecNumCloud 3.2 (ANSSI, France)",
    );
    expect(response.body.geographies.find((g: { country: string }) => g.country === "GB").controls).toEqual([]);
  });
});

describe("readings", () => {
  it("snapshot: every product, the bands and the methodology verbatim", async () => {
    const response = await api("/markets/foundation-model-apis/snapshot");
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({ marketId: "foundation-model-apis", release: 3, methodologyVersion: "2.0" });
    expect(body.methodology).toBe(fmr3.methodology);
    const innovationBands = fmr3.dimensions.innovation.bands.map(
      (b: { name: string; from: number }, i: number, all: { from: number }[]) => ({
        name: b.name,
        from: b.from,
        to: all[i + 1]?.from ?? 100,
      }),
    );
    expect(body.dimensions[0]).toMatchObject({
      id: "innovation",
      name: fmr3.dimensions.innovation.name,
      bands: innovationBands,
    });
    const byName = [...fmr3.products]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((p: { productId: string }) => p.productId);
    expect(body.products.map((p: { productId: string }) => p.productId)).toEqual(byName);
    for (const product of body.products)
      for (const axis of ["innovation", "control", "scale"]) {
        expect(product.scores[axis]).toBeGreaterThanOrEqual(0);
        expect(product.scores[axis]).toBeLessThanOrEqual(100);
      }
  });

  it("snapshot of an older release: methodology 1.0, and the gap release 3 closed", async () => {
    const first = await api("/markets/foundation-model-apis/snapshot?release=1");
    expect(first.body).toMatchObject({ release: 1, methodologyVersion: "1.0" });
    expect(first.body.methodology).toBe(demo("markets/foundation-model-apis.r1.yaml").methodology);
    const gaps = (body: { products: { productId: string; gaps: string[] }[] }) =>
      body.products.find((p) => p.productId === "cinderpath-fast")?.gaps;
    expect(gaps(first.body)).toContain("p95-ttft");
    expect(gaps((await api("/markets/foundation-model-apis/snapshot")).body)).not.toContain("p95-ttft");
    expect(first.body.products.map((p: { productId: string }) => p.productId)).not.toContain(
      "fennwick-private-inference",
    );
  });

  it("capability index: ranked by innovation, competition ranking, ties by name", async () => {
    const snapshot = (await api("/markets/managed-kubernetes/snapshot")).body;
    const response = await api("/markets/managed-kubernetes/capaindex");
    expect(response.status).toBe(200);
    const products = response.body.products;
    expect(products).toHaveLength(snapshot.products.length);
    products.forEach((p: { rank: number; innovation: number; name: string }, i: number) => {
      const previous = products[i - 1];
      if (!previous) {
        expect(p.rank).toBe(1);
        return;
      }
      expect(p.innovation).toBeLessThanOrEqual(previous.innovation);
      if (p.innovation === previous.innovation) {
        expect(p.rank).toBe(previous.rank);
        expect(p.name > previous.name).toBe(true);
      } else expect(p.rank).toBe(i + 1);
    });
    const published = new Map(
      snapshot.products.map((p: { productId: string; scores: { innovation: number } }) => [
        p.productId,
        p.scores.innovation,
      ]),
    );
    for (const p of products) expect(p.innovation).toBe(published.get(p.productId));
  });

  it("max and delta in France: only products with an offering satisfying every French control are available", async () => {
    // The oracle: set inclusion over the definition file, not the engine.
    const compliant = fmr3.products
      .filter((p: { offerings: { satisfies?: string[] }[] }) =>
        p.offerings.some((o) => FR_CONTROLS.every((c) => (o.satisfies ?? []).includes(c))),
      )
      .map((p: { productId: string }) => p.productId)
      .sort();
    expect(compliant).toEqual(["brightwater-cortex", "kestrelune-models"]);

    const max = await api("/markets/foundation-model-apis/servicemax?country=fr");
    expect(max.status).toBe(200);
    expect(max.body.country).toBe("FR");
    expect(max.body.controls.map((c: { id: string }) => c.id).sort()).toEqual([...FR_CONTROLS].sort());
    const available = max.body.products
      .filter((p: { available: boolean }) => p.available)
      .map((p: { productId: string }) => p.productId);
    expect([...available].sort()).toEqual(compliant);
    expect(
      max.body.products
        .slice(0, 2)
        .map((p: { productId: string }) => p.productId)
        .sort(),
    ).toEqual(compliant);
    for (let i = 1; i < max.body.products.length; i++)
      expect(max.body.products[i].on.innovation).toBeLessThanOrEqual(max.body.products[i - 1].on.innovation);

    const delta = await api("/markets/foundation-model-apis/delta?country=FR");
    for (const p of delta.body.products) {
      for (const axis of ["innovation", "control", "scale"])
        expect(p.distance[axis]).toBeCloseTo(p.underControls[axis] - p.published[axis], 5);
      if (!p.available) {
        expect(p.underControls).toEqual({ innovation: 0, control: 0, scale: 0 });
        expect(p.offering).toBeNull();
        expect(p.missingControls.length).toBeGreaterThan(0);
        for (const c of p.missingControls) expect(FR_CONTROLS).toContain(c);
      }
    }
    const brightwater = delta.body.products.find((p: { productId: string }) => p.productId === "brightwater-cortex");
    expect(brightwater.offering.id).toBe("souverain-partner");
  });

  it("delta in a country without controls: nothing moves", async () => {
    const response = await api("/markets/object-storage/delta?country=GB");
    expect(response.body.controls).toEqual([]);
    for (const p of response.body.products) {
      expect(p.available).toBe(true);
      expect(p.underControls).toEqual(p.published);
      expect(p.distance).toEqual({ innovation: 0, control: 0, scale: 0, magnitude: 0 });
    }
  });

  it("engages the organization's home country when none is given", async () => {
    expect((await api("/markets/speech-to-text/servicemax")).body.country).toBe("DE");
    const inFrance = await api("/markets/foundation-model-apis/delta", {
      headers: { Authorization: `Bearer ${french.token}` },
    });
    expect(inFrance.body.country).toBe("FR");
    expect(inFrance.body.controls.map((c: { id: string }) => c.id).sort()).toEqual([...FR_CONTROLS].sort());
  });

  it("returns the same bytes for view=map and view=bars", async () => {
    const map = await api("/markets/foundation-model-apis/delta?country=DE&view=map");
    const bars = await api("/markets/foundation-model-apis/delta?country=DE&view=bars");
    const none = await api("/markets/foundation-model-apis/delta?country=de");
    expect(bars.text).toBe(map.text);
    expect(none.text).toBe(map.text);
    expect(bars.headers.get("etag")).toBe(map.headers.get("etag"));
  });
});

describe("caching", () => {
  it("answers a current If-None-Match with 304 and no body; a stale one with 200", async () => {
    const url = "/markets/foundation-model-apis/snapshot";
    const first = await api(url);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^(W\/)?"[A-Za-z0-9_-]{32}"$/); // weak when compressed: fetch asks for br
    expect(first.headers.get("cache-control")).toBe("private, max-age=60");
    const again = await api(url, { headers: { "If-None-Match": etag ?? "" } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    const stale = await api(url, { headers: { "If-None-Match": '"something-else"' } });
    expect(stale.status).toBe(200);
    expect(stale.text).toBe(first.text);
  });

  it("gives different ETags to different releases and countries, longer caching to pinned releases", async () => {
    const tags = await Promise.all(
      [
        "/markets/foundation-model-apis/snapshot?release=1",
        "/markets/foundation-model-apis/snapshot?release=2",
        "/markets/foundation-model-apis/delta?country=FR",
        "/markets/foundation-model-apis/delta?country=DE",
        "/markets/foundation-model-apis/servicemax?country=FR",
      ].map(async (url) => (await api(url)).headers.get("etag")),
    );
    expect(new Set(tags).size).toBe(tags.length);
    expect((await api("/markets/foundation-model-apis/snapshot?release=1")).headers.get("cache-control")).toBe(
      "private, max-age=3600",
    );
  });
});

describe("errors", () => {
  const readingPaths = ["snapshot", "capaindex", "servicemax", "delta", "changelog"];

  it("404s an archived market on every path and leaves it out of the list", async () => {
    for (const suffix of ["", ...readingPaths.map((p) => `/${p}`)])
      expectProblem(await api(`/markets/vector-databases${suffix}`), 404, "not_found");
    expectProblem(await api("/markets/vector-databases/snapshot?release=1"), 404, "not_found");
  });

  it("404s an unknown market, an unknown release and an unknown path", async () => {
    expectProblem(await api("/markets/no-such-market/snapshot"), 404, "not_found");
    const release = await api("/markets/foundation-model-apis/delta?release=4&country=FR");
    expectProblem(release, 404, "not_found");
    expect(release.body.detail).toContain("release 4");
    for (const unknown of ["/nope", "/markets/foundation-model-apis/everything", "/markets/a/b/c/d"])
      expectProblem(await api(unknown), 404, "not_found");
  });

  it.each([
    ["a marketId that is not a slug", "/markets/Foundation_Models/snapshot", "marketId"],
    ["a marketId too long", `/markets/${"a".repeat(65)}`, "marketId"],
    ["a country that is not alpha-2", "/markets/foundation-model-apis/delta?country=FRA", "country"],
    ["an unknown country", "/markets/foundation-model-apis/servicemax?country=XX", "country"],
    ["a bad view", "/markets/foundation-model-apis/delta?view=pie", "view"],
    ["release 0", "/markets/foundation-model-apis/snapshot?release=0", "release"],
    ["a negative release", "/markets/foundation-model-apis/capaindex?release=-2", "release"],
    ["a fractional release", "/markets/foundation-model-apis/snapshot?release=1.5", "release"],
    ["a release that is not a number", "/markets/foundation-model-apis/servicemax?release=latest", "release"],
  ])("400s %s, naming the parameter", async (_name, url, parameter) => {
    const response = await api(url);
    expectProblem(response, 400, "invalid_request");
    expect(response.body.issues.map((i: { path: string }) => i.path)).toContain(parameter);
    for (const issue of response.body.issues) expect(issue.message.length).toBeGreaterThan(0);
  });

  it("405s other methods on known paths with Allow; 404s them elsewhere", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const response = await api("/markets", { method });
      expectProblem(response, 405, "method_not_allowed");
      expect(response.headers.get("allow")).toBe("GET, HEAD");
    }
    expectProblem(
      await api("/markets/foundation-model-apis/delta", { method: "POST", body: "{}" }),
      405,
      "method_not_allowed",
    );
    expectProblem(await api("/nope", { method: "POST" }), 404, "not_found");
  });

  it("answers HEAD like GET without a body", async () => {
    const head = await fetch(`${base}/v1/markets/foundation-model-apis/capaindex`, {
      method: "HEAD",
      headers: asReader,
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toMatch(/^(W\/)?"/); // weak when compressed
    expect(await head.text()).toBe("");
  });

  it("documents every code its problem bodies link to", async () => {
    const html = await (await fetch(`${base}/docs/errors`)).text();
    for (const code of [
      "invalid_request",
      "unauthorized",
      "insufficient_credits",
      "insufficient_scope",
      "organization_required",
      "not_found",
      "method_not_allowed",
      "rate_limited",
      "internal_error",
      "unavailable",
      "forbidden_origin",
    ])
      expect(html).toContain(`id="${code}"`);
  });
});

describe("OpenAPI document and reference", () => {
  it("rejects responses that break the document (the validator can fail)", async () => {
    const good = await api("/markets/foundation-model-apis/capaindex");
    const tampered = structuredClone(good.body);
    tampered.products[0].innovation = 150;
    expect(() => validate("GET", "/markets/foundation-model-apis/capaindex", { ...good, body: tampered })).toThrow(
      /maximum|<= 100/,
    );
    delete tampered.products;
    expect(() => validate("GET", "/markets/foundation-model-apis/capaindex", { ...good, body: tampered })).toThrow(
      /products/,
    );
    expect(() => validate("GET", "/markets", { ...good, status: 418 })).toThrow(/not documented/);
  });

  it("is OpenAPI 3.1 with every path, the bearer scheme and the problem schema", async () => {
    const document = await (await fetch(`${base}/v1/openapi.json`)).json();
    expect(document.openapi).toBe("3.1.0");
    // Every declared operation's path (server/7-procedures/operations/), and the published ones among them.
    const declared = [...new Set(DECLARATIONS.map((declaration) => declaration.path))].sort();
    expect(Object.keys(document.paths).sort()).toEqual(declared);
    expect(declared).toEqual(expect.arrayContaining(FIXED_NAMES.restPaths.map((p) => p.slice("/v1".length))));
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    // The deprecation policy, and what it retires today, are stated where integrators read first.
    expect(document.info.description).toContain("Deprecation policy:");
    expect(document.info.description).toContain(
      "Currently deprecated: readings.changes field change of capabilityIndexRank and max.rank (sunset 2027-06-01).",
    );
    expect(document.components.schemas.Problem.required).toContain("code");
    const snapshot = document.paths["/markets/{marketId}/snapshot"].get;
    expect(snapshot["x-credits"]).toBe(5);
    expect(Object.keys(snapshot.responses)).toEqual(
      expect.arrayContaining(["200", "304", "400", "401", "402", "403", "404", "429", "500", "503"]),
    );
    expect(document.servers[0].url).toBe(`${base}/v1`);
  });

  it("serves the reference offline: same-origin scripts only, locked down by CSP", async () => {
    // /docs/api is a dashboard page (the app's header and a frame); the frame is the bare reference.
    const shell = await fetch(`${base}/docs/api`);
    expect(shell.status).toBe(200);
    const shellHtml = await shell.text();
    expect(shellHtml).toContain('class="site-header"');
    expect(shellHtml).toMatch(/<iframe[^>]+src="\/docs\/api\/reference"/);
    const page = await fetch(`${base}/docs/api/reference`);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    // Framed by this origin only.
    expect(csp).toContain("frame-ancestors 'self'");
    expect(page.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    const html = await page.text();
    const sources = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(sources).toEqual(["/docs/api/scalar.js", "/docs/api/init.js"]);
    expect(html).not.toMatch(/https?:\/\//);
    const bundle = await fetch(`${base}/docs/api/scalar.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toContain("javascript");
    expect((await bundle.text()).length).toBeGreaterThan(1_000_000);
    expect(await (await fetch(`${base}/docs/api/init.js`)).text()).toContain('url: "/v1/openapi.json"');
  });
});
