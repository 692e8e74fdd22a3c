/**
 * The billing settings (server/4-billing/config.ts): CREDIT_PACKS parsed strictly, a bad entry
 * named, and production refusing a Stripe key without the webhook secret.
 */
import { describe, expect, it } from "vitest";
import { billingConfig, billingRefusal, parseCreditPacks, pricePerThousand } from "@/server/4-billing/config";

const env = (values: Record<string, string>) => values as unknown as NodeJS.ProcessEnv;

describe("CREDIT_PACKS", () => {
  it("reads credits:price:currency entries in order", () => {
    expect(parseCreditPacks("10000:4900:eur, 100000:39900:eur")).toEqual([
      { id: "10000-eur", credits: 10000, amount: 4900, currency: "eur" },
      { id: "100000-eur", credits: 100000, amount: 39900, currency: "eur" },
    ]);
    expect(parseCreditPacks(undefined)).toEqual([]);
    expect(parseCreditPacks("  ")).toEqual([]);
  });

  it.each([
    ["10000:4900", /entry 1 .*credits:price:currency/],
    ["10000:4900:EUR", /entry 1/],
    ["10000:49.00:eur", /entry 1/],
    ["10000:4900:eur,", /entry 2/],
    ["10000:4900:eur,-5:100:eur", /entry 2/],
    ["0:4900:eur", /above zero/],
    ["10000:0:eur", /above zero/],
    ["10000:4900:eur,10000:3900:eur", /listed twice/],
  ])("refuses %j", (text, message) => {
    expect(() => parseCreditPacks(text)).toThrow(message);
  });

  it("prices packs per 1,000 credits", () => {
    const [small, large] = parseCreditPacks("10000:4900:eur,100000:39900:eur");
    expect(small && pricePerThousand(small)).toBe(490);
    expect(large && pricePerThousand(large)).toBe(399);
  });
});

describe("the billing configuration", () => {
  it("is off without a Stripe key, and keeps the contact and the cap", () => {
    const config = billingConfig(env({ CREDITS_CONTACT: "sales@example.com", CREDITS_MONTHLY_CAP: "0" }));
    expect(config.stripe).toBeNull();
    expect(config.contact).toBe("sales@example.com");
    expect(config.monthlyCapCredits).toBe(0);
    expect(billingConfig(env({})).monthlyCapCredits).toBe(1_000_000);
  });

  it("points Stripe at STRIPE_API_BASE when set", () => {
    const config = billingConfig(
      env({ CREDIT_PACKS: "1000:500:eur", STRIPE_SECRET_KEY: "sk_test_1", STRIPE_API_BASE: "http://127.0.0.1:9" }),
    );
    expect(config.stripe?.apiBase?.port).toBe("9");
    expect(() =>
      billingConfig(env({ CREDIT_PACKS: "1000:500:eur", STRIPE_SECRET_KEY: "sk", STRIPE_API_BASE: "ftp://x" })),
    ).toThrow(/http or https/);
  });

  it("refuses a key with no pack to sell, and a cap that is no number", () => {
    expect(() => billingConfig(env({ STRIPE_SECRET_KEY: "sk_test_1" }))).toThrow(/CREDIT_PACKS/);
    expect(() => billingConfig(env({ CREDITS_MONTHLY_CAP: "lots" }))).toThrow(/CREDITS_MONTHLY_CAP/);
  });

  it("refuses to start in production with a key but no webhook secret, saying what to set", () => {
    const keyOnly = env({ CREDIT_PACKS: "1000:500:eur", STRIPE_SECRET_KEY: "sk_live_1" });
    expect(billingRefusal(keyOnly, true)).toMatch(/STRIPE_WEBHOOK_SECRET/);
    expect(billingRefusal(keyOnly, false)).toBeNull();
    expect(billingRefusal(env({ ...keyOnly, STRIPE_WEBHOOK_SECRET: "whsec_1" }), true)).toBeNull();
    expect(billingRefusal(env({ CREDIT_PACKS: "nonsense" }), false)).toMatch(/CREDIT_PACKS entry 1/);
    expect(billingRefusal(env({}), true)).toBeNull();
  });
});
