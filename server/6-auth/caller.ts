import type { Role } from "../1-domain/roles";

/**
 * Who is calling, however they proved it: an API token (REST, MCP), an OAuth access token (MCP
 * clients) or a dashboard session. Procedures see only this; each surface supplies an
 * `Authenticate` that produces it.
 */
export interface CallerOrganization {
  id: string;
  /**
   * The signed-in person's role in it, read from their membership row at every request (a
   * session or an MCP connection); null for an API token, which is the organization's, not a person's.
   */
  role?: Role | null;
  homeCountry: string;
  /** The balance when the caller was authenticated (the debit returns the current one). */
  creditBalance: number;
  /** Requests per rate-limit window; null: the service default. */
  rateLimit: number | null;
}

export interface Caller {
  via: "api-token" | "oauth" | "session";
  /** The API token or OAuth grant that made the call; null for a dashboard session. */
  credentialId: string | null;
  userId: string | null;
  /** Null: a user with no organization yet (OAuth connections, dashboard sessions). */
  organization: CallerOrganization | null;
  scopes: readonly string[];
  /** API and MCP calls pay credits; reading in the dashboard does not. */
  metered: boolean;
}

/** Resolves the caller of one request, or throws ApiError `unauthorized`. */
export type Authenticate = () => Promise<Caller>;

/**
 * What a request's headers are read through: a Fetch `Headers`, or a reader over Node's own
 * headers (the API's lean path, server/8-rest/handler.ts), without building a `Headers` per call.
 */
export type HeaderReader = Pick<Headers, "get">;

/** The token of `Authorization: Bearer <token>`; null when there is no such header. */
export const bearerToken = (headers: HeaderReader): string | null => bearerTokenOf(headers.get("authorization"));

/** The same, from the Authorization header's value (null when there is none). */
export function bearerTokenOf(header: string | null): string | null {
  if (header === null) return null;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match?.[1] ?? "";
}
