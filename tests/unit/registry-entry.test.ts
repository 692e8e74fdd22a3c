/**
 * registry/server.json, the MCP registry's entry for this server: valid against the registry's
 * published schema (vendored in registry/schema with its source), plus the rules the registry
 * applies beyond the schema, and true to the server it describes.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { ICON_SVG } from "@/server/2-http/icon";
import { MCP_PATH } from "@/server/2-http/paths";
import { SERVER_INFO } from "@/server/8-mcp/identity";

const REGISTRY = path.resolve(import.meta.dirname, "../../registry");
const read = (file: string) => readFileSync(path.join(REGISTRY, file), "utf8");
const entry = JSON.parse(read("server.json"));
const schema = JSON.parse(read("schema/server.schema.2025-12-11.json"));

type Remote = { type: string; url: string; variables?: Record<string, { isRequired?: boolean }> };

function schemaErrors(document: unknown) {
  // The schema is draft-07 and carries `example` keywords, which strict mode refuses; as the registry validates.
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  return validate(document) ? [] : (validate.errors ?? []);
}

describe("the registry entry", () => {
  it("is valid against the registry's schema, which it names", () => {
    expect(entry.$schema).toBe(schema.$id);
    expect(schemaErrors(entry)).toEqual([]);
  });

  it("is checked for real: the schema refuses a broken entry", () => {
    expect(schemaErrors({ ...entry, name: "no namespace" }).length).toBeGreaterThan(0);
    expect(schemaErrors({ ...entry, description: "x".repeat(101) }).length).toBeGreaterThan(0);
    expect(schemaErrors({ ...entry, remotes: [{ type: "websocket", url: "https://x/mcp" }] }).length).toBeGreaterThan(
      0,
    );
  });

  it("meets the registry's rules beyond the schema: https remotes, every URL variable defined", () => {
    for (const remote of entry.remotes as Remote[]) {
      expect(remote.type).toBe("streamable-http");
      expect(remote.url.startsWith("https://")).toBe(true);
      const used = [...remote.url.matchAll(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g)].map((m) => m[1]);
      expect(Object.keys(remote.variables ?? {}).sort()).toEqual([...new Set(used)].sort());
      for (const name of used) expect(remote.variables?.[name as string]?.isRequired).toBe(true);
    }
    for (const icon of entry.icons) expect(icon.src.startsWith("https://")).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(entry._meta ?? {}))).toBeLessThanOrEqual(4096);
  });

  it("describes this server: its path, title, version and icon", () => {
    expect(new URL((entry.remotes[0] as Remote).url.replace("{host}", "h.example")).pathname).toBe(MCP_PATH);
    expect(entry.title).toBe(SERVER_INFO.title);
    expect(entry.version).toBe(SERVER_INFO.version);
    expect(read("icon.svg").trim()).toBe(ICON_SVG);
  });
});
