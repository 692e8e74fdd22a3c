/** Which client_id hosts are refused before any fetch, and when tests may lift that. */
import { describe, expect, it } from "vitest";
import { namesPrivateAddress } from "@/server/3-outbound/public-address";
import { decidePrivateHosts } from "@/server/5-startup/client-metadata-hosts";

describe("namesPrivateAddress", () => {
  it.each([
    "localhost",
    "api.localhost",
    "127.0.0.1",
    "127.8.9.10",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "[::1]",
    "[fd00::1]",
    "[fe80::1]",
    "[::ffff:127.0.0.1]",
  ])("refuses %s", (host) => expect(namesPrivateAddress(host)).toBe(true));

  it.each([
    "claude.ai",
    "vscode.dev",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "[2606:4700::1111]",
    "localhost.example",
  ])("lets %s through to the fetch (whose guard checks the address DNS gives)", (host) =>
    expect(namesPrivateAddress(host)).toBe(false),
  );
});

/** An operator's environment: only what it sets. */
const env = (values: Record<string, string>) => values as NodeJS.ProcessEnv;

describe("decidePrivateHosts", () => {
  it("is off unless asked, on for tests, refused in production or with another value", () => {
    expect(decidePrivateHosts(env({}))).toEqual({ allowed: false });
    expect(decidePrivateHosts(env({ CIMD_ALLOW_PRIVATE_HOSTS: "0" }))).toEqual({ allowed: false });
    expect(decidePrivateHosts(env({ CIMD_ALLOW_PRIVATE_HOSTS: "1" }))).toMatchObject({
      allowed: true,
      warning: expect.any(String),
    });
    expect(decidePrivateHosts(env({ CIMD_ALLOW_PRIVATE_HOSTS: "1", NODE_ENV: "production" })).refusal).toMatch(
      /production/,
    );
    expect(decidePrivateHosts(env({ CIMD_ALLOW_PRIVATE_HOSTS: "1", APP_URL: "https://mps.example" })).refusal).toMatch(
      /production/,
    );
    expect(decidePrivateHosts(env({ CIMD_ALLOW_PRIVATE_HOSTS: "yes" })).refusal).toMatch(/must be 1 or 0/);
  });
});

describe("decidePrivateHosts for webhooks", () => {
  it("follows the same rule under its own name", () => {
    expect(decidePrivateHosts(env({ CIMD_ALLOW_PRIVATE_HOSTS: "1" }), "WEBHOOK_ALLOW_PRIVATE_HOSTS")).toEqual({
      allowed: false,
    });
    expect(decidePrivateHosts(env({ WEBHOOK_ALLOW_PRIVATE_HOSTS: "1" }), "WEBHOOK_ALLOW_PRIVATE_HOSTS")).toMatchObject({
      allowed: true,
      warning: expect.stringMatching(/webhooks may be delivered to private/),
    });
    expect(
      decidePrivateHosts(
        env({ WEBHOOK_ALLOW_PRIVATE_HOSTS: "1", NODE_ENV: "production" }),
        "WEBHOOK_ALLOW_PRIVATE_HOSTS",
      ).refusal,
    ).toMatch(/WEBHOOK_ALLOW_PRIVATE_HOSTS=1 in production: webhooks would be delivered to/);
  });
});
