/**
 * Whole-release exports over real HTTP against the running app: the manifest, each table as CSV
 * and JSON, the ZIP archive (read back by Python's zipfile) and the citation; every file's bytes
 * agree with the manifest's SHA-256; prices as declared, a pinned release immutable, 304 free,
 * compressed on request, bad input refused uncharged.
 */
import { createHash } from "node:crypto";
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { describe, expect, inject, it } from "vitest";
import { readCsvFields } from "../helpers/csv";
import { readZip } from "../helpers/zip-reader";

const base = inject("appUrl");
const { reader } = inject("accounts");
const auth = { Authorization: `Bearer ${reader.token}` };
const MARKET = "foundation-model-apis";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/v1/markets/${MARKET}${path}`, { headers: { ...auth, ...headers } });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

interface ManifestFile {
  path: string;
  format: string;
  mediaType: string;
  table: string | null;
  rows: number | null;
  bytes: number;
  sha256: string;
}
interface Manifest {
  release: number;
  files: ManifestFile[];
  citation: { bibtex: string; csl: Record<string, unknown> };
}

async function manifest(release = 3): Promise<Manifest> {
  const { response, bytes } = await get(`/export?release=${release}`);
  expect(response.status).toBe(200);
  return JSON.parse(bytes.toString()) as Manifest;
}

/** The debit the ledger holds for the call with this request id (0 when none). */
async function debited(requestId: string | null): Promise<number> {
  const response = await fetch(`${base}/v1/ledger?limit=100`, { headers: auth });
  const { entries } = (await response.json()) as { entries: { requestId: string | null; amount: number }[] };
  const amount = entries.find((e) => e.requestId === requestId)?.amount ?? 0;
  return amount === 0 ? 0 : -amount;
}

describe("the manifest", () => {
  it("is free and lists every table as CSV and JSON, then the citation, each with rows, bytes and a digest", async () => {
    const { response } = await get("/export?release=3");
    expect(response.headers.get("x-credits-cost")).toBe("0");
    expect(response.headers.get("cache-control")).toBe("private, max-age=3600");
    const listed = await manifest();
    expect(listed.release).toBe(3);
    const tables = listed.files.filter((f) => f.table).map((f) => f.path);
    expect(tables).toContain("snapshot.csv");
    expect(tables).toContain("delta.json");
    expect(listed.files.slice(-2).map((f) => f.path)).toEqual(["CITATION.bib", "CITATION.json"]);
    for (const file of listed.files) {
      expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(file.bytes).toBeGreaterThan(0);
    }
  });
});

describe("one table", () => {
  it("is the file the manifest lists, byte for byte, for every table in both formats, at its price", async () => {
    const listed = await manifest();
    for (const file of listed.files.filter((f) => f.table)) {
      const { response, bytes } = await get(`/export/files/${file.path}?release=3`);
      expect(response.status, file.path).toBe(200);
      expect(response.headers.get("content-type")).toBe(file.mediaType);
      expect(response.headers.get("content-disposition")).toBe(
        `attachment; filename="${MARKET}-release-3-${file.path}"`,
      );
      expect(response.headers.get("x-credits-cost")).toBe("3");
      expect(sha256(bytes), file.path).toBe(file.sha256);
      expect(bytes.byteLength).toBe(file.bytes);
      if (file.format === "csv") expect(readCsvFields(bytes.toString()).length - 1).toBe(file.rows);
      else expect(JSON.parse(bytes.toString())).toHaveLength(file.rows ?? -1);
    }
  });

  it("is immutable when the release is pinned, revalidated for the latest, and 304 for free", async () => {
    const pinned = await get("/export/files/capaindex.csv?release=2");
    expect(pinned.response.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    const latest = await get("/export/files/capaindex.csv");
    expect(latest.response.headers.get("cache-control")).toBe("private, max-age=60");
    const etag = pinned.response.headers.get("etag");
    expect(etag).toMatch(/^(W\/)?"/); // weak when compressed (fetch asks for gzip)
    const again = await get("/export/files/capaindex.csv?release=2", { "If-None-Match": etag ?? "" });
    expect(again.response.status).toBe(304);
    expect(again.response.headers.get("x-credits-cost")).toBe("0");
    expect(again.bytes.byteLength).toBe(0);
    expect(await debited(again.response.headers.get("x-request-id"))).toBe(0);
  });

  it("comes gzip-compressed when asked (Node's client, which decodes nothing), decompressing to the same bytes", async () => {
    const plain = await get("/export/files/servicemax.csv?release=3");
    const zipped = await new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
      const path = `${base}/v1/markets/${MARKET}/export/files/servicemax.csv?release=3`;
      const req = request(path, { headers: { ...auth, "Accept-Encoding": "gzip" } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ headers: response.headers, bytes: Buffer.concat(chunks) }));
        response.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.etag).toMatch(/^W\//);
    expect(zipped.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 2);
    expect(sha256(gunzipSync(zipped.bytes))).toBe(sha256(plain.bytes));
  });

  it("refuses a file no table has, and an unknown market, without charging", async () => {
    const bad = await get("/export/files/secrets.txt");
    expect(bad.response.status).toBe(400);
    expect(JSON.parse(bad.bytes.toString())).toMatchObject({ code: "invalid_request" });
    expect(await debited(bad.response.headers.get("x-request-id"))).toBe(0);
    const missing = await fetch(`${base}/v1/markets/no-such-market/export/files/snapshot.csv`, { headers: auth });
    expect(missing.status).toBe(404);
    expect(await debited(missing.headers.get("x-request-id"))).toBe(0);
  });
});

describe("the ZIP archive", () => {
  it("holds every file of the manifest with its digest, and the manifest itself, charged its price once", async () => {
    const listed = await manifest();
    const { response, bytes } = await get("/export/zip?release=3");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${MARKET}-release-3.zip"`);
    expect(response.headers.get("x-credits-cost")).toBe("25");
    expect(await debited(response.headers.get("x-request-id"))).toBe(25);
    const entries = readZip(bytes);
    const folder = `${MARKET}-release-3`;
    for (const file of listed.files) {
      const entry = entries.find((e) => e.name === `${folder}/${file.path}`);
      expect(entry, file.path).toBeDefined();
      expect(sha256(entry?.bytes ?? Buffer.alloc(0)), file.path).toBe(file.sha256);
    }
    const inside = entries.find((e) => e.name === `${folder}/manifest.json`);
    expect(JSON.parse(inside?.bytes.toString() ?? "{}")).toEqual(listed);
  });

  it("is the same bytes on every call, so its ETag holds", async () => {
    const first = await get("/export/zip?release=2");
    const second = await get("/export/zip?release=2");
    expect(sha256(second.bytes)).toBe(sha256(first.bytes));
    expect(second.response.headers.get("etag")).toBe(first.response.headers.get("etag"));
  });

  it("answers HEAD with the headers and price of GET and no body", async () => {
    const head = await fetch(`${base}/v1/markets/${MARKET}/export/zip?release=3`, { method: "HEAD", headers: auth });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("application/zip");
    expect(head.headers.get("x-credits-cost")).toBe("25");
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });
});

describe("the citation", () => {
  it("is BibTeX by default and CSL-JSON when asked, free, as the manifest gives it", async () => {
    const listed = await manifest();
    const bib = await get("/citation?release=3");
    expect(bib.response.headers.get("content-type")).toBe("application/x-bibtex; charset=utf-8");
    expect(bib.response.headers.get("x-credits-cost")).toBe("0");
    expect(bib.bytes.toString()).toBe(listed.citation.bibtex);
    expect(bib.bytes.toString()).toMatch(new RegExp(`^@misc\\{mps-${MARKET}-r3,`));
    const csl = await get("/citation?release=3&format=csl-json");
    expect(csl.response.headers.get("content-type")).toBe("application/vnd.citationstyles.csl+json");
    expect(JSON.parse(csl.bytes.toString())).toEqual([listed.citation.csl]);
  });
});
