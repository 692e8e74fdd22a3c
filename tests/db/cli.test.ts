/**
 * The operator CLI: in-process for the many bad-input cases (fast), and as a real process for
 * exit codes, database selection and the embedded folder's lock.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { openDatabase } from "@/db/client";
import { marketVariant, runOps, type Yaml } from "../helpers/cli";
import { dumpCatalogue, testDatabase } from "../helpers/database";
import { FIXTURES } from "../helpers/fixtures";
import { readRelease } from "../helpers/releases";

const ROOT = path.resolve(import.meta.dirname, "../..");
const GEOGRAPHIES = path.join(FIXTURES, "geographies.yaml");
const MARKET = path.join(FIXTURES, "market.yaml");

const database = testDatabase();
let workDir: string;

const ops = (...argv: string[]) => runOps(database, argv);

/** The market fixture with one change, written to a file of its own. */
const marketWith = (name: string, change: (market: Yaml) => void) => marketVariant(workDir, name, change);

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), "mps-cli-"));
  expect((await ops("catalog", "publish", GEOGRAPHIES)).code).toBe(0);
});
afterAll(async () => {
  rmSync(workDir, { recursive: true, force: true });
});

describe("ops catalog: bad input writes nothing and says where and what", () => {
  const cases: [string, (m: Yaml) => void, string][] = [
    [
      "unknown control id",
      (m) => {
        m.products[0].offerings[1].satisfies[0] = "no-such-control";
      },
      'products[0].offerings[1].satisfies[0]: unknown control id "no-such-control"',
    ],
    [
      "duplicate product id",
      (m) => {
        m.products[1].productId = "alpha";
      },
      'products[1]: duplicate product id "alpha"',
    ],
    [
      "score input out of range",
      (m) => {
        m.products[0].offerings[0].values.bench = 120;
      },
      "products[0].offerings[0].values.bench: score input 120 is out of range [0, 100]",
    ],
    [
      "level that is not one of the levels",
      (m) => {
        m.products[0].offerings[0].values.cert = "platinum";
      },
      'products[0].offerings[0].values.cert: score input "platinum" is not one of the levels',
    ],
    [
      "value of the wrong kind",
      (m) => {
        m.products[2].offerings[0].values.multimodal = "yes";
      },
      'products[2].offerings[0].values.multimodal: "multimodal" is a boolean indicator',
    ],
    [
      "unknown indicator id",
      (m) => {
        m.products[2].offerings[0].values.speed = 3;
      },
      'products[2].offerings[0].values.speed: unknown indicator id "speed"',
    ],
    [
      "bands not starting at 0",
      (m) => {
        m.dimensions.innovation.bands[0].from = 5;
      },
      "dimensions.innovation.bands[0].from: the first band must start at 0",
    ],
    [
      "bands not increasing",
      (m) => {
        m.dimensions.scale.bands[2].from = 40;
      },
      "dimensions.scale.bands[2].from: bands must be strictly increasing (40 after 50)",
    ],
    [
      "no default offering",
      (m) => {
        delete m.products[1].offerings[0].default;
      },
      "products[1].offerings: no default offering",
    ],
    [
      "two default offerings",
      (m) => {
        m.products[0].offerings[1].default = true;
      },
      "products[0].offerings[1].default: two default offerings",
    ],
    [
      "weight ≤ 0",
      (m) => {
        m.indicators[2].weight = 0;
      },
      "indicators[2].weight: weight must be > 0",
    ],
    [
      "slug that is not kebab-case",
      (m) => {
        m.marketId = "Hand_Computed";
      },
      "marketId: must be a kebab-case slug",
    ],
    [
      "unknown field",
      (m) => {
        m.products[0].colour = "blue";
      },
      "products[0]: Unrecognized key",
    ],
  ];

  it.each(cases)("%s", async (name, change, expected) => {
    const file = marketWith(name.replace(/\W+/g, "-"), change);
    const before = await dumpCatalogue(database);
    for (const argv of [
      ["validate", file],
      ["publish", file, "--notes", "should not land"],
    ]) {
      const result = await ops("catalog", ...argv);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("nothing was written");
      expect(result.stderr).toContain(`${file}: ${expected}`);
    }
    expect(await dumpCatalogue(database)).toBe(before);
  });

  it("reports a file that is not YAML, and one that does not exist", async () => {
    const broken = path.join(workDir, "broken.yaml");
    writeFileSync(broken, "kind: market\nproducts: [\n");
    const before = await dumpCatalogue(database);
    const notYaml = await ops("catalog", "publish", broken, "--notes", "x");
    expect(notYaml.code).toBe(1);
    expect(notYaml.stderr).toContain(`${broken}: (file): not valid YAML/JSON`);
    const missing = await ops("catalog", "validate", path.join(workDir, "nope.yaml"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot read the file");
    expect(await dumpCatalogue(database)).toBe(before);
  });

  it("reports a geographies file naming an unknown control", async () => {
    const file = path.join(workDir, "geo.yaml");
    const geo = parseYaml(readFileSync(GEOGRAPHIES, "utf8"));
    geo.geographies[1].controls.push("fedramp-high");
    writeFileSync(file, stringifyYaml(geo));
    const before = await dumpCatalogue(database);
    const result = await ops("catalog", "publish", file);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file}: geographies[1].controls[2]: unknown control id "fedramp-high"`);
    expect(await dumpCatalogue(database)).toBe(before);
  });

  it("refuses publish without --notes, and unknown options, as usage errors", async () => {
    const before = await dumpCatalogue(database);
    const noNotes = await ops("catalog", "publish", MARKET);
    expect(noNotes.code).toBe(2);
    expect(noNotes.stderr).toContain("--notes");
    expect((await ops("catalog", "publish", MARKET, "--notes", "x", "--force")).code).toBe(2);
    for (const draws of ["5", "2.5", "many", "200000"]) {
      const refused = await ops("catalog", "publish", MARKET, "--notes", "x", "--draws", draws);
      expect(refused.code, draws).toBe(2);
      expect(refused.stderr).toContain("--draws must be a whole number from 100 to 100000");
    }
    expect((await ops("catalog", "frobnicate")).code).toBe(2);
    expect((await ops("nothing")).code).toBe(2);
    expect(await dumpCatalogue(database)).toBe(before);
  });
});

describe("ops catalog: publishing, archiving, listing", () => {
  it("validates a good file without writing", async () => {
    const before = await dumpCatalogue(database);
    const result = await ops("catalog", "validate", MARKET);
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain(
      "OK — market hand-computed: 3 products, 6 offerings, 7 indicators, scored for 4 geographies",
    );
    expect(await dumpCatalogue(database)).toBe(before);
  });

  it("publishes release 1, then release 2 keeping release 1 readable and unchanged", async () => {
    const first = await ops("catalog", "publish", MARKET, "--notes", "first release");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      "published hand-computed release 1 (3 products, 4 geographies) at 2026-06-01T12:00:00.000Z",
    );
    const releaseOne = await readRelease(database.db, "hand-computed", 1);

    const second = await ops("catalog", "publish", MARKET, "--notes", "second release", "--material", "--draws", "500");
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("release 2");
    expect(await readRelease(database.db, "hand-computed", 1)).toEqual(releaseOne);
    const releaseTwo = await readRelease(database.db, "hand-computed", 2);
    expect(releaseTwo).toMatchObject({ material: true, notes: "second release" });
    // Each release's sensitivity analysis is its own: the default draws, then the ones asked for.
    expect(releaseOne?.sensitivity).toMatchObject({ draws: 2000, seed: "hand-computed#1" });
    expect(releaseTwo?.sensitivity).toMatchObject({ draws: 500, seed: "hand-computed#2" });
  });

  it("lists markets as text and JSON, archives and restores", async () => {
    expect((await ops("catalog", "list")).stdout).toMatch(/^hand-computed\s+listed\s+release 2\s+3 products$/m);
    expect((await ops("catalog", "archive", "hand-computed")).code).toBe(0);
    const listed = JSON.parse((await ops("catalog", "list", "--json")).stdout);
    expect(listed).toEqual([
      {
        marketId: "hand-computed",
        status: "archived",
        release: 2,
        lastUpdated: "2026-06-01T12:00:00.000Z",
        productCount: 3,
      },
    ]);
    const refused = await ops("catalog", "publish", MARKET, "--notes", "x");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("archived");
    expect((await ops("catalog", "restore", "hand-computed")).code).toBe(0);
    expect((await ops("catalog", "archive", "no-such-market")).code).toBe(1);
  });
});

describe("ops as a real process", () => {
  const run = promisify(execFile);
  const tsxLoader = path.join(ROOT, "node_modules", "tsx", "dist", "loader.mjs");
  const ops = async (env: Record<string, string>, ...argv: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, ["--import", tsxLoader, "server/8-cli/main.ts", ...argv], {
        cwd: ROOT,
        env: { ...process.env, ...env },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  // The configured database: this file's PostgreSQL database, or a fresh embedded folder.
  let env: Record<string, string>;
  beforeAll(async () => {
    const dataDir = path.join(workDir, "data");
    mkdirSync(dataDir);
    env = database.url ? { DATABASE_URL: database.url } : { DATABASE_URL: "", DATA_DIR: dataDir };
  });

  it("exits 0 on success and 1 with a message on bad input", async () => {
    expect((await ops(env, "catalog", "publish", GEOGRAPHIES)).code).toBe(0);
    const bad = marketWith("bad-weight", (m) => {
      m.indicators[0].weight = -1;
    });
    const refused = await ops(env, "catalog", "publish", bad, "--notes", "x");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${bad}: indicators[0].weight: weight must be > 0`);
    const listed = await ops(env, "catalog", "list", "--json");
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).map((m: { marketId: string }) => m.marketId)).not.toContain("bad-weight");
  });

  // The lock guards the embedded folder, so this runs on PGlite whatever database the suite uses.
  it("fails fast while another process holds the embedded database", async () => {
    const embedded = { DATABASE_URL: "", DATA_DIR: path.join(workDir, "embedded") };
    const holder = await openDatabase({ kind: "pglite", dataDir: path.join(workDir, "embedded", "pglite") });
    try {
      const started = Date.now();
      const result = await ops(embedded, "catalog", "list");
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("is in use by another process");
      expect(Date.now() - started).toBeLessThan(15_000); // no waiting for the lock to go stale
    } finally {
      await holder.close();
    }
    expect((await ops(embedded, "catalog", "list")).code).toBe(0);
  });
});

describe("ops catalog publish: progress on long work", () => {
  it("says where a large publish is, on stderr, and nothing for a small one", async () => {
    const { generatedGeographies, generatedMarket } = await import("../helpers/generated-catalogue");
    const dir = mkdtempSync(path.join(tmpdir(), "mps-cli-progress-"));
    try {
      const geographies = path.join(dir, "geographies.json");
      const market = path.join(dir, "market.json");
      writeFileSync(geographies, JSON.stringify(generatedGeographies(20)));
      // 300 products × 20 indicators = 6,000 values: above the threshold of 5,000.
      writeFileSync(market, JSON.stringify(generatedMarket(300, 20)));
      expect((await ops("catalog", "publish", geographies)).code).toBe(0);
      const large = await ops("catalog", "publish", market, "--notes", "large");
      expect(large.code).toBe(0);
      const lines = large.stderr.split("\n");
      expect(lines.filter((l) => /^scoring products: \d+\/300$/.test(l)).length).toBeGreaterThanOrEqual(3);
      expect(lines).toContain("scoring products: 300/300");
      expect(lines.some((l) => /^scoring control sets: (\d+)\/\1$/.test(l))).toBe(true);
      expect(lines.at(-1)).toBe("writing the release…");
      expect(large.stdout).toMatch(/^published generated-market release 1 \(300 products, 20 geographies\)/);

      // 100 × 20 = 2,000 values: quick, so silent.
      writeFileSync(market, JSON.stringify(generatedMarket(100, 20)));
      const small = await ops("catalog", "publish", market, "--notes", "small");
      expect(small.code).toBe(0);
      expect(small.stderr).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
