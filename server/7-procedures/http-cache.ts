/**
 * Conditional requests for readings. Releases are immutable, so a reading is fully named by its
 * market, release, operation and parameters: that name (with the payload version) is hashed into
 * a strong ETag without serialising anything.
 */
import { hash } from "node:crypto";
import type { ApiContext } from "./context";

/** Bump when the bytes of a reading change for the same release (fields added, order changed). */
export const PAYLOAD_VERSION = 3;

export function readingEtag(parts: (string | number)[]): string {
  const name = [PAYLOAD_VERSION, ...parts].join("\u0000");
  let etag = etags.get(name);
  if (etag === undefined) {
    if (etags.size >= ETAGS_KEPT) etags.clear();
    etag = `"${hash("sha256", name, "base64url").slice(0, 32)}"`;
    etags.set(name, etag);
  }
  return etag;
}

/** ETags by the name they hash, as most calls ask for the same few readings; cleared when full. */
const etags = new Map<string, string>();
const ETAGS_KEPT = 10_000;

/** RFC 9110 §13.1.2: If-None-Match uses weak comparison; `*` matches any current representation. */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => opaque(tag) === opaque(etag));
}

/**
 * Sets the ETag and freshness of a reading, and marks the call not modified when the client's
 * copy is current. A pinned release (`?release=N`) may be cached longer than "the latest".
 */
export function cacheReading(ctx: ApiContext, parts: (string | number)[], pinned: boolean): void {
  const etag = readingEtag(parts);
  ctx.facts.etag = etag;
  ctx.facts.maxAgeSeconds = pinned ? 3600 : 60;
  ctx.facts.notModified = matchesIfNoneMatch(ctx.headers.get("if-none-match"), etag);
}
