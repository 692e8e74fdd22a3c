/**
 * The one origin rule (server/2-http/origin.ts): APP_URL decides; without it only the hosts the
 * operator allowed (this machine's loopback names on the server's port, ALLOWED_HOSTS) may name
 * the origin, and forwarded headers count only with TRUST_PROXY=1.
 */
import { describe, expect, it } from "vitest";
import { atPublicOrigin, originSettings, parseAppUrl, publicOriginFrom, stampOrigin } from "@/server/2-http/origin";
import { appUrlRefusal } from "@/server/5-startup/app-url";

const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;
const reader = (headers: Record<string, string>) => (name: string) => headers[name];
const origin = (headers: Record<string, string>, vars: Record<string, string> = {}) =>
  publicOriginFrom(reader(headers), originSettings(env({ PORT: "3000", ...vars })));

describe("the public origin", () => {
  it("is APP_URL whenever it is set, whatever the request says", () => {
    const vars = { APP_URL: "https://api.example.org/" };
    expect(origin({ host: "evil.example" }, vars)).toBe("https://api.example.org");
    expect(origin({ host: "localhost:3000", "x-forwarded-host": "evil.example" }, vars)).toBe(
      "https://api.example.org",
    );
    expect(origin({ forwarded: "host=evil.example;proto=https" }, { ...vars, TRUST_PROXY: "1" })).toBe(
      "https://api.example.org",
    );
  });

  it("keeps the quick start's loopback names on the server's own port", () => {
    expect(origin({ host: "localhost:3000" })).toBe("http://localhost:3000");
    expect(origin({ host: "127.0.0.1:3000" })).toBe("http://127.0.0.1:3000");
    expect(origin({ host: "[::1]:3000" })).toBe("http://[::1]:3000");
    expect(origin({ host: "LOCALHOST:3000" })).toBe("http://localhost:3000");
  });

  it.each([
    ["a forged Host", { host: "evil.example" }],
    ["a loopback name on another port", { host: "localhost:6379" }],
    ["a name that starts like localhost", { host: "localhost.evil.example:3000" }],
    ["X-Forwarded-Host without TRUST_PROXY", { host: "localhost:3000", "x-forwarded-host": "evil.example" }],
    ["Forwarded without TRUST_PROXY", { host: "localhost:3000", forwarded: "host=evil.example" }],
    ["no Host at all", {}],
  ])("never follows %s", (_what, headers) => {
    expect(origin(headers)).toBe("http://localhost:3000");
  });

  it("reads forwarded headers only with TRUST_PROXY=1, and only for an allowed host", () => {
    const proxy = { TRUST_PROXY: "1", ALLOWED_HOSTS: "app.internal.example" };
    expect(
      origin(
        { host: "10.0.0.5:3000", "x-forwarded-host": "app.internal.example", "x-forwarded-proto": "https" },
        proxy,
      ),
    ).toBe("https://app.internal.example");
    expect(origin({ forwarded: 'for=1.2.3.4;host="app.internal.example";proto=https' }, proxy)).toBe(
      "https://app.internal.example",
    );
    expect(origin({ "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }, proxy)).toBe(
      "http://localhost:3000",
    );
    // Without TRUST_PROXY the proto header is the client's word: ignored.
    expect(origin({ host: "localhost:3000", "x-forwarded-proto": "https" })).toBe("http://localhost:3000");
  });

  it("takes ALLOWED_HOSTS as the operator's list", () => {
    expect(origin({ host: "mps.lan:8080" }, { ALLOWED_HOSTS: "mps.lan:8080, other.lan" })).toBe("http://mps.lan:8080");
    expect(origin({ host: "other.lan" }, { ALLOWED_HOSTS: "mps.lan:8080, other.lan" })).toBe("http://other.lan");
    expect(origin({ host: "mps.lan" }, { ALLOWED_HOSTS: "mps.lan:8080" })).toBe("http://localhost:3000");
  });
});

describe("the door's stamp", () => {
  it("replaces every origin header a client sent by the decided origin", () => {
    const request = {
      headers: {
        host: "evil.example",
        "x-forwarded-host": "evil.example",
        "x-forwarded-proto": "https",
        forwarded: "host=evil.example",
      } as Record<string, string | string[] | undefined>,
      rawHeaders: [
        "Host",
        "evil.example",
        "X-Forwarded-Host",
        "evil.example",
        "X-Forwarded-Proto",
        "https",
        "Forwarded",
        "host=evil.example",
      ],
    };
    stampOrigin(request);
    expect(request.headers["x-forwarded-host"]).toBe(`localhost:${process.env.PORT || 3000}`);
    expect(request.headers["x-forwarded-proto"]).toBe("http");
    expect(request.headers.forwarded).toBeUndefined();
    expect(request.rawHeaders.join(" ")).not.toMatch(/X-Forwarded-Host evil|Forwarded host=evil/);
  });

  it("hands next-auth a request at the decided origin, with origin headers of ours only", () => {
    const forged = new Request("http://localhost:3000/api/auth/signin/email", {
      method: "POST",
      headers: { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
      body: "email=victim%40example.com",
    });
    const seen = atPublicOrigin(forged);
    expect(new URL(seen.url).host).toBe(`localhost:${process.env.PORT || 3000}`);
    expect(seen.headers.get("x-forwarded-host")).toBe(`localhost:${process.env.PORT || 3000}`);
    expect(seen.headers.get("x-forwarded-proto")).toBe("http");
  });
});

describe("APP_URL at start", () => {
  it("is required in production, and must be an origin", () => {
    expect(appUrlRefusal(env({ NODE_ENV: "production" }))).toContain("No APP_URL in production");
    expect(appUrlRefusal(env({ NODE_ENV: "production", APP_URL: "https://api.example.org" }))).toBeNull();
    expect(appUrlRefusal(env({}))).toBeNull();
    expect(appUrlRefusal(env({ APP_URL: "https://api.example.org/path" }))).toContain("origin only");
    expect(appUrlRefusal(env({ APP_URL: "ftp://api.example.org" }))).toContain("http or https");
    expect(parseAppUrl("https://API.example.org:443/").origin).toBe("https://api.example.org");
  });
});
