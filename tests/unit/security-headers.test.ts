/** The page security policy, directive by directive. */
import { describe, expect, it } from "vitest";
import { arrivedOverTls, contentSecurityPolicy, pageSecurityHeaders } from "@/server/2-http/security-headers";

const directives = (policy: string) => new Map(policy.split("; ").map((d) => [d.split(" ")[0], d]));

describe("content security policy", () => {
  it("allows scripts only with the nonce, nothing to frame the page, forms only to us", () => {
    const policy = directives(contentSecurityPolicy("abc123"));
    expect(policy.get("script-src")).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(policy.get("frame-ancestors")).toBe("frame-ancestors 'none'");
    expect(policy.get("object-src")).toBe("object-src 'none'");
    expect(policy.get("form-action")).toBe("form-action 'self'");
    expect(policy.get("default-src")).toBe("default-src 'self'");
  });

  it("leaves form-action out where a form is redirected to another site (sign-in, consent)", () => {
    for (const pathname of ["/signin", "/signin/check-email", "/oauth/interaction/abc"])
      expect(directives(contentSecurityPolicy("n", { pathname })).has("form-action")).toBe(false);
    for (const pathname of ["/", "/tokens", "/signinx", "/oauth"])
      expect(directives(contentSecurityPolicy("n", { pathname })).get("form-action")).toBe("form-action 'self'");
  });

  it("lets development builds eval (hot reload), never production ones", () => {
    expect(contentSecurityPolicy("n", { development: true })).toContain("'unsafe-eval'");
    expect(contentSecurityPolicy("n")).not.toContain("unsafe-eval");
  });
});

describe("HSTS", () => {
  it("is sent only when the request came over TLS", () => {
    expect(arrivedOverTls("http://x/", null, "")).toBe(false);
    expect(arrivedOverTls("https://x/", null, "")).toBe(true);
    expect(arrivedOverTls("http://x/", "https", "")).toBe(true);
    expect(arrivedOverTls("http://x/", "HTTPS, http", "")).toBe(true);
    expect(arrivedOverTls("http://x/", "http", "")).toBe(false);
    expect(arrivedOverTls("http://x/", "http", "https://api.example.org")).toBe(true);
    expect(pageSecurityHeaders(false)["Strict-Transport-Security"]).toBeUndefined();
    expect(pageSecurityHeaders(true)["Strict-Transport-Security"]).toBe("max-age=63072000; includeSubDomains");
  });
});
