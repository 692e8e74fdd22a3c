/**
 * A deprecation notice (server/1-domain/deprecations.ts) as HTTP says it: `Deprecation` (RFC 9745:
 * a structured-field date, `@` and Unix seconds), `Sunset` (RFC 8594: an HTTP-date) and a `Link`
 * to the policy (relation types "deprecation" and "sunset").
 */
import type { DeprecationNotice } from "../1-domain/deprecations";

/** Where the policy is published: the API reference, whose introduction states it (server/8-rest/openapi.ts). */
export const DEPRECATION_DOCS_PATH = "/docs/api";

export function deprecationHeaders(notice: DeprecationNotice): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(notice.since.getTime() / 1000)}`,
    Sunset: notice.sunset.toUTCString(),
    Link: `<${DEPRECATION_DOCS_PATH}>; rel="deprecation", <${DEPRECATION_DOCS_PATH}>; rel="sunset"`,
  };
}
