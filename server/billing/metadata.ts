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
export const whole = (value: unknown): number | null =>
  typeof value === "number" && Number.isSafeInteger(value)
    ? value
    : typeof value === "string" && /^\d{1,9}$/.test(value)
      ? Number(value)
      : null;

/** Who acts in the audit trail for what Stripe tells us. */
export const STRIPE_ACTOR = { kind: "system", label: "Stripe" } as const;
