/** A call's facts (server/7-procedures/context.ts) said as REST headers. */

import { deprecationHeaders } from "../2-http/deprecation-headers";
import { rateLimitHeaders } from "../3-limits/rate-limiter";
import type { CallFacts } from "../7-procedures/context";

/** A file that never changes (a pinned release's export): kept a year, never revalidated (RFC 8246). */
export const IMMUTABLE = "private, max-age=31536000, immutable";

/** The facts every answer carries (rate limit, deprecation), and those of a success (ETag, caching, credits). */
export function factHeaders(facts: CallFacts, succeeded: boolean): Record<string, string> {
  const headers: Record<string, string> = facts.rateLimit ? rateLimitHeaders(facts.rateLimit) : {};
  if (facts.deprecation) Object.assign(headers, deprecationHeaders(facts.deprecation));
  if (!succeeded) return headers;
  if (facts.etag) headers.ETag = facts.etag;
  if (facts.immutable) headers["Cache-Control"] = IMMUTABLE;
  else if (facts.maxAgeSeconds !== undefined)
    headers["Cache-Control"] =
      facts.maxAgeSeconds > 0 ? `private, max-age=${facts.maxAgeSeconds}` : "private, no-cache";
  if (facts.credits) {
    headers["X-Credits-Cost"] = String(facts.credits.cost);
    headers["X-Credits-Remaining"] = String(facts.credits.balance);
  }
  return headers;
}
