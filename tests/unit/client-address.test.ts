/**
 * Client addresses as they are recorded and shown (server/2-http/client-address.ts): an IPv4 client
 * seen through a dual-stack socket (`::ffff:127.0.0.1`) is written as the IPv4 address it is; an
 * IPv6 address, or text that is no address at all, is left as it is.
 */
import { describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, clientAddress, clientNetwork, plainAddress } from "@/server/2-http/client-address";

describe("plainAddress", () => {
  it("writes an IPv4-mapped IPv6 address as its IPv4 address", () => {
    expect(plainAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(plainAddress("::FFFF:203.0.113.9")).toBe("203.0.113.9");
    expect(plainAddress("::ffff:c000:0280")).toBe("192.0.2.128");
  });

  it("leaves IPv4, IPv6, nothing and what is no address as they are", () => {
    expect(plainAddress("127.0.0.1")).toBe("127.0.0.1");
    expect(plainAddress("::1")).toBe("::1");
    expect(plainAddress("2001:db8::ffff:127.0.0.1")).toBe("2001:db8::ffff:127.0.0.1");
    expect(plainAddress(null)).toBeNull();
    expect(plainAddress("<b>not an address</b>")).toBe("<b>not an address</b>");
    expect(plainAddress("")).toBe("");
  });
});

describe("clientAddress: recorded plainly", () => {
  const headers = (values: Record<string, string>) => new Headers(values);
  const env = (values: Record<string, string>) => ({ NODE_ENV: "test", ...values }) as NodeJS.ProcessEnv;

  it("records the door's IPv4-mapped address as IPv4, and a trusted proxy's too", () => {
    expect(clientAddress(headers({ [CLIENT_ADDRESS_HEADER]: "::ffff:127.0.0.1" }), env({}))).toBe("127.0.0.1");
    expect(
      clientAddress(headers({ "x-forwarded-for": "::ffff:198.51.100.7, 10.0.0.1" }), env({ TRUST_PROXY: "1" })),
    ).toBe("198.51.100.7");
    expect(clientAddress(headers({}), env({}))).toBeNull();
  });

  it("counts the mapped and the plain address as one client", () => {
    expect(clientNetwork("::ffff:127.0.0.1")).toBe(clientNetwork("127.0.0.1"));
  });
});
