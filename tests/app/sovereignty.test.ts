/**
 * Sovereign decisions through the running app, over REST and the MCP SDK client: the sovereignty
 * profile (the overall level the weakest objective's, every fact with its evidence), the caller's
 * gates on the Max and Delta readings (nobody dropped, every failure named, the passing ranked
 * among themselves), the odds beside the ranks (each column adding up to k), the restated history
 * (the yardstick restated under itself is what it published), and the catalogue's controls.
 */
import { describe, expect, inject, it } from "vitest";
import { callToolWithToken } from "../helpers/mcp";

const base = inject("appUrl");
const { reader } = inject("accounts");
const auth = { Authorization: `Bearer ${reader.token}` };
type Json = Record<string, any>;

async function get(path: string): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await fetch(`${base}/v1${path}`, { headers: auth });
  return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
}

describe("the sovereignty profile", () => {
  it("gives each objective's level with its facts, and the weakest objective's overall, for 2 credits", async () => {
    const { status, body, headers } = await get(
      "/markets/managed-kubernetes/products/aubeline-kubernetes/sovereignty?country=FR",
    );
    expect(status).toBe(200);
    expect(headers.get("x-credits-cost")).toBe("2");
    expect(body.offering.id).toBe("secnumcloud");
    expect(body.objectives.map((o: Json) => o.objective)).toEqual([
      "SOV-1",
      "SOV-2",
      "SOV-3",
      "SOV-4",
      "SOV-5",
      "SOV-6",
      "SOV-7",
      "SOV-8",
    ]);
    const levels = body.objectives.map((o: Json) => o.level);
    expect(body.overall.level).toBe(Math.min(...levels));
    expect(body.overall.level).toBe(4);
    for (const o of body.objectives) expect(o.level).toBe(Math.max(0, ...o.facts.map((f: Json) => f.level)));
    const supply = body.objectives.find((o: Json) => o.objective === "SOV-5");
    expect(supply.facts).toContainEqual(
      expect.objectContaining({
        kind: "control",
        id: "eu-sourced-hardware",
        level: 4,
        confidence: "vendor-claimed",
        asOf: "2026-01-29",
      }),
    );
  });

  it("assesses the default offering of a product unavailable under the country, and says so", async () => {
    const { body } = await get("/markets/managed-kubernetes/products/veltaro-kubernetes/sovereignty?country=FR");
    expect(body.available).toBe(false);
    expect(body.offering.id).toBe("public");
    expect(body.overall.weakest.length).toBeGreaterThan(0);
  });

  it("is the same payload as an MCP tool, and 404 for an unknown product, uncharged", async () => {
    const rest = await get("/markets/foundation-model-apis/products/quillmere-atlas/sovereignty?country=DE");
    const tool = await callToolWithToken(base, reader.token, "service_market_get_sovereignty", {
      marketId: "foundation-model-apis",
      productId: "quillmere-atlas",
      country: "DE",
    });
    expect(tool.structuredContent).toEqual(rest.body);
    expect(tool.content[0]?.text).toMatch(/^Quillmere Atlas/);
    expect(tool.content[0]?.text).toContain("Not a certification");
    const missing = await get("/markets/foundation-model-apis/products/no-such-product/sovereignty?country=DE");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-credits-cost")).toBeNull();
  });
});

describe("the caller's gates", () => {
  it("keep every product in the Max reading: those that pass ranked among themselves, the rest after, each naming its gate", async () => {
    const plain = await get("/markets/managed-kubernetes/servicemax?country=FR");
    const { status, body } = await get(
      "/markets/managed-kubernetes/servicemax?country=FR&minSeal=SEAL-3&requireControls=open-technology",
    );
    expect(status).toBe(200);
    expect(body.gates).toMatchObject({
      minSeal: 3,
      requireControls: ["open-technology"],
      note: expect.stringContaining("recommends nothing"),
    });
    expect(body.products.map((p: Json) => p.productId).sort()).toEqual(
      plain.body.products.map((p: Json) => p.productId).sort(),
    );
    const passing = body.products.filter((p: Json) => p.gate.passed);
    expect(passing.length).toBe(body.gates.passed);
    expect(passing.length).toBeGreaterThan(0);
    for (const p of passing) {
      expect(p.seal.level).toBeGreaterThanOrEqual(3);
      expect(p.rank).toBeLessThanOrEqual(passing.length);
    }
    expect(passing.map((p: Json) => p.rank)[0]).toBe(1);
    for (const p of body.products.filter((q: Json) => !q.gate.passed)) {
      expect(p.gate.failed.length).toBeGreaterThan(0);
      expect(p.rank).toBe(passing.length + 1);
      const before = plain.body.products.find((q: Json) => q.productId === p.productId);
      expect(p.publishedRank).toBe(before.rank);
      expect(p.on).toEqual(before.on);
    }
    const tool = await callToolWithToken(base, reader.token, "service_market_get_servicemax", {
      marketId: "managed-kubernetes",
      country: "FR",
      minSeal: 3,
      requireControls: "open-technology",
    });
    expect(tool.structuredContent?.gates).toEqual(body.gates);
    expect(tool.content[0]?.text).toMatch(/not through your gates/);
  });

  it("refuse an unknown control or level with 400 naming the parameter, uncharged", async () => {
    const control = await get("/markets/managed-kubernetes/servicemax?country=FR&requireControls=no-such-control");
    expect(control.status).toBe(400);
    expect(control.body).toMatchObject({
      code: "invalid_request",
      issues: [expect.objectContaining({ path: "requireControls" })],
    });
    expect(control.body.detail).toContain("GET /v1/geographies");
    const level = await get("/markets/managed-kubernetes/delta?country=FR&minSeal=7");
    expect(level.status).toBe(400);
    expect(level.body.issues[0].path).toBe("minSeal");
  });

  it("change the Delta's order only: those that pass first", async () => {
    const { body } = await get("/markets/object-storage/delta?country=FR&minSeal=2");
    const passed = body.products.map((p: Json) => p.gate.passed);
    expect(passed).toEqual([...passed].sort((a: boolean, b: boolean) => Number(b) - Number(a)));
  });
});

describe("the odds beside the ranks", () => {
  it("add up to k over the Capability Index and the Max reading, for every k", async () => {
    for (const path of [
      "/markets/foundation-model-apis/capaindex",
      "/markets/foundation-model-apis/servicemax?country=DE",
    ]) {
      const { body } = await get(path);
      for (const [k, key] of [
        [1, "top1"],
        [3, "top3"],
        [5, "top5"],
      ] as const) {
        const ranked = body.products.filter((p: Json) => p.rankOdds.tieGroup !== null).length;
        const sum = body.products.reduce((total: number, p: Json) => total + Math.round(p.rankOdds[key] * 1000), 0);
        expect(sum, `${path} ${key}`).toBe(Math.min(k, ranked) * 1000);
      }
    }
  });
});

describe("the restated history", () => {
  it("restates every release under the yardstick's methodology, the yardstick itself as published", async () => {
    const { status, body, headers } = await get("/markets/foundation-model-apis/products/quillmere-atlas/history");
    expect(status).toBe(200);
    expect(headers.get("x-credits-cost")).toBe("2");
    expect(body.yardstick.release).toBe(3);
    expect(body.releases.map((r: Json) => r.release)).toEqual([1, 2, 3]);
    const last = body.releases.at(-1);
    expect(last.restated.scores).toEqual(last.published.scores);
    expect(last.restated.bands).toEqual(last.published.bands);
    for (const r of body.releases) expect(r.restated.methodologyVersion).toBe(body.yardstick.methodologyVersion);
    const older = await get("/markets/foundation-model-apis/products/quillmere-atlas/history?release=2");
    expect(older.body.releases.map((r: Json) => r.release)).toEqual([1, 2]);
    expect(older.body.releases[1].restated.scores).toEqual(older.body.releases[1].published.scores);
  });
});

describe("the catalogue's controls", () => {
  it("lists every control, engaged or not, with what it evidences", async () => {
    const { body } = await get("/geographies");
    const byId = new Map(body.controls.map((c: Json) => [c.id, c]));
    expect(byId.get("eu-sourced-hardware")).toMatchObject({ sov: [{ objective: "SOV-5", level: 4 }] });
    const engaged = new Set(body.geographies.flatMap((g: Json) => g.controls.map((c: Json) => c.id)));
    expect(engaged.has("eu-sourced-hardware")).toBe(false);
  });
});
