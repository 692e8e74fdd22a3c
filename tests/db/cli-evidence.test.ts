/**
 * Evidence through the operator CLI and the store: `validate` warns about values without evidence
 * (errors with --require-evidence), every command refuses evidence dated after its release, the
 * stored release keeps the evidence exactly, releases stored before evidence read as having none,
 * and the demo catalogue has evidence for every value, dated on or before each release.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import * as t from "@/db/schema";
import { canonicalJson, sha256 } from "@/server/1-domain/canonical";
import { evidenceDateIssues, missingEvidence } from "@/server/1-domain/definition-checks";
import type { MarketFile } from "@/server/1-domain/market-definition";
import { loadDefinitionFile } from "@/server/3-catalog/load";
import { findRelease, readReleaseById } from "@/server/3-catalog/store";
import { DEMO_FOLDER } from "@/server/5-startup/seed";
import { marketVariant, runOps, type Yaml } from "../helpers/cli";
import { createTestDatabase, dumpCatalogue, type TestDatabase, testDatabase } from "../helpers/database";
import { FIXTURES } from "../helpers/fixtures";

const GEOGRAPHIES = path.join(FIXTURES, "geographies.yaml");
const NOW = new Date("2026-06-01T12:00:00Z"); // runOps's default clock

const database = testDatabase();
let workDir: string;

const ops = (...argv: string[]) => runOps(database, argv, NOW);
const marketWith = (name: string, change: (market: Yaml) => void) => marketVariant(workDir, name, change);

const evidence = (source: string, asOf = "2026-05-20", extra: Yaml = {}) => ({ source, asOf, ...extra });

/** Evidence for every non-null value of the fixture (tests/fixtures/market.yaml), dated `asOf`. */
function withAllEvidence(market: Yaml, asOf = "2026-05-20") {
  for (const product of market.products)
    for (const offering of product.offerings)
      offering.evidence = Object.fromEntries(
        Object.entries(offering.values ?? {})
          .filter(([, value]) => value !== null)
          .map(([id]) => [id, evidence(`Test document: ${product.productId} ${offering.id} ${id}`, asOf)]),
      );
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), "mps-evidence-"));
  expect((await ops("catalog", "publish", GEOGRAPHIES)).code).toBe(0);
});
afterAll(async () => {
  rmSync(workDir, { recursive: true, force: true });
});

describe("ops catalog validate: values without evidence", () => {
  // The fixture has no evidence; bravo gets it for every value, alpha's default for bench only.
  const partly = () =>
    marketWith("partly", (m) => {
      withAllEvidence(m);
      m.products[0].offerings[0].evidence = { bench: evidence("https://example.com/alpha/bench") };
      for (const offering of m.products[0].offerings.slice(1)) delete offering.evidence;
      delete m.products[2].offerings[0].evidence;
    });

  it("warns on stderr, one line per indicator, and exits 0 with the usual OK line", async () => {
    const file = partly();
    const result = await ops("catalog", "validate", file);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `${file}: OK — market hand-computed: 3 products, 6 offerings, 7 indicators, scored for 4 geographies`,
    );
    // alpha/public has bench; alpha/eu-region and eu-plus override bench; charlie writes every value.
    expect(result.stderr.split("\n")).toEqual([
      `warning: ${file}: indicators[0]: no evidence for 3 values of "bench", in 2 products: alpha, charlie`,
      `warning: ${file}: indicators[1]: no evidence for 2 values of "latency", in 2 products: alpha, charlie`,
      `warning: ${file}: indicators[2]: no evidence for 3 values of "multimodal", in 2 products: alpha, charlie`,
      `warning: ${file}: indicators[3]: no evidence for 4 values of "residency", in 2 products: alpha, charlie`,
      `warning: ${file}: indicators[4]: no evidence for 2 values of "cert", in 2 products: alpha, charlie`,
      `warning: ${file}: indicators[5]: no evidence for 2 values of "sla", in 1 product: alpha`,
      `warning: ${file}: indicators[6]: no evidence for 3 values of "regions", in 2 products: alpha, charlie`,
    ]);
  });

  it("with --require-evidence, refuses them as errors and exits 1", async () => {
    const file = partly();
    const result = await ops("catalog", "validate", file, "--require-evidence");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("error: 7 problem(s); nothing was written");
    expect(result.stderr).toContain(`${file}: indicators[5]: no evidence for 2 values of "sla", in 1 product: alpha`);
    expect(result.stderr).not.toContain("warning:");
  });

  it("passes --require-evidence silently when every non-null value has evidence", async () => {
    const file = marketWith("complete", (m) => withAllEvidence(m));
    const result = await ops("catalog", "validate", file, "--require-evidence");
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toContain("OK — market hand-computed");
  });

  it("says --require-evidence in the usage text, and accepts it for a geographies file", async () => {
    const usage = await ops("catalog", "validate");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("validate FILE [--require-evidence]");
    expect((await ops("catalog", "validate", GEOGRAPHIES, "--require-evidence")).code).toBe(0);
  });
});

describe("evidence dated after the release is refused by validate, preview and publish", () => {
  it("refuses asOf after today (validate) and after the publish time (preview, publish), writing nothing", async () => {
    const file = marketWith("future", (m) => {
      withAllEvidence(m);
      m.products[1].offerings[0].evidence.regions.asOf = "2026-06-02";
    });
    const expected = `${file}: products[1].offerings[0].evidence.regions.asOf: 2026-06-02 is after the release date 2026-06-01`;
    const before = await dumpCatalogue(database);
    for (const argv of [
      ["validate", file],
      ["preview", file],
      ["publish", file, "--notes", "future evidence"],
    ]) {
      const result = await ops("catalog", ...argv);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(expected);
    }
    expect(await dumpCatalogue(database)).toBe(before);
    // A day later the same file is fine: the rule is by the release's day.
    const tomorrow = await runOps(database, ["catalog", "validate", file], new Date("2026-06-02T00:00:00Z"));
    expect(tomorrow.code).toBe(0);
  });
});

describe("evidence is stored with the release, exactly", () => {
  let published: MarketFile;

  it("publishes a file with evidence and reads the same evidence back from the stored release", async () => {
    const file = marketWith("with-evidence", (m) => {
      withAllEvidence(m);
      m.products[0].offerings[0].evidence.bench = evidence("https://example.com/bench?run=7&q=«x»", "2026-06-01", {
        confidence: "verified",
        note: "Run 7 — median of 5; ünïcode kept",
      });
      m.products[0].offerings[1].evidence.bench = evidence("Test document: EU region sheet, §2", "2026-01-31", {
        confidence: "estimated",
      });
      m.products[2].offerings[0].evidence.cert = evidence("Register entry 42", "2025-12-31", {
        confidence: "vendor-claimed",
      });
    });
    const result = await ops("catalog", "publish", file, "--notes", "with evidence");
    expect(result.code).toBe(0);
    const definition = await loadDefinitionFile(file);
    if (definition.kind !== "market") throw new Error("not a market");
    published = definition;

    const pointer = await findRelease(database.db, "hand-computed");
    const stored = await readReleaseById(database.db, (pointer as { id: number }).id);
    for (const [p, product] of published.products.entries())
      for (const [o, offering] of product.offerings.entries())
        expect(canonicalJson(stored.definition.products[p]?.offerings[o]?.evidence)).toBe(
          canonicalJson(offering.evidence),
        );
    expect(stored.definition.products[0]?.offerings[0]?.evidence.bench).toEqual({
      source: "https://example.com/bench?run=7&q=«x»",
      asOf: "2026-06-01",
      confidence: "verified",
      note: "Run 7 — median of 5; ünïcode kept",
    });
    // The release's content hash covers the evidence: the stored definition is the file, byte for byte.
    const [row] = await database.db
      .select({ sha: t.releases.definitionSha256, definition: t.releases.definition })
      .from(t.releases)
      .where(eq(t.releases.id, (pointer as { id: number }).id));
    expect(row?.sha).toBe(sha256(canonicalJson(published)));
    expect(sha256(canonicalJson(row?.definition))).toBe(row?.sha);
  });

  it("reads a release stored before evidence existed (no evidence key) as having none, and previews against it", async () => {
    const pointer = await findRelease(database.db, "hand-computed");
    const id = (pointer as { id: number }).id;
    const [row] = await database.db.select().from(t.releases).where(eq(t.releases.id, id));
    if (!row) throw new Error("no release");
    // As an older version of the service stored it: offerings without `evidence`.
    const legacy = JSON.parse(JSON.stringify(row.definition), (key, value) =>
      key === "evidence" ? undefined : value,
    ) as MarketFile;
    const { id: _id, ...rest } = row;
    const [inserted] = await database.db
      .insert(t.releases)
      .values({ ...rest, release: row.release + 1, definition: legacy })
      .returning({ id: t.releases.id });
    const legacyId = (inserted as { id: number }).id;
    const results = await database.db
      .select()
      .from(t.releaseCountryResults)
      .where(eq(t.releaseCountryResults.releaseId, id));
    await database.db.insert(t.releaseCountryResults).values(results.map((r) => ({ ...r, releaseId: legacyId })));

    const stored = await readReleaseById(database.db, legacyId);
    for (const product of stored.definition.products)
      for (const offering of product.offerings) expect(offering.evidence).toEqual({});

    const file = marketWith("after-legacy", (m) => withAllEvidence(m));
    const preview = await ops("catalog", "preview", file);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain(`against release ${row.release + 1}`);
  });
});

describe("the demo catalogue has evidence", () => {
  const manifest = parseYaml(readFileSync(path.join(DEMO_FOLDER, "manifest.yaml"), "utf8")) as {
    steps: { publish?: string; publishedAt?: string }[];
  };
  const markets = manifest.steps.filter((s) => s.publish?.startsWith("markets/"));
  let demo: TestDatabase;
  beforeAll(async () => {
    demo = await createTestDatabase();
    expect((await runOps(demo, ["catalog", "publish", path.join(DEMO_FOLDER, "geographies.yaml")])).code).toBe(0);
  });
  afterAll(() => demo.drop());

  it("lists every market file of db/demo/markets with a publishedAt", () => {
    expect(markets.length).toBeGreaterThanOrEqual(7);
    for (const step of markets) expect(step.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it.each(markets.map((s) => [s.publish as string, s.publishedAt as string]))(
    "%s: evidence for every value (--require-evidence), none dated after %s",
    async (name, publishedAt) => {
      const file = path.join(DEMO_FOLDER, name);
      const definition = await loadDefinitionFile(file);
      if (definition.kind !== "market") throw new Error("not a market");
      expect(missingEvidence(definition)).toEqual([]);
      expect(evidenceDateIssues(definition, new Date(publishedAt))).toEqual([]);
      // Every piece of demo evidence says it is a fictional document.
      for (const product of definition.products)
        for (const offering of product.offerings)
          for (const item of Object.values(offering.evidence))
            expect(item.source).toMatch(/^Demo document \(fictional\): /);
      // As an operator would check it on the day of the release, against the demo's controls.
      const result = await runOps(demo, ["catalog", "validate", file, "--require-evidence"], new Date(publishedAt));
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
    },
  );
});
