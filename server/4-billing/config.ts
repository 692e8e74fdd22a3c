/**
 * What the operator configures for credit packs bought by card (docs/billing.md): the packs on
 * sale (CREDIT_PACKS), Stripe's keys, where Stripe's API is (STRIPE_API_BASE: tests only), who
 * to ask for credits without Stripe (CREDITS_CONTACT) and the monthly cap per organization.
 * Parsed strictly, once at start: a pack list with one bad entry is refused whole, with the entry
 * named, rather than selling the packs around it.
 */
import { CREDITS_PATH } from "../2-http/paths";

export interface CreditPack {
  /** Stable name of the pack, e.g. `10000-eur`: what a checkout names and a purchase keeps. */
  id: string;
  credits: number;
  /** The price in the currency's minor units (cents). */
  amount: number;
  /** ISO 4217, lower case as Stripe writes it. */
  currency: string;
}

export interface StripeSettings {
  secretKey: string;
  /** Null outside production only: webhooks are then refused, since none can be verified. */
  webhookSecret: string | null;
  /** Where Stripe's API answers; null: Stripe itself. */
  apiBase: URL | null;
}

export interface BillingConfig {
  packs: CreditPack[];
  /** Null: card purchases are off; the credits page says to ask `contact`. */
  stripe: StripeSettings | null;
  /** Who sells credits without Stripe (CREDITS_CONTACT): an address or a sentence; null: an operator. */
  contact: string | null;
  /** Most credits one organization may buy per calendar month (UTC); 0: no cap. */
  monthlyCapCredits: number;
}

export class BillingConfigError extends Error {}

/** The default monthly cap: large enough for any honest pack list, small enough to bound a stolen card. */
export const DEFAULT_MONTHLY_CAP_CREDITS = 1_000_000;

const PACK = /^(\d{1,9}):(\d{1,9}):([a-z]{3})$/;

/** `10000:4900:eur,100000:39900:eur` → the packs, in the order written; throws naming a bad entry. */
export function parseCreditPacks(text: string | undefined): CreditPack[] {
  if (text === undefined || text.trim() === "") return [];
  const packs: CreditPack[] = [];
  for (const [index, raw] of text.split(",").entries()) {
    const entry = raw.trim();
    const match = PACK.exec(entry);
    const where = `CREDIT_PACKS entry ${index + 1} (${JSON.stringify(entry.slice(0, 40))})`;
    if (!match)
      throw new BillingConfigError(
        `${where} is not credits:price:currency, e.g. 10000:4900:eur (whole credits, the price in minor units, an ISO 4217 code in lower case)`,
      );
    const [, credits, amount, currency] = match as unknown as [string, string, string, string];
    const pack = { id: `${Number(credits)}-${currency}`, credits: Number(credits), amount: Number(amount), currency };
    if (pack.credits <= 0 || pack.amount <= 0)
      throw new BillingConfigError(`${where}: credits and price must be above zero`);
    if (packs.some((other) => other.id === pack.id))
      throw new BillingConfigError(`${where}: a pack of ${pack.credits} credits in ${currency} is listed twice`);
    packs.push(pack);
  }
  return packs;
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  if (!/^\d{1,12}$/.test(text))
    throw new BillingConfigError(`${name} must be a whole number (0: no cap), not "${text.slice(0, 40)}"`);
  return Number(text);
}

function apiBase(text: string | undefined): URL | null {
  if (!text?.trim()) return null;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new BillingConfigError(
      "STRIPE_API_BASE must be an address, e.g. http://127.0.0.1:12111 (leave it unset for Stripe)",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new BillingConfigError("STRIPE_API_BASE must be an http or https address");
  return url;
}

/** The configuration from the environment; throws BillingConfigError naming what is wrong. */
export function billingConfig(env: NodeJS.ProcessEnv = process.env): BillingConfig {
  const packs = parseCreditPacks(env.CREDIT_PACKS);
  const secretKey = env.STRIPE_SECRET_KEY?.trim() || null;
  if (secretKey && packs.length === 0)
    throw new BillingConfigError("STRIPE_SECRET_KEY is set but CREDIT_PACKS lists no pack to sell");
  return {
    packs,
    stripe: secretKey
      ? { secretKey, webhookSecret: env.STRIPE_WEBHOOK_SECRET?.trim() || null, apiBase: apiBase(env.STRIPE_API_BASE) }
      : null,
    contact: env.CREDITS_CONTACT?.trim() || null,
    monthlyCapCredits: wholeNumber(env, "CREDITS_MONTHLY_CAP", DEFAULT_MONTHLY_CAP_CREDITS),
  };
}

let fromProcess: BillingConfig | undefined;

/** This process's configuration, read once (start-up has already refused a bad one). */
export function processBillingConfig(): BillingConfig {
  fromProcess ??= billingConfig(process.env);
  return fromProcess;
}

/**
 * Why the server must not start, or null. In production a secret key without a webhook secret
 * would take money and never grant the credits (no event could be verified), so it is refused.
 */
export function billingRefusal(env: NodeJS.ProcessEnv, production: boolean): string | null {
  let config: BillingConfig;
  try {
    config = billingConfig(env);
  } catch (error) {
    return error instanceof BillingConfigError ? `${error.message}.` : String(error);
  }
  if (production && config.stripe && !config.stripe.webhookSecret)
    return [
      "STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not, in production (NODE_ENV=production):",
      "payments would be taken and no purchase granted, since no webhook could be verified. Set",
      "STRIPE_WEBHOOK_SECRET to the signing secret (whsec_…) of the endpoint https://<APP_URL>/stripe/webhook",
      "in Stripe's dashboard (docs/billing.md), or unset STRIPE_SECRET_KEY.",
    ].join("\n");
  return null;
}

/** Price per 1,000 credits in minor units, rounded half up: what the packs page compares. */
export const pricePerThousand = (pack: CreditPack): number => Math.round((pack.amount * 1000) / pack.credits);

/**
 * Where more credits come from, in one sentence (the credits page and the 402's detail say it):
 * the credits page when packs are sold by card (where automatic top-up is set up too), else
 * CREDITS_CONTACT, else an operator — and then, with an origin, the credits page all the same,
 * where the balance and every debit are: an agent that hit a 402 can send its person there.
 */
export function howToGetCredits(config: BillingConfig, origin: string | null): string {
  const page = `${origin ?? ""}${CREDITS_PATH}`;
  if (config.stripe)
    return `Owners and billing members of the organization buy credits, or turn on automatic top-up, on the Credits page: ${page}.`;
  const ask = config.contact
    ? `Ask ${config.contact} for more credits.`
    : "Ask an operator of this service for more credits.";
  return origin === null ? ask : `${ask} The balance and every debit are on the Credits page: ${page}.`;
}

/** The dashboard's Credits page on this origin: a 402's `creditsUrl`. */
export const creditsPageUrl = (origin: string) => `${origin}${CREDITS_PATH}`;
