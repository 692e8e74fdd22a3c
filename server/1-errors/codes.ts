/**
 * Every error code the API answers with: its HTTP status, title and what a client should do.
 * The one registry: problem bodies, the OpenAPI document and the /docs/errors page read it.
 */
export const ERROR_CODES = {
  invalid_request: {
    status: 400,
    title: "Invalid request",
    description:
      "A path or query parameter is malformed or unknown: a marketId that is not a kebab-case slug, a country that is not an ISO 3166-1 alpha-2 code of a geography, a view other than map or bars, a release outside 1 to 2,147,483,647, a limit out of its range. `issues` lists each problem with its parameter path. A request that is not HTTP/1.1 at all (a malformed request line or header) gets it too, from the HTTP server before any handler runs, and the connection is closed.",
    action:
      "Fix the parameters named in `issues` (without `issues`: the request itself). `detail` names the operation that lists valid values where there is one: GET /v1/geographies (MCP: service_geographies_list) for countries.",
  },
  invalid_signature: {
    status: 400,
    title: "Invalid signature",
    description:
      "A Stripe webhook (POST /stripe/webhook) whose Stripe-Signature header is missing, does not match the body under the endpoint's signing secret, or is older than five minutes. Nothing was changed.",
    action:
      "Stripe retries on its own. When testing, sign with the endpoint's secret (STRIPE_WEBHOOK_SECRET), e.g. through `stripe listen`.",
  },
  unauthorized: {
    status: 401,
    title: "Unauthorized",
    description:
      "The request has no bearer token, or the token is malformed, unknown, expired or revoked. The response carries `WWW-Authenticate: Bearer`.",
    action: "Send `Authorization: Bearer <token>` with a valid API token from the dashboard.",
  },
  insufficient_credits: {
    status: 402,
    title: "Insufficient credits",
    description:
      "The organization's balance is lower than the cost of the call (it may be below zero after a refunded or disputed purchase). The body adds `cost`, `balance` and `creditsUrl` (the dashboard's Credits page); `detail` says where to get credits. Nothing was debited.",
    action:
      "Have an owner or billing member buy credits, or turn on automatic top-up, on the dashboard's Credits page (`creditsUrl`) where card purchases are offered, else ask whom `detail` names; or call a cheaper operation.",
  },
  insufficient_scope: {
    status: 403,
    title: "Insufficient scope",
    description: "The token is valid but lacks the scope the operation requires (Market.Read.All for readings).",
    action: "Create a token with the required scope.",
  },
  forbidden_origin: {
    status: 403,
    title: "Forbidden origin",
    description:
      "A dashboard change (a tRPC mutation) came from another site or without an Origin header: cross-site request forgery is refused.",
    action: "Make the change from the dashboard's own pages.",
  },
  organization_required: {
    status: 403,
    title: "Organization required",
    description: "The signed-in user does not belong to an organization yet; readings are billed to an organization.",
    action: "Create an organization at the URL given in `detail`, then retry with the same credentials.",
  },
  quota_exceeded: {
    status: 403,
    title: "Quota exceeded",
    description:
      "The signed-in person reached a quota of the dashboard: the organizations one person may create (MAX_ORGANIZATIONS_PER_PERSON, default 5). Nothing was created.",
    action: "Use one of your organizations, or ask the operator for another.",
  },
  monthly_cap_reached: {
    status: 403,
    title: "Monthly purchase cap reached",
    description:
      "The organization has bought, or is buying, as many credits this calendar month (UTC) as its cap allows: the service's (CREDITS_MONTHLY_CAP) or the lower one its owners set. Nothing was charged.",
    action: "Buy a smaller pack, wait for next month, or ask an owner (or the operator) to raise the cap.",
  },
  forbidden: {
    status: 403,
    title: "Forbidden",
    description:
      'The signed-in person\'s role in the organization does not hold the power the dashboard change needs (docs/accounts.md, "Roles"): a member inviting people, a billing member creating tokens. `permission` names the power. Nothing was changed.',
    action: "Ask an owner or admin of the organization to make the change, or to give you a role that may.",
  },
  not_found: {
    status: 404,
    title: "Not found",
    description:
      "No such path, market or release. Archived markets answer not_found on every path, and a `release` number the market never had answers not_found.",
    action:
      "`detail` says what exists: the markets are listed by GET /v1/markets (MCP: service_markets_list), a market's products by GET /v1/markets/{marketId}/products (MCP: service_market_products_list), its releases by GET /v1/markets/{marketId}/changelog.",
  },
  method_not_allowed: {
    status: 405,
    title: "Method not allowed",
    description: "The path exists but not for this method. The API is read-only: every path answers GET (and HEAD).",
    action: "Use one of the methods in the `Allow` header.",
  },
  request_timeout: {
    status: 408,
    title: "Request timeout",
    description:
      "The request did not arrive in time: its headers took longer than 60 seconds, or the whole request longer than 5 minutes. Answered by the HTTP server before any handler runs; the connection is closed. Nothing was debited.",
    action: "Send the whole request at once, on a new connection.",
  },
  conflict: {
    status: 409,
    title: "Conflict",
    description:
      "The change contradicts the organization's state: it would leave the organization without an owner, or the person invited already belongs to it. Nothing was changed.",
    action: "Read `detail`: make someone else an owner first, or change the member's role instead of inviting them.",
  },
  gone: {
    status: 410,
    title: "Gone",
    description:
      "The thing at this address existed and was withdrawn for good: an embed its organization revoked (`/embed/{id}`, its SVG and PNG, and its oEmbed answer). It will not come back.",
    action: "Remove the link or the frame; ask the embed's organization for a new one.",
  },
  rate_limited: {
    status: 429,
    title: "Too many requests",
    description: "The organization made more requests than its rate limit allows in the current window.",
    action: "Wait the number of seconds in `Retry-After` before retrying.",
  },
  too_many_concurrent: {
    status: 429,
    title: "Too many concurrent calls",
    description:
      "The organization already has as many metered calls in progress on this instance as it may, and as many waiting as may wait (ORG_MAX_IN_FLIGHT, ORG_MAX_QUEUED). Other organizations are not affected. Nothing was debited.",
    action: "Wait the number of seconds in `Retry-After`, or send fewer calls at once.",
  },
  request_header_too_large: {
    status: 431,
    title: "Request header fields too large",
    description:
      "The request's header section is larger than the server accepts (16 KB for the request line and all headers together). Answered by the HTTP server before any handler runs; the connection is closed. Nothing was debited.",
    action: "Send fewer or smaller headers (cookies and bearer tokens included), on a new connection.",
  },
  request_too_large: {
    status: 413,
    title: "Request too large",
    description:
      "The request's body is larger than the endpoint accepts (1 MiB for an MCP message, 256 KiB for a Stripe webhook). It was not read further or acted on; nothing was debited.",
    action: "Send a smaller message: MCP tool calls and their arguments are small.",
  },
  internal_error: {
    status: 500,
    title: "Internal error",
    description: "The service failed unexpectedly. Nothing about the failure is leaked; nothing was debited.",
    action: "Retry later; quote `requestId` when reporting it.",
  },
  not_implemented: {
    status: 501,
    title: "Not implemented",
    description:
      "The request asks for something the service does not do at all: oEmbed in `format=xml` (only JSON is served).",
    action: "Ask for what `detail` names instead (`format=json`).",
  },
  unavailable: {
    status: 503,
    title: "Service unavailable",
    description:
      "A dependency (the database) is unreachable for now, or the call could not finish within its deadline (for example, the organization's account was held by another transaction). Nothing was debited.",
    action: "Retry after a short wait.",
  },
} as const satisfies Record<string, { status: number; title: string; description: string; action: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
/** Every code, as the error page lists them: by HTTP status, then by code within a status. */
export const ERROR_CODE_LIST = (Object.keys(ERROR_CODES) as ErrorCode[]).sort(
  (a, b) => ERROR_CODES[a].status - ERROR_CODES[b].status || a.localeCompare(b, "en"),
);

/** Where each code is documented; `type` of a problem body. */
export const ERRORS_DOC_PATH = "/docs/errors";
