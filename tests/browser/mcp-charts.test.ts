/**
 * The MCP Apps chart view in Chromium, inside a small host built on ext-apps' AppBridge: the view
 * comes from resources/read of the tools' declared UI resource, the data from real tool calls over
 * /mcp, and the view's own tool calls (country switch) go back through the host to /mcp.
 */

import { mkdirSync } from "node:fs";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { build } from "esbuild";
import type { Browser, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium } from "../helpers/browser";

const base = inject("appUrl");
const SCREENSHOTS = path.resolve(import.meta.dirname, "../../artifacts/screenshots");
const accounts = inject("accounts");

let browser: Browser;
let client: Client;
let hostScript: string;
let viewHtml: string;

beforeAll(async () => {
  browser = await launchChromium();
  client = new Client({ name: "chart-host-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${accounts.reader.token}` } },
    }),
  );
  const bundle = await build({
    entryPoints: [path.join(import.meta.dirname, "mcp-host", "host.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
  });
  hostScript = bundle.outputFiles[0]?.text ?? "";
  const { tools } = await client.listTools();
  const uri = (tools.find((t) => t.name === "service_market_get_delta")?._meta?.ui as { resourceUri?: string })
    ?.resourceUri;
  expect(uri).toBe("ui://service/charts");
  const read = await client.readResource({ uri: uri as string });
  expect(read.contents[0]?.mimeType).toBe("text/html;profile=mcp-app");
  viewHtml = (read.contents[0] as { text: string }).text;
});
afterAll(async () => {
  await client?.close();
  await browser?.close();
});

/** Opens the view in the host with a real tool call's input and result. */
async function openView(
  tool: string,
  args: Record<string, unknown>,
): Promise<{ page: Page; view: FrameLocator; result: Record<string, unknown> }> {
  const page = await browser.newPage();
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  await page.exposeFunction("callTool", (params: { name: string; arguments?: Record<string, unknown> }) =>
    client.callTool({ name: params.name, arguments: params.arguments ?? {} }),
  );
  await page.setContent(`<!doctype html><html><body><script>${hostScript}</script></body></html>`);
  const result = await client.callTool({ name: tool, arguments: args });
  await page.evaluate(
    ([html, input, output]) =>
      (window as unknown as { startHost: (...a: unknown[]) => Promise<void> }).startHost(html, input, output),
    [viewHtml, args, result] as const,
  );
  // The view is self-contained: nothing but the host page itself is ever requested.
  expect(requests.filter((url) => url.startsWith("http"))).toEqual([]);
  return { page, view: page.frameLocator("iframe"), result: result.structuredContent as Record<string, unknown> };
}

const productCount = (payload: Record<string, unknown>) => (payload.products as unknown[]).length;

describe("MCP Apps chart view", () => {
  it("draws the delta map with one streak mark per product, and switches to bars and back", async () => {
    const { page, view, result } = await openView("service_market_get_delta", {
      marketId: "foundation-model-apis",
      country: "FR",
    });
    const map = view.locator('svg[data-chart="map"] g.mark');
    await expect.poll(() => map.count()).toBe(productCount(result));
    // A product that loses Innovation under French controls draws a streak between its two points.
    expect(await view.locator("svg[data-chart=map] line.streak").count()).toBeGreaterThan(0);
    expect(await map.first().locator("title").textContent()).toMatch(/Published: Innovation [\d.]+, Control [\d.]+/);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, "mcp-delta-map.png") });

    await view.getByRole("button", { name: "Bars" }).click();
    const bars = view.locator('svg[data-chart="bars"] g.mark');
    await expect.poll(() => bars.count()).toBe(productCount(result));
    // A ghost behind every usable product; an unavailable one is no bar at all, only its words.
    const unavailable = (result as { products: { available: boolean }[] }).products.filter((p) => !p.available).length;
    expect(await view.locator("svg[data-chart=bars] rect.ghost").count()).toBe(productCount(result) - unavailable);
    expect(await view.locator("svg[data-chart=bars] g.mark.unavailable rect").count()).toBe(0);
    expect(await view.locator("svg[data-chart=bars] g.mark.unavailable text.label").allTextContents()).toEqual(
      Array.from({ length: unavailable }, () => expect.stringMatching(/^– /)),
    );
    await page.screenshot({ path: path.join(SCREENSHOTS, "mcp-delta-bars.png") });
    await view.getByRole("button", { name: "Map" }).click();
    await expect.poll(() => view.locator('svg[data-chart="map"]').count()).toBe(1);
    await page.close();
  });

  it("opens on bars when the call asked for view=bars", async () => {
    const { page, view, result } = await openView("service_market_get_delta", {
      marketId: "managed-kubernetes",
      country: "DE",
      view: "bars",
    });
    await expect.poll(() => view.locator('svg[data-chart="bars"] g.mark').count()).toBe(productCount(result));
    expect(await view.locator('svg[data-chart="map"]').count()).toBe(0);
    expect(await view.getByRole("button", { name: "Bars" }).getAttribute("aria-pressed")).toBe("true");
    await page.close();
  });

  it("switches country by calling the tool through the host", async () => {
    const { page, view } = await openView("service_market_get_servicemax", {
      marketId: "object-storage",
      country: "FR",
    });
    await expect.poll(() => view.locator("h1").textContent()).toBe("Max reading under FR's controls");
    const select = view.getByTestId("country");
    await expect.poll(() => select.locator("option").count()).toBe(36);
    await select.selectOption("US");
    await expect.poll(() => view.locator("h1").textContent()).toBe("Max reading under US's controls");
    const expected = (
      await client.callTool({
        name: "service_market_get_servicemax",
        arguments: { marketId: "object-storage", country: "US" },
      })
    ).structuredContent as { products: { productId: string }[] };
    const drawn = await view
      .locator('svg[data-chart="bars"] g.mark')
      .evaluateAll((marks) => marks.map((m) => m.getAttribute("data-product")));
    expect(drawn).toEqual(expected.products.map((p) => p.productId));
    await page.close();
  });

  it("draws the Capability Index as ranked bars", async () => {
    const { page, view, result } = await openView("service_market_get_capaindex", { marketId: "speech-to-text" });
    await expect.poll(() => view.locator('svg[data-chart="bars"] g.mark').count()).toBe(productCount(result));
    const labels = await view.locator('svg[data-chart="bars"] text.label').allTextContents();
    expect(labels[0]).toMatch(/^1\. /);
    await page.close();
  });
});
