/**
 * Our OAuth 2.1 authorization server for MCP clients: panva's oidc-provider, configured for one
 * protected resource (/mcp), storing everything in our database and signing with our keys.
 *
 * oidc-provider is a Koa application that wants Node's req/res; Next.js route handlers speak
 * Fetch. So the provider listens on a private loopback port inside this process and the app's
 * /oauth and /.well-known routes forward to it (see `host.ts`). Its issuer is fixed, so there
 * is one provider per public origin (just one when APP_URL is set).
 */
import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import Provider, {
  type Configuration,
  errors,
  interactionPolicy,
  type KoaContextWithOIDC,
  type ResourceServer,
} from "oidc-provider";
import type { Database } from "../../db/client";
import { users } from "../../db/schema";
import { JWT_BEARER_GRANT } from "../1-domain/identity-providers";
import { MARKET_READ_SCOPE } from "../1-domain/operations";
import { RETRY_AFTER_SECONDS } from "../1-errors/api-error";
import { isDatabaseUnavailable } from "../1-errors/describe";
import { escapeHtml } from "../2-http/html";
import { mcpResource, OAUTH_PREFIX, OIDC_SCOPES } from "../2-http/protected-resource";
import { appSecret } from "../3-keys/app-secret";
import { DatabaseAdapter } from "../4-api-access/oauth-records";
import { signingKeys } from "../6-auth/signing-keys";
import { handleDecision } from "./decision";
import { UNAVAILABLE_DESCRIPTION } from "./failure";
import { ID_JAG_PROFILE, idJagGrant } from "./id-jag";
import {
  allowDocumentClient,
  allowDocumentFetch,
  DOCUMENT_CACHE_SECONDS,
  DOCUMENT_MAX_BYTES,
  documentFetch,
} from "./metadata-documents";

const DAY = 24 * 3600;
/** Access tokens are short: a revoked connection also stops at the next refresh at the latest. */
export const ACCESS_TOKEN_TTL_SECONDS = Number(process.env.OAUTH_ACCESS_TOKEN_TTL_SECONDS) || 3600;
const REFRESH_TOKEN_TTL_SECONDS = 30 * DAY;
/** A grant lives while its refresh tokens can: a connection unused for 90 days must reconnect. */
const GRANT_TTL_SECONDS = 90 * DAY;

export const OAUTH_ROUTES = {
  authorization: `${OAUTH_PREFIX}/authorize`,
  token: `${OAUTH_PREFIX}/token`,
  registration: `${OAUTH_PREFIX}/register`,
  revocation: `${OAUTH_PREFIX}/revoke`,
  jwks: `${OAUTH_PREFIX}/jwks`,
  end_session: `${OAUTH_PREFIX}/session/end`,
  userinfo: `${OAUTH_PREFIX}/userinfo`,
  pushed_authorization_request: `${OAUTH_PREFIX}/par`,
} as const;

export const interactionPath = (uid: string) => `${OAUTH_PREFIX}/interaction/${encodeURIComponent(uid)}`;

/** Cookie-signing keys derived from the app's secret, so every instance and restart agrees. */
function cookieKeys(): string[] {
  return [createHmac("sha256", appSecret()).update("oidc-provider cookies").digest("base64url")];
}

/**
 * Every authorization shows our consent page, even when oidc-provider remembers a session: the
 * person signed in to the dashboard decides, and sees what they are granting, every time.
 */
function consentEveryTime() {
  const { base, Check } = interactionPolicy;
  const policy = base();
  policy
    .get("login")
    ?.checks.add(
      new Check("dashboard_consent", "the dashboard's signed-in user must consent", (ctx) =>
        ctx.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
      ),
    );
  return policy;
}

const ERROR_PAGE_STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1b1f24}code{background:#f2f4f7;padding:0 .2em}";

export async function createProvider(db: Database, origin: string, internalSecret: string): Promise<Provider> {
  const resource = mcpResource(origin);
  const resourceServer: ResourceServer = {
    scope: MARKET_READ_SCOPE,
    audience: resource,
    accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
    accessTokenFormat: "jwt",
    jwt: { sign: { alg: "RS256" } },
  };
  const configuration: Configuration = {
    adapter: (model: string) => new DatabaseAdapter(db, model),
    jwks: { keys: (await signingKeys(db)) as never },
    cookies: { keys: cookieKeys() },
    scopes: [...OIDC_SCOPES],
    claims: { openid: ["sub"] },
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      id_token_signed_response_alg: "RS256",
    },
    // OAuth 2.1: the authorization code (with PKCE S256) is the only response; no implicit or hybrid.
    responseTypes: ["code"],
    pkce: { required: () => true },
    routes: OAUTH_ROUTES,
    // Enterprise-managed authorization (ID-JAG, id-jag.ts): RFC 8414 metadata says so.
    discovery: { authorization_grant_profiles_supported: [ID_JAG_PROFILE] },
    fetch: documentFetch(),
    // Our own cap applies to the document as served (DOCUMENT_MAX_BYTES); this is what it becomes.
    fetchResponseBodyLimits: { "client_id metadata document": DOCUMENT_MAX_BYTES + 1024 },
    features: {
      devInteractions: { enabled: false },
      clientIdMetadataDocument: {
        enabled: true,
        ack: "draft-02",
        allowFetch: allowDocumentFetch(db),
        allowClient: allowDocumentClient,
        cacheDuration: DOCUMENT_CACHE_SECONDS,
      },
      pushedAuthorizationRequests: { enabled: true, requirePushedAuthorizationRequests: false },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // Clients that send no `resource` still get a token for /mcp, the only resource.
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`the only resource here is ${resource}`);
          return resourceServer;
        },
      },
    },
    async findAccount(_ctx, sub) {
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, sub));
      return user ? { accountId: user.id, claims: async () => ({ sub: user.id }) } : undefined;
    },
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid), policy: consentEveryTime() },
    // Access tokens name their grant, so /mcp can refuse them the moment the grant is revoked.
    extraTokenClaims: (_ctx, token) => (token.kind === "AccessToken" ? { gid: token.grantId } : undefined),
    // Connections outlive the browser session that made them; revoking the grant ends them.
    expiresWithSession: async () => false,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
      Grant: GRANT_TTL_SECONDS,
      // Only long enough to carry one authorization; the dashboard session is the real one.
      Session: 600,
    },
    async renderError(ctx: KoaContextWithOIDC, out) {
      ctx.type = "html";
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Connection failed</title><style>${ERROR_PAGE_STYLE}</style></head><body><h1>The connection could not be made</h1><p><code>${escapeHtml(String(out.error))}</code>: ${escapeHtml(String(out.error_description ?? ""))}</p><p>Start the connection again from your MCP client.</p></body></html>`;
    },
  };
  const provider = new Provider(origin, configuration);
  provider.proxy = true;
  answerDatabaseFaultsAsUnavailable(provider);
  answerUnregisteredGrantAsUnauthorizedClient(provider);
  provider.use(handleDecision(db, provider, resource, internalSecret, GRANT_TTL_SECONDS));
  provider.registerGrantType(
    JWT_BEARER_GRANT,
    idJagGrant({ db, resource, resourceServer, grantTtlSeconds: GRANT_TTL_SECONDS }),
    ["assertion", "scope", "resource"],
  );
  return provider;
}

/**
 * oidc-provider answers a grant type the client did not register with `invalid_request`; RFC 6749
 * §5.2 has a code for exactly that, `unauthorized_client`, and the client needs to hear which
 * registration would do.
 */
function answerUnregisteredGrantAsUnauthorizedClient(provider: Provider): void {
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { error?: string; error_description?: string } | undefined;
    if (ctx.path !== OAUTH_ROUTES.token || ctx.status !== 400 || body?.error !== "invalid_request") return;
    if (body.error_description !== "requested grant type is not allowed for this client") return;
    const grantType = String((ctx.oidc?.params as { grant_type?: unknown } | undefined)?.grant_type ?? "");
    ctx.body = {
      error: "unauthorized_client",
      error_description: `this client is not registered for the grant type ${grantType}; register it with that grant type in its grant_types`,
    };
  });
}

/**
 * A database fault inside the provider (its adapter, an account lookup) is no server_error: the
 * client may retry. The endpoint answers 503 with Retry-After, as `temporarily_unavailable`
 * (RFC 6749 §4.1.2.1) in JSON, or as a page for a browser.
 */
function answerDatabaseFaultsAsUnavailable(provider: Provider): void {
  provider.on("server_error", (ctx: KoaContextWithOIDC, error: unknown) => {
    if (isDatabaseUnavailable(error)) ctx.state.databaseUnavailable = true;
  });
  provider.use(async (ctx, next) => {
    await next();
    if (!ctx.state.databaseUnavailable) return;
    const html = ctx.response.is("html") !== false && ctx.response.is("html") !== null;
    ctx.status = 503;
    ctx.set("Retry-After", String(RETRY_AFTER_SECONDS));
    ctx.set("Cache-Control", "no-store");
    if (html) ctx.body = unavailablePage();
    else ctx.body = { error: "temporarily_unavailable", error_description: UNAVAILABLE_DESCRIPTION };
  });
}

const unavailablePage = () =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Temporarily unavailable</title><style>${ERROR_PAGE_STYLE}</style></head><body><h1>Temporarily unavailable</h1><p>${escapeHtml(UNAVAILABLE_DESCRIPTION)}</p><p>Start the connection again from your MCP client in a moment.</p></body></html>`;
