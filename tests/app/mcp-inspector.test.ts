/**
 * The MCP server as the MCP Inspector's CLI sees it (a real, independent MCP client in its own
 * process, over HTTP with an API token): tools/list, tools/call of every tool, resources/read.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, inject, it } from "vitest";
import { SERVED_TOOL_NAMES } from "../helpers/spec";

const base = inject("appUrl");
const accounts = inject("accounts");
const ROOT = path.resolve(import.meta.dirname, "../..");
const INSPECTOR = path.join(
  ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "inspector",
  "clients",
  "launcher",
  "build",
  "index.js",
);
const home = mkdtempSync(path.join(tmpdir(), "mps-inspector-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Runs `mcp-inspector --cli` against /mcp; returns its parsed JSON output. */
async function inspector(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      INSPECTOR,
      "--cli",
      `${base}/mcp`,
      "--transport",
      "http",
      "--header",
      `Authorization: Bearer ${accounts.reader.token}`,
      ...args,
    ],
    { cwd: home, env: { ...process.env, HOME: home, MCP_CATALOG_PATH: path.join(home, "mcp.json") }, timeout: 60_000 },
  );
  return JSON.parse(stdout);
}

describe("MCP Inspector CLI", () => {
  it("lists the tools: the six fixed ones and ours", async () => {
    const listed = (await inspector("--method", "tools/list")) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name).sort()).toEqual(SERVED_TOOL_NAMES);
  });

  const calls: [string, string[], (result: Record<string, unknown>) => void][] = [
    ["service_geographies_list", [], (r) => expect((r.geographies as unknown[]).length).toBe(36)],
    // The demo's four listed markets and the size tests' generated one.
    ["service_markets_list", [], (r) => expect((r.markets as unknown[]).length).toBe(5)],
    [
      "service_market_get_snapshot",
      ["marketId=speech-to-text"],
      (r) => expect((r.products as unknown[]).length).toBe(10),
    ],
    [
      "service_market_get_capaindex",
      ["marketId=object-storage"],
      (r) => expect((r.products as unknown[]).length).toBe(11),
    ],
    [
      "service_market_get_servicemax",
      ["marketId=managed-kubernetes", "country=FR"],
      (r) => expect(r).toMatchObject({ country: "FR", marketId: "managed-kubernetes" }),
    ],
    [
      "service_market_get_delta",
      ["marketId=foundation-model-apis", "country=de", "view=bars"],
      (r) => expect(r).toMatchObject({ country: "DE", marketId: "foundation-model-apis" }),
    ],
  ];
  for (const [tool, args, check] of calls)
    it(`calls ${tool}`, async () => {
      const result = await inspector(
        "--method",
        "tools/call",
        "--tool-name",
        tool,
        ...(args.length ? ["--tool-arg", ...args] : []),
      );
      expect(result.isError).toBeFalsy();
      check(result.structuredContent as Record<string, unknown>);
    });

  it("shows an MCP App for the three chart tools and none for the others", async () => {
    for (const tool of ["service_market_get_delta", "service_market_get_servicemax", "service_market_get_capaindex"]) {
      const info = await inspector("--method", "tools/call", "--tool-name", tool, "--app-info", "--advertise-apps");
      expect(JSON.stringify(info)).toContain("ui://service/charts");
    }
    await expect(
      inspector("--method", "tools/call", "--tool-name", "service_markets_list", "--app-info", "--advertise-apps"),
    ).rejects.toMatchObject({ code: 2 });
  });

  it("reads the chart view", async () => {
    const read = (await inspector("--method", "resources/read", "--uri", "ui://service/charts")) as {
      contents: { mimeType: string; text: string }[];
    };
    expect(read.contents[0]?.mimeType).toBe("text/html;profile=mcp-app");
    expect(read.contents[0]?.text).toContain("<!doctype html>");
  });

  it("reads the snapshot's HTML resource", async () => {
    const read = (await inspector("--method", "resources/read", "--uri", "ui://service/snapshot/object-storage")) as {
      contents: { uri: string; mimeType: string; text: string }[];
    };
    expect(read.contents[0]).toMatchObject({ uri: "ui://service/snapshot/object-storage", mimeType: "text/html" });
    expect(read.contents[0]?.text).toMatch(/^<!doctype html>/);
  });
});
