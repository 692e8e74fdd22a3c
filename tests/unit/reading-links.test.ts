/** Reading links (server/8-mcp/reading-resources.ts) and the receipts they carry (server/8-mcp/receipt.ts). */
import { describe, expect, it } from "vitest";
import { pageUri, parseReadingUri, readingUri, wholeReadingArguments } from "@/server/8-mcp/reading-resources";
import { checkReceipt, RECEIPT_LIFETIME_SECONDS, receiptFor } from "@/server/8-mcp/receipt";

const SECRET = "a test secret of enough length for HMAC";
const NOW = Date.UTC(2026, 10, 25, 12);

describe("reading links", () => {
  it("name one reading by one URI, whatever the order of its arguments", () => {
    expect(readingUri("tool_a", { marketId: "m", country: "FR" })).toBe(
      readingUri("tool_a", { country: "FR", marketId: "m" }),
    );
  });

  it("read back the tool, the arguments, the cursor and the receipt they were made from", () => {
    const address = {
      tool: "service_market_get_delta",
      arguments: { marketId: "foundation-model-apis", productIds: "a,b-c", country: "FR", release: "3" },
      cursor: "bzoxMA",
      receipt: "1800000000.abc",
    };
    expect(parseReadingUri(pageUri(address))).toEqual(address);
    expect(parseReadingUri(pageUri({ tool: "t", arguments: {} }))).toEqual({ tool: "t", arguments: {} });
  });

  it("are not read from another scheme, another host, or without a tool", () => {
    for (const uri of ["https://readings/t", "mps://other/t", "mps://readings/", "mps://readings/a/b", "not a uri"])
      expect(parseReadingUri(uri), uri).toBeUndefined();
  });

  it("never carry limit or cursor as arguments, and pin what the page was read from", () => {
    const args = wholeReadingArguments(
      ["marketId", "release", "country", "limit", "cursor", "productIds"],
      { marketId: "m", limit: 5, cursor: "x", productIds: undefined },
      { release: 4, country: "DE", from: { release: 1 } },
    );
    expect(args).toEqual({ marketId: "m", release: "4", country: "DE" });
    expect(parseReadingUri("mps://readings/t?limit=3&marketId=m")?.arguments).toEqual({ marketId: "m" });
  });
});

describe("receipts", () => {
  const reading = readingUri("service_market_get_snapshot", { marketId: "m", release: "2" });

  it("hold for the organization and reading they were made for, for their lifetime", () => {
    const receipt = receiptFor("org_1", reading, NOW, SECRET);
    expect(checkReceipt(receipt, "org_1", reading, NOW + 1000, SECRET)).toEqual({ ok: true });
    expect(checkReceipt(receipt, "org_1", reading, NOW + RECEIPT_LIFETIME_SECONDS * 1000, SECRET)).toMatchObject({
      ok: false,
      reason: "expired",
    });
  });

  it("fail for another organization, another reading, another secret, or when altered", () => {
    const receipt = receiptFor("org_1", reading, NOW, SECRET);
    const other = readingUri("service_market_get_snapshot", { marketId: "m", release: "3" });
    expect(checkReceipt(receipt, "org_2", reading, NOW, SECRET).ok).toBe(false);
    expect(checkReceipt(receipt, "org_1", other, NOW, SECRET).ok).toBe(false);
    expect(checkReceipt(receipt, "org_1", reading, NOW, `${SECRET}!`).ok).toBe(false);
    const [expires, mac] = receipt.split(".") as [string, string];
    // A later expiry with the same MAC: the MAC covers the expiry.
    expect(checkReceipt(`${Number(expires) + 3600}.${mac}`, "org_1", reading, NOW, SECRET).ok).toBe(false);
    expect(checkReceipt(`${expires}.${mac.slice(0, -1)}A`, "org_1", reading, NOW, SECRET).ok).toBe(mac.endsWith("A"));
    for (const bad of ["", "x", `${expires}`, `${expires}.${mac}.x`, "１８００.abc"])
      expect(checkReceipt(bad, "org_1", reading, NOW, SECRET).ok, bad).toBe(false);
  });
});
