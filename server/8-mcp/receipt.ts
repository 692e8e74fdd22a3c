/**
 * Receipts for paid readings. A tool call that answers part of a reading links to the whole of it
 * (reading-resources.ts); the link carries a receipt saying that this organization paid for that
 * reading, so reading its pages costs nothing more for an hour. An HMAC under a key derived from
 * AUTH_SECRET for this purpose alone, over the organization, the reading's link without its
 * cursor, and the expiry: a receipt cannot be moved to another organization or another reading,
 * and rotating AUTH_SECRET voids them all.
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { appSecret } from "../3-keys/app-secret";

/** How long a receipt lets an organization read the pages of a reading it paid for. */
export const RECEIPT_LIFETIME_SECONDS = 3600;

const keys = new Map<string, Buffer>();
const keyOf = (secret: string) => {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "market-positioning", "reading receipt v1", 32));
    keys.set(secret, key);
  }
  return key;
};

const macOf = (key: Buffer, organizationId: string, reading: string, expires: number) =>
  createHmac("sha256", key).update(`${organizationId}\n${reading}\n${expires}`).digest("base64url");

/** A receipt for `reading` (a link without receipt or cursor), valid until now + the lifetime. */
export function receiptFor(organizationId: string, reading: string, now = Date.now(), secret = appSecret()): string {
  const expires = Math.floor(now / 1000) + RECEIPT_LIFETIME_SECONDS;
  return `${expires}.${macOf(keyOf(secret), organizationId, reading, expires)}`;
}

export type ReceiptCheck = { ok: true } | { ok: false; reason: "invalid" | "expired"; expiredAt?: Date };

/** Whether `receipt` is this organization's for this reading, and still valid. */
export function checkReceipt(
  receipt: string,
  organizationId: string,
  reading: string,
  now = Date.now(),
  secret = appSecret(),
): ReceiptCheck {
  const match = /^(\d{10})\.([A-Za-z0-9_-]{43})$/.exec(receipt);
  if (!match) return { ok: false, reason: "invalid" };
  const expires = Number(match[1]);
  const given = Buffer.from(match[2] as string);
  const expected = Buffer.from(macOf(keyOf(secret), organizationId, reading, expires));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
  if (expires * 1000 <= now) return { ok: false, reason: "expired", expiredAt: new Date(expires * 1000) };
  return { ok: true };
}
