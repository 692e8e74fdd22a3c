/**
 * The one protected resource of our authorization server — the MCP endpoint — and the metadata
 * that lets an MCP client find its way from a 401 to a token (RFC 9728, MCP authorization spec).
 */
import { MARKET_READ_SCOPE } from "../1-domain/operations";
import { MCP_PATH } from "./paths";

/** Where oidc-provider's endpoints live (authorize, token, register, revoke, jwks, interactions). */
export const OAUTH_PREFIX = "/oauth";
export const PROTECTED_RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

/** The resource indicator (RFC 8707) and token audience: the exact URL of /mcp. */
export const mcpResource = (origin: string) => `${origin}${MCP_PATH}`;

/** RFC 9728 §3.1: the metadata of a resource with a path lives at the path-inserted URL. */
export const protectedResourceMetadataUrl = (origin: string) =>
  `${origin}${PROTECTED_RESOURCE_METADATA_PATH}${MCP_PATH}`;

export function protectedResourceMetadata(origin: string) {
  return {
    resource: mcpResource(origin),
    authorization_servers: [origin],
    scopes_supported: [MARKET_READ_SCOPE],
    bearer_methods_supported: ["header"],
    resource_name: "Market Positioning (MCP)",
    resource_documentation: `${origin}/docs/mcp`,
  };
}

/** The scopes a client may ask for: OpenID's two and the one that reads market data. */
export const OIDC_SCOPES = ["openid", "offline_access"] as const;
export const RESOURCE_SCOPES = [MARKET_READ_SCOPE] as const;
