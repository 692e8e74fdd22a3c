/**
 * The origins an embed may be framed by are written into its page's `frame-ancestors` as they are:
 * only a scheme, a plain domain name or IP address, and a port may pass. What the URL parser lets
 * through besides (a wildcard, `;` starting another directive, `,` starting another policy, quotes
 * for keywords) is refused when saved and dropped from the policy if a stored row holds it.
 */
import { describe, expect, it } from "vitest";
import { frameableOrigin } from "@/server/1-domain/embeds";
import { embedPolicy } from "@/server/8-embeds/serve";

const frameAncestors = (policy: string) =>
  policy
    .split(";")
    .map((d) => d.trim())
    .filter((d) => d.startsWith("frame-ancestors"));

describe("frameableOrigin", () => {
  it("keeps an origin as the address bar has it", () => {
    expect(frameableOrigin(" https://Reports.Example.com/ ")).toEqual({ origin: "https://reports.example.com" });
    expect(frameableOrigin("http://127.0.0.1:5555")).toEqual({ origin: "http://127.0.0.1:5555" });
    expect(frameableOrigin("https://[2001:db8::1]:8443")).toEqual({ origin: "https://[2001:db8::1]:8443" });
    expect(frameableOrigin("https://bücher.example")).toEqual({ origin: "https://xn--bcher-kva.example" });
  });

  it.each([
    "https://*",
    "https://*.example.com",
    "https://a.com;sandbox",
    "https://a.com%3Bscript-src%20*",
    "https://b.com,frame-ancestors",
    "https://'unsafe-inline'",
    "https://a.com'",
    "https://example.com.",
    "https://-bad.example",
    `https://${"a".repeat(64)}.example`,
    "data:text/html,x",
    "javascript:alert(1)",
    "https://user:pw@a.example",
    "https://a.example/path",
    "https://a.example/?q",
    "not a url",
  ])("refuses %j", (raw) => {
    expect(frameableOrigin(raw)).toHaveProperty("problem");
  });
});

describe("embedPolicy", () => {
  it("lists the allowed origins, each one source, in one frame-ancestors directive", () => {
    const policy = embedPolicy(["https://a.example", "http://127.0.0.1:5555"]);
    expect(frameAncestors(policy)).toEqual(["frame-ancestors https://a.example http://127.0.0.1:5555"]);
    expect(policy).not.toContain(",");
  });

  it("drops what a stored row holds that could widen or split the policy", () => {
    const policy = embedPolicy([
      "https://*",
      "https://a.com;sandbox",
      "https://b.com,frame-ancestors",
      "https://ok.example",
    ]);
    expect(frameAncestors(policy)).toEqual(["frame-ancestors https://ok.example"]);
    expect(policy).not.toMatch(/sandbox|\*|,/);
    expect(frameAncestors(embedPolicy(["https://*"]))).toEqual(["frame-ancestors 'none'"]);
  });

  it("with no origins listed names no frame-ancestors: any page may frame it, the rest stays closed", () => {
    const policy = embedPolicy([]);
    expect(frameAncestors(policy)).toEqual([]);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("form-action 'none'");
    expect(policy).not.toContain("unsafe-inline'; script");
  });
});
