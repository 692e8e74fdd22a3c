/**
 * What our Checkout Sessions and PaymentIntents carry in Stripe's metadata, and how fields of
 * Stripe's objects are read: defensively (a field missing or of another type reads as null, never
 * a guess).
 */

export const METADATA_ORGANIZATION = "organization";
export const METADATA_CREDITS = "credits";
/** On a setup-mode session: what it saves the card for. */
export const METADATA_PURPOSE = "purpose";
export const PURPOSE_TOP_UP_CARD = "top_up_card";
/** On a top-up's PaymentIntent: the attempt (top_up_attempts.id) that made it. */
export const METADATA_TOP_UP = "top_up";

export const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
export const idOf = (value: unknown): string | null =>
  text(value) ?? (value && typeof value === "object" ? text((value as { id?: unknown }).id) : null);
/** Most a purchase's credits or price may be: its columns are PostgreSQL integers. */
const MAX_WHOLE = 2_147_483_647;
/**
 * A whole number above zero that fits the purchase's columns, or null. A signed event is Stripe's,
 * but its fields are still read as untrusted JSON: a negative, fractional or huge value must not
 * reach a grant or a check constraint (a 500 Stripe would retry for days).
 */
export const whole = (value: unknown): number | null => {
  const number =
    typeof value === "number" ? value : typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : null;
  return number !== null && Number.isSafeInteger(number) && number > 0 && number <= MAX_WHOLE ? number : null;
};
/** A Checkout Session's id as Stripe writes it (`cs_test_…`, `cs_live_…`). */
export const sessionId = (value: unknown): string | null =>
  typeof value === "string" && /^cs_[A-Za-z0-9_]{1,250}$/.test(value) ? value : null;
/** ISO 4217 in lower case, as Stripe writes a currency. */
export const currencyOf = (value: unknown): string | null =>
  typeof value === "string" && /^[a-z]{3}$/.test(value) ? value : null;

/** Who acts in the audit trail for what Stripe tells us. */
export const STRIPE_ACTOR = { kind: "system", label: "Stripe" } as const;
