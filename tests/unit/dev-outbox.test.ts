/**
 * The pure parts of the dev outbox's safety: when the server may start with it (the production
 * rule) and how the server judges a client loopback.
 */
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, clientAddress } from "@/server/2-http/client-address";
import { cameFromLoopback, isLoopbackAddress, isLoopbackPeer, PEER_HEADER, stampPeer } from "@/server/2-http/peer";
import { decideOutbox, isProduction } from "@/server/5-startup/dev-outbox";

// Next's typings make NODE_ENV a required key of ProcessEnv, and one of three values.
const env = (vars: Record<string, string | undefined>) => ({ NODE_ENV: "", ...vars }) as unknown as NodeJS.ProcessEnv;

describe("the production rule", () => {
  it("is NODE_ENV=production as the operator set it, or an https APP_URL", () => {
    expect(isProduction(env({ NODE_ENV: "production" }))).toBe(true);
    expect(isProduction(env({ APP_URL: "https://api.example.org" }))).toBe(true);
    expect(isProduction(env({ APP_URL: "HTTPS://api.example.org" }))).toBe(true);
    expect(isProduction(env({}))).toBe(false);
    expect(isProduction(env({ NODE_ENV: "test" }))).toBe(false);
    expect(isProduction(env({ NODE_ENV: "development", APP_URL: "http://localhost:3000" }))).toBe(false);
  });
});

describe("the dev outbox at start", () => {
  it("is on for the quick start (no variables), with a warning", () => {
    const decision = decideOutbox(env({}));
    expect(decision.outbox).toBe(true);
    expect(decision.warning).toMatch(/WARNING: the dev outbox is ON/);
    expect(decision.refusal).toBeUndefined();
  });

  it("is off with SMTP_URL, in production or not, and off with DEV_OUTBOX=0 outside production", () => {
    for (const vars of [
      { SMTP_URL: "smtp://mail:587" },
      { SMTP_URL: "smtp://mail:587", NODE_ENV: "production" },
      { SMTP_URL: "smtp://mail:587", DEV_OUTBOX: "1" },
      { DEV_OUTBOX: "0" },
    ])
      expect(decideOutbox(env(vars)), JSON.stringify(vars)).toEqual({ outbox: false });
  });

  it("refuses production without SMTP_URL unless DEV_OUTBOX=1, saying what to set", () => {
    for (const vars of [
      { NODE_ENV: "production" },
      { NODE_ENV: "production", DEV_OUTBOX: "0" },
      { APP_URL: "https://api.example.org" },
    ]) {
      const decision = decideOutbox(env(vars));
      expect(decision.outbox, JSON.stringify(vars)).toBe(false);
      expect(decision.refusal).toMatch(/No SMTP_URL in production/);
      expect(decision.refusal).toMatch(/Set SMTP_URL .* or DEV_OUTBOX=1/s);
    }
    expect(decideOutbox(env({ APP_URL: "https://api.example.org" })).refusal).toContain(
      "APP_URL=https://api.example.org",
    );
  });

  it("turns on in production only when the operator opts in, and warns", () => {
    const decision = decideOutbox(env({ NODE_ENV: "production", DEV_OUTBOX: "1" }));
    expect(decision.outbox).toBe(true);
    expect(decision.warning).toMatch(/loopback/);
  });

  it("refuses a DEV_OUTBOX that is neither 1 nor 0", () => {
    for (const value of ["true", "yes", "on", " 1"])
      expect(decideOutbox(env({ DEV_OUTBOX: value })).refusal).toMatch(/DEV_OUTBOX must be 1 .* or 0/);
  });
});

describe("loopback clients", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["::1", true],
    ["::ffff:127.0.0.1", true],
    ["::FFFF:127.0.0.1", true],
    ["192.0.2.2", false],
    ["::ffff:192.0.2.2", false],
    ["10.127.0.1", false],
    ["fd00::2", false],
    ["::", false],
    ["0.0.0.0", false],
    ["127.0.0.1.example.org", false],
    ["", false],
    [undefined, false],
  ])("%j is loopback: %j", (address, loopback) => {
    expect(isLoopbackAddress(address)).toBe(loopback);
  });

  it("counts a request a proxy passed on as remote, even from a loopback socket", () => {
    expect(cameFromLoopback("127.0.0.1", ["host", "accept"])).toBe(true);
    for (const header of ["X-Forwarded-For", "x-forwarded-host", "x-forwarded-proto", "forwarded", "via", "x-real-ip"])
      expect(cameFromLoopback("127.0.0.1", ["host", header]), header).toBe(false);
    // Nothing a remote client sends makes it local.
    expect(cameFromLoopback("192.0.2.2", ["host"])).toBe(false);
  });

  function request(remoteAddress: string | undefined, rawHeaders: string[]) {
    const headers: Record<string, string> = {};
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const name = (rawHeaders[i] as string).toLowerCase();
      headers[name] = headers[name] ? `${headers[name]}, ${rawHeaders[i + 1]}` : (rawHeaders[i + 1] as string);
    }
    return { headers, rawHeaders, socket: { remoteAddress } } as unknown as IncomingMessage;
  }

  it("stamps the server's verdict and drops every copy of the header a client sent", () => {
    const forged = request("192.0.2.2", ["Host", "x", "X-MPS-Peer", "loopback", "x-mps-peer", "loopback"]);
    stampPeer(forged);
    expect(forged.headers[PEER_HEADER]).toBe("remote");
    expect(forged.rawHeaders).toEqual(["Host", "x", PEER_HEADER, "remote", CLIENT_ADDRESS_HEADER, "192.0.2.2"]);
    expect(isLoopbackPeer(new Headers(forged.headers as Record<string, string>))).toBe(false);

    const local = request("::ffff:127.0.0.1", ["Host", "localhost:3000", "X-MPS-Peer", "remote"]);
    stampPeer(local);
    expect(local.headers[PEER_HEADER]).toBe("loopback");
    expect(isLoopbackPeer(new Headers(local.headers as Record<string, string>))).toBe(true);

    const proxied = request("127.0.0.1", ["Host", "x", "X-Forwarded-For", "127.0.0.1"]);
    stampPeer(proxied);
    expect(proxied.headers[PEER_HEADER]).toBe("remote");
  });

  it("stamps the socket's address for the throttles, over any copy a client sent", () => {
    const forged = request("198.51.100.4", ["Host", "x", "X-MPS-Client-Address", "10.0.0.1"]);
    stampPeer(forged);
    expect(clientAddress(new Headers(forged.headers as Record<string, string>), {} as NodeJS.ProcessEnv)).toBe(
      "198.51.100.4",
    );
    expect(forged.rawHeaders.filter((h) => h === "10.0.0.1")).toEqual([]);
    // Behind a proxy the operator trusts, the first forwarded hop is the client.
    const proxied = request("127.0.0.1", ["Host", "x", "X-Forwarded-For", "203.0.113.5, 10.0.0.2"]);
    stampPeer(proxied);
    const headers = new Headers(proxied.headers as Record<string, string>);
    expect(clientAddress(headers, { TRUST_PROXY: "1" } as unknown as NodeJS.ProcessEnv)).toBe("203.0.113.5");
    expect(clientAddress(headers, {} as NodeJS.ProcessEnv)).toBe("127.0.0.1");
    expect(clientAddress(new Headers(), {} as NodeJS.ProcessEnv)).toBeNull();
  });

  it("reads a request our server did not stamp as remote", () => {
    expect(isLoopbackPeer(new Headers())).toBe(false);
    expect(isLoopbackPeer(new Headers({ [PEER_HEADER]: "yes" }))).toBe(false);
  });
});
