/**
 * `npm start` on an empty embedded database: builds if needed, migrates, seeds the demo catalogue
 * and serves it; on SIGTERM it stops and frees the embedded folder for the next process.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, startApp } from "../helpers/server";

describe("npm start with no configuration", () => {
  let app: RunningApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "mps-start-"));
    app = await startApp({ DATABASE_URL: "", DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("reports healthy on the embedded database", async () => {
    const response = await fetch(`${app.url}/api/health`);
    expect(await response.json()).toEqual({ status: "ok", database: "pglite" });
    expect(app.output()).toContain("seeded the demo catalogue");
  });

  it("serves the listed demo markets, not the archived one", async () => {
    const html = await (await fetch(app.url)).text();
    const ids = [...html.matchAll(/data-market-id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(["foundation-model-apis", "managed-kubernetes", "object-storage", "speech-to-text"]);
    expect(html).toContain("fictional");
  });

  it("never serves the embedded database's files", async () => {
    for (const probe of ["/pglite.wasm", "/_next/static/media/pglite.wasm", "/.data/pglite/PG_VERSION"]) {
      const response = await fetch(`${app.url}${probe}`);
      expect(response.status).toBe(404);
    }
  });

  it("stops on SIGTERM and releases the embedded folder", async () => {
    await app.stop();
    expect(existsSync(path.join(dataDir, "pglite.lock"))).toBe(false);
    expect(existsSync(path.join(dataDir, "pglite", "PG_VERSION"))).toBe(true);
  });
});
