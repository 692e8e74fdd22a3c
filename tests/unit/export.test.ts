/**
 * Whole-release exports (server/2-readings/export.ts): the tables, their CSV and JSON, the citation,
 * the manifest and the ZIP archive, on a release scored in memory. The archive is read back by
 * Python's zipfile, and the CSV by the strict RFC 4180 reader of the tests.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bibtex, bibtexText } from "@/server/2-formats/citation";
import {
  archiveFolder,
  citationOf,
  exportFiles,
  exportManifest,
  fileContent,
  MANIFEST_FILE,
  releaseArchive,
} from "@/server/2-readings/export";
import { EXPORT_TABLE_NAMES, exportTables } from "@/server/2-readings/export-tables";
import { readCsvFields } from "../helpers/csv";
import { fixtureGeographies, fixtureMarket } from "../helpers/fixtures";
import { scoredRelease } from "../helpers/scored-release";
import { readZip } from "../helpers/zip-reader";

const geographiesFile = fixtureGeographies();
const market = fixtureMarket();
const release = scoredRelease(market, geographiesFile.geographies, geographiesFile.controls);
const where = { origin: "https://api.example.org" };
const immediately = () => Promise.resolve();

const text = (pieces: Iterable<string | Uint8Array>) =>
  [...pieces].map((p) => (typeof p === "string" ? p : Buffer.from(p).toString("utf8"))).join("");
const sha256 = (content: string | Uint8Array) => createHash("sha256").update(content).digest("hex");
function fileTextOf(of: typeof release, path: string) {
  const file = exportFiles(of, where).find((f) => f.path === path);
  if (!file) throw new Error(`no ${path}`);
  return text(fileContent(file));
}
const fileText = (path: string) => fileTextOf(release, path);

/** A release whose every name is hostile text: formulas, quotes, commas, line breaks, BibTeX's specials. */
function hostileRelease() {
  const hostile = structuredClone(market);
  hostile.name = "Cloud {AI} 100% & co_#1 \\ ~^ $x";
  const first = hostile.products[0];
  if (!first) throw new Error("the fixture has products");
  first.name = '=HYPERLINK("http://evil","x"), "quoted"\r\nnext line';
  first.vendor = "@SUM(1+1)";
  return scoredRelease(hostile, geographiesFile.geographies, geographiesFile.controls);
}

describe("the tables of a release", () => {
  const tables = exportTables(release);
  const rows = (name: string) => [...(tables.find((t) => t.name === name)?.rows() ?? [])];

  it("are the tables the names list, every row as long as its columns", () => {
    expect(tables.map((t) => t.name)).toEqual(EXPORT_TABLE_NAMES);
    for (const table of tables)
      for (const row of table.rows()) expect(row, table.name).toHaveLength(table.columns.length);
  });

  it("hold every product once, and every product under every country in the Max and Delta tables", () => {
    expect(rows("products").map((r) => r[0])).toEqual(market.products.map((p) => p.productId));
    const countries = geographiesFile.geographies.length;
    expect(rows("servicemax")).toHaveLength(countries * market.products.length);
    expect(rows("delta")).toHaveLength(countries * market.products.length);
  });

  it("leave an unavailable product's scores under controls, distance and rank empty, beside available = false", () => {
    const table = tables.find((t) => t.name === "servicemax");
    const names = table?.columns.map((c) => c.name) ?? [];
    const at = (row: readonly unknown[], name: string) => row[names.indexOf(name)];
    const unavailable = rows("servicemax").filter((r) => at(r, "available") === false);
    expect(unavailable.length).toBeGreaterThan(0); // the fixture has products some country's controls exclude
    for (const row of unavailable) {
      for (const name of ["rank", "on_innovation", "on_control", "on_scale", "distance_magnitude", "rank_best"])
        expect(at(row, name), name).toBeNull();
      expect(at(row, "off_innovation")).toEqual(expect.any(Number));
      expect(String(at(row, "missing_controls")).length).toBeGreaterThan(0);
    }
    for (const row of rows("servicemax").filter((r) => at(r, "available") === true))
      expect(at(row, "rank")).toEqual(expect.any(Number));
  });

  it("write the Capability Index in the reading's order and ranks", () => {
    const ranks = rows("capaindex").map((r) => r[0]);
    expect(ranks[0]).toBe(1);
    expect([...ranks].sort((a, b) => Number(a) - Number(b))).toEqual(ranks);
  });
});

describe("a table's CSV and JSON", () => {
  it("hold the same rows: the CSV read strictly as RFC 4180, the JSON as objects keyed by the columns", () => {
    const hostile = hostileRelease();
    for (const table of exportTables(hostile)) {
      const csv = readCsvFields(fileTextOf(hostile, `${table.name}.csv`));
      const json = JSON.parse(fileTextOf(hostile, `${table.name}.json`)) as Record<string, unknown>[];
      const names = table.columns.map((c) => c.name);
      expect(
        csv[0]?.map((f) => f.text),
        table.name,
      ).toEqual(names);
      expect(csv.length - 1, table.name).toBe(json.length);
      json.forEach((record, i) => {
        expect(Object.keys(record)).toEqual(names);
        names.forEach((name, j) => {
          const value = record[name];
          const field = csv[i + 1]?.[j]?.text;
          if (value === null) expect(field, `${table.name}.${name}`).toBe("");
          else if (typeof value === "string") expect(field?.replace(/^'(?=[=+\-@\s])/, "")).toBe(value);
          else expect(field).toBe(String(value));
        });
      });
    }
  });

  it("neutralise text a spreadsheet would read as a formula in the CSV, and keep it exact in the JSON", () => {
    const hostile = hostileRelease();
    const csv = readCsvFields(fileTextOf(hostile, "products.csv"));
    const first = csv[1];
    expect(first?.[1]).toEqual({ text: `'${hostile.definition.products[0]?.name}`, quoted: true });
    expect(first?.[2]).toEqual({ text: "'@SUM(1+1)", quoted: true });
    const json = JSON.parse(fileTextOf(hostile, "products.json"));
    expect(json[0].name).toBe(hostile.definition.products[0]?.name);
  });
});

describe("the citation", () => {
  it("escapes BibTeX's special characters so the entry reads as the text, braces balanced", () => {
    expect(bibtexText("a {b} 100% & c_#1 \\ ~^ $x\nnext")).toBe(
      "a \\{b\\} 100\\% \\& c\\_\\#1 \\textbackslash{} \\textasciitilde{}\\textasciicircum{} \\$x next",
    );
    const entry = bibtex(citationOf(hostileRelease(), where));
    let depth = 0;
    for (const [i, c] of [...entry].entries()) {
      if (entry[i - 1] === "\\") continue;
      if (c === "{") depth += 1;
      if (c === "}") depth -= 1;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
    expect(depth).toBe(0);
    expect(entry).toMatch(/^@misc\{mps-hand-computed-r1,\n/);
    expect(entry).toContain("year = {2026}");
    expect(entry).toContain("month = may");
    expect(entry).toContain("url = {https://api.example.org/markets/hand-computed?release=1}");
  });

  it("is one CSL-JSON dataset item naming the release and its methodology", () => {
    const csl = JSON.parse(fileText("CITATION.json"));
    expect(csl).toEqual([
      expect.objectContaining({
        id: "mps-hand-computed-r1",
        type: "dataset",
        version: "release 1, methodology 1.0",
        issued: { "date-parts": [[2026, 5, 4]] },
        URL: "https://api.example.org/markets/hand-computed?release=1",
      }),
    ]);
  });
});

describe("the manifest", () => {
  it("lists every file with its rows, bytes and SHA-256, which the files' own bytes give", async () => {
    const manifest = await exportManifest(release, where, immediately);
    const files = exportFiles(release, where);
    expect(manifest.files.map((f) => f.path)).toEqual(files.map((f) => f.path));
    for (const entry of manifest.files) {
      const content = Buffer.from(fileText(entry.path), "utf8");
      expect(entry.sha256, entry.path).toBe(sha256(content));
      expect(entry.bytes, entry.path).toBe(content.byteLength);
      if (entry.format === "json") expect(entry.rows).toBe(JSON.parse(content.toString()).length);
    }
    const csvRows = manifest.files.find((f) => f.path === "delta.csv")?.rows;
    expect(csvRows).toBe(geographiesFile.geographies.length * market.products.length);
    expect(manifest).toMatchObject({
      marketId: "hand-computed",
      release: 1,
      methodologyVersion: "1.0",
      licence: { identifier: "LicenseRef-Proprietary" },
    });
  });

  it("counts rows, not line breaks, where a cell holds one", async () => {
    const manifest = await exportManifest(hostileRelease(), where, immediately);
    expect(manifest.files.find((f) => f.path === "products.csv")?.rows).toBe(market.products.length);
  });

  it("hands the event loop back between pieces, and is the same every time", async () => {
    let pauses = 0;
    const first = await exportManifest(release, where, async () => {
      pauses += 1;
    });
    expect(pauses).toBeGreaterThanOrEqual(first.files.length);
    expect(await exportManifest(release, where, immediately)).toEqual(first);
  });
});

describe("the ZIP archive", () => {
  const archive = () => Buffer.concat([...releaseArchive(release, where)]);

  it("reads back (Python's zipfile, every CRC checked) as every file in one folder, then the manifest", async () => {
    const entries = readZip(archive());
    const folder = archiveFolder(release);
    const manifest = await exportManifest(release, where, immediately);
    expect(entries.map((e) => e.name)).toEqual([
      ...manifest.files.map((f) => `${folder}/${f.path}`),
      `${folder}/${MANIFEST_FILE}`,
    ]);
    for (const file of manifest.files) {
      const entry = entries.find((e) => e.name === `${folder}/${file.path}`);
      expect(entry?.compressed).toBe(true);
      expect(sha256(entry?.bytes ?? Buffer.alloc(0)), file.path).toBe(file.sha256);
    }
    const inside = entries.find((e) => e.name.endsWith(MANIFEST_FILE));
    expect(JSON.parse(inside?.bytes.toString() ?? "")).toEqual(manifest);
  });

  it("gives the same bytes every time, each entry dated by the release, not the clock", () => {
    const first = archive();
    expect(sha256(archive())).toBe(sha256(first));
    for (const entry of readZip(first)) expect(entry.dateTime.slice(0, 3)).toEqual([2026, 5, 4]);
  });

  it("comes in pieces, never one buffer of the whole", () => {
    const pieces = [...releaseArchive(release, where)];
    expect(pieces.length).toBeGreaterThan(2);
  });
});
