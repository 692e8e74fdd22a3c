/**
 * The OpenAPI 3.1 document of /v1, generated from the routers (trpc-to-openapi), then given what
 * the generator cannot know: our problem+json errors for each operation, conditional requests on
 * readings, response headers, credits per operation, and the bearer scheme.
 */
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { DEPRECATIONS, MIN_NOTICE_DAYS } from "../1-domain/deprecations";
import { DATA_LICENCE } from "../1-domain/licence";
import { ERROR_CODES, ERRORS_DOC_PATH, type ErrorCode } from "../1-errors/codes";
import { COMPRESS_MIN_BYTES } from "../2-http/compression";
import { DEPRECATION_DOCS_PATH } from "../2-http/deprecation-headers";
import { PROBLEM_CONTENT_TYPE } from "../2-http/problem";
import { type AnyDeclaration, hasEtag, operationOf } from "../7-procedures/declaration";
import { DECLARATIONS } from "../7-procedures/operations";
import { GROUP_TAGS } from "../7-procedures/procedure";
import { appRouter } from "../7-routers/root";

type Json = Record<string, unknown>;

const SECURITY_SCHEME = "bearerAuth";

/** Which error codes each kind of operation can answer. */
const COMMON_ERRORS: ErrorCode[] = [
  "unauthorized",
  "organization_required",
  "not_found",
  "rate_limited",
  "internal_error",
  "unavailable",
  // Answered by the HTTP server itself (server/5-http-server/http-server.ts), whatever the path.
  "request_timeout",
  "request_header_too_large",
];
const errorsOf = (declaration: AnyDeclaration, hasInput: boolean): ErrorCode[] => [
  ...(hasInput ? (["invalid_request"] as const) : []),
  ...COMMON_ERRORS,
  ...(declaration.credits > 0 ? (["insufficient_credits", "too_many_concurrent"] as const) : []),
  ...(declaration.scope ? (["insufficient_scope"] as const) : []),
];

/** "snapshot 5, capaindex 2, …, exports.zip 25": every priced operation's price, in the declarations' order (a reading by its name, others with their group). */
const priceList = () =>
  DECLARATIONS.filter((d) => d.credits > 0)
    .map((d) => `${d.group === "readings" ? d.name : `${d.group}.${d.name}`} ${d.credits}`)
    .join(", ");

/** The operations of a group, by summary: "Market snapshot, Capability Index, …". */
const summariesOf = (group: AnyDeclaration["group"]) =>
  DECLARATIONS.filter((d) => d.group === group)
    .map((d) => d.summary)
    .join(", ");

const freeness = (group: AnyDeclaration["group"]) => {
  const prices = DECLARATIONS.filter((d) => d.group === group).map((d) => d.credits);
  return prices.every((p) => p === 0) ? "Free." : prices.some((p) => p === 0) ? "Metered, some free." : "Metered.";
};

const EXAMPLE_PROBLEM: Record<ErrorCode, Json> = {
  invalid_request: {
    detail: "country: country must be an ISO 3166-1 alpha-2 code, e.g. FR",
    issues: [{ path: "country", message: "country must be an ISO 3166-1 alpha-2 code, e.g. FR" }],
  },
  unauthorized: { detail: "A valid bearer token is required." },
  insufficient_credits: {
    detail:
      "This call costs 5 credits and the organization's balance is 3. Nothing was debited. Owners and billing members of the organization buy credits, or turn on automatic top-up, on the Credits page: https://example.com/credits.",
    cost: 5,
    balance: 3,
    creditsUrl: "https://example.com/credits",
  },
  insufficient_scope: {
    detail: "This operation needs a token with the scope Market.Read.All.",
    scope: "Market.Read.All",
  },
  forbidden_origin: { detail: "Dashboard changes must come from the dashboard's own pages." },
  organization_required: {
    detail:
      "You do not belong to an organization yet. Create one at https://example.com/onboarding, then call again with the same credentials.",
    createOrganizationUrl: "https://example.com/onboarding",
  },
  quota_exceeded: {
    detail: "you have created 5 organizations, as many as one person may; ask the operator for another",
  },
  invalid_signature: {
    detail: "The Stripe-Signature header does not verify this body under the endpoint's secret, or is too old.",
  },
  monthly_cap_reached: {
    detail:
      "This organization has bought 1,000,000 credits this month, as many as one organization may; no checkout was begun.",
  },
  forbidden: {
    detail: "Your role in this organization (member) may not do this: it needs members.manage.",
    permission: "members.manage",
  },
  not_found: { detail: 'No market "no-such-market".' },
  method_not_allowed: { detail: "POST is not allowed on /v1/markets; use GET." },
  request_timeout: { detail: "The request's headers did not arrive within 60 seconds." },
  conflict: { detail: "An organization keeps at least one owner: make someone else an owner first." },
  gone: { detail: "This chart is no longer available." },
  rate_limited: { detail: "Rate limit of 600 requests per minute exceeded." },
  too_many_concurrent: {
    detail: "The organization has 8 metered calls in progress and 16 waiting on this instance; retry in 1 s.",
  },
  request_header_too_large: { detail: "The request's headers are larger than 16 KB." },
  request_too_large: { detail: "The MCP message is larger than 1 MiB." },
  internal_error: { detail: "The service failed unexpectedly." },
  not_implemented: { detail: "Only format=json is served." },
  unavailable: { detail: "The database is unreachable; retry shortly." },
};

const problemSchema: Json = {
  type: "object",
  description: "RFC 9457 problem details. `code` is stable; `type` links to its documentation.",
  required: ["type", "title", "status", "code", "detail", "requestId"],
  properties: {
    type: { type: "string", format: "uri", description: "Link to the documentation of `code`." },
    title: { type: "string" },
    status: { type: "integer" },
    code: { type: "string", enum: Object.keys(ERROR_CODES), description: "Stable machine-readable error code." },
    detail: { type: "string", description: "What went wrong with this request, in words." },
    requestId: { type: "string", description: "Also sent as X-Request-Id; quote it when reporting a problem." },
    issues: {
      type: "array",
      description: "For invalid_request: each problem with the parameter it concerns.",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: { path: { type: "string" }, message: { type: "string" } },
      },
    },
    cost: { type: "integer", description: "For insufficient_credits: the cost of the call." },
    balance: { type: "integer", description: "For insufficient_credits: the organization's balance." },
    creditsUrl: {
      type: "string",
      format: "uri",
      description:
        "For insufficient_credits: the dashboard's Credits page, where credits are bought and automatic top-up is set.",
    },
    scope: { type: "string", description: "For insufficient_scope: the scope the operation needs." },
    createOrganizationUrl: {
      type: "string",
      format: "uri",
      description: "For organization_required: where to create an organization.",
    },
  },
};

const header = (description: string, example?: string): Json => ({
  description,
  schema: { type: "string", ...(example ? { example } : {}) },
});

const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": { $ref: "#/components/headers/RateLimitLimit" },
  "RateLimit-Remaining": { $ref: "#/components/headers/RateLimitRemaining" },
  "RateLimit-Reset": { $ref: "#/components/headers/RateLimitReset" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimitPolicy" },
  RateLimit: { $ref: "#/components/headers/RateLimit" },
};

function errorResponse(code: ErrorCode, origin: string): Json {
  const { status, title, description } = ERROR_CODES[code];
  return {
    description: `${title} (\`${code}\`): ${description}`,
    headers: {
      "X-Request-Id": { $ref: "#/components/headers/RequestId" },
      ...(code === "unauthorized" ? { "WWW-Authenticate": header("Bearer challenge.", 'Bearer realm="api"') } : {}),
      ...(code === "rate_limited" || code === "too_many_concurrent" || code === "unavailable"
        ? { "Retry-After": header("Seconds to wait.", "30") }
        : {}),
      ...(code === "rate_limited" ? RATE_LIMIT_HEADERS : {}),
    },
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: { $ref: "#/components/schemas/Problem" },
        example: {
          type: `${origin}${ERRORS_DOC_PATH}#${code}`,
          title,
          status,
          code,
          requestId: "5b0f0a52-4f0e-4d5c-9a57-4d1c9b8f2e11",
          ...EXAMPLE_PROBLEM[code],
        },
      },
    },
  };
}

/** What a file of each type holds, as far as a schema says it (a table's JSON: one object per row). */
const DOWNLOAD_SCHEMAS: Record<string, Json> = {
  "application/zip": { type: "string", format: "binary" },
  "application/json": {
    type: "array",
    description: "One object per row, keyed by the table's column names (the manifest describes them).",
    items: { type: "object" },
  },
  "application/vnd.citationstyles.csl+json": {
    type: "array",
    description: "CSL-JSON: one item of type dataset.",
    items: {
      type: "object",
      required: ["id", "type", "title"],
      properties: { id: { type: "string" }, type: { const: "dataset" }, title: { type: "string" } },
    },
  },
};

/** HEAD of an operation: answered, checked and metered as GET, without a body. */
function headOf(get: Json & { responses: Json; operationId?: string }): Json {
  const responses = Object.fromEntries(
    Object.entries(get.responses).map(([status, response]) => {
      const { content: _content, ...rest } = response as Json;
      return [status, { ...rest, description: `${(response as Json).description as string} (HEAD: no body.)` }];
    }),
  );
  return {
    ...get,
    operationId: `${get.operationId ?? "operation"}Head`,
    summary: `${get.summary as string} (headers only)`,
    description: `As GET, without the body: the same checks, headers and price. ${get.description as string}`,
    responses,
  };
}

/** The deprecation list in words, for the document's introduction. */
const deprecatedList = () =>
  DEPRECATIONS.length === 0
    ? "nothing"
    : DEPRECATIONS.map(
        (d) =>
          `${d.operation}${d.parameter ? ` parameter ${d.parameter}` : d.field ? ` field ${d.field}` : ""} (sunset ${d.sunset})`,
      ).join("; ");

export function buildOpenApiDocument(origin: string): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: "Market Positioning Service API",
    version: "1.0.0",
    description: [
      "Read-only market positioning data. Every product of a technology market is scored 0–100 on Innovation, Control and Scale against the field of its market, with per-market bands from Foundation to Frontier and methodology text to quote verbatim.",
      "",
      "A reading engages one country's sovereign controls and shows what each product keeps and loses: the Capability Index (rank by Innovation), the Max reading (rank by what is retained under controls) and the Delta (published vs under controls).",
      "",
      `Authenticate with \`Authorization: Bearer <token>\`. Credits per call: ${priceList()}; every other operation is free. Each operation states its price (and \`x-credits\`); credits are debited once per successful call; failed calls and 304 responses cost nothing. \`HEAD\` is answered and metered like \`GET\`, without the body. Every error is \`application/problem+json\` with a stable \`code\`, documented at ${origin}${ERRORS_DOC_PATH}.`,
      "",
      `Deprecation policy: fields are added to answers without notice; nothing is renamed or removed without one. A field, parameter or operation to be retired is deprecated first and kept at least ${MIN_NOTICE_DAYS} days: from the day it is deprecated, answers it concerns carry \`Deprecation\` (RFC 9745), \`Sunset\` (RFC 8594: the first day it may be gone) and \`Link: <${DEPRECATION_DOCS_PATH}>; rel="deprecation"\`, MCP results \`_meta.deprecation\`, and this document marks it \`deprecated\`. Currently deprecated: ${deprecatedList()}.`,
      "",
      `Send \`Accept-Encoding: br\` (or \`gzip\`) and answers of ${COMPRESS_MIN_BYTES} bytes or more come compressed (readings shrink about 15×), with \`Vary: Accept-Encoding\` and a weak ETag that \`If-None-Match\` matches as the strong one; the price is the same.`,
    ].join("\n"),
    baseUrl: `${origin}/v1`,
    securitySchemes: {
      [SECURITY_SCHEME]: {
        type: "http",
        scheme: "bearer",
        description: "An API token created in the dashboard (Settings → API tokens).",
      },
    },
    tags: Object.values(GROUP_TAGS),
  }) as OpenAPIObject & Json;

  document.info.contact = { name: "Market Positioning Service", url: `${origin}/docs/api` };
  document.info.license = { name: DATA_LICENCE.name, identifier: DATA_LICENCE.identifier };
  document.tags = (Object.keys(GROUP_TAGS) as AnyDeclaration["group"][]).map((group) => ({
    name: GROUP_TAGS[group],
    description: `${summariesOf(group)}. ${freeness(group)}`,
  }));
  document.components ??= {};
  const components = document.components as Json & { schemas: Json };
  components.schemas ??= {};
  for (const name of Object.keys(components.schemas)) if (name.startsWith("error.")) delete components.schemas[name];
  components.schemas.Problem = problemSchema;
  components.headers = {
    RequestId: header("Identifies this request in our logs.", "5b0f0a52-4f0e-4d5c-9a57-4d1c9b8f2e11"),
    ETag: header(
      'Validator of the reading; send it back in If-None-Match. Strong; weak (W/"…") on a compressed answer, which If-None-Match matches all the same.',
      '"k3rQ0mKk1mZ9y1Wm8JtQ2w9x6Yp1Lz0A"',
    ),
    CacheControl: header(
      "How long the reading may be reused. A release export of a pinned `release` never changes: `private, max-age=31536000, immutable`.",
      "private, max-age=60",
    ),
    ContentDisposition: header(
      "The file's name when saved.",
      'attachment; filename="foundation-model-apis-release-3-snapshot.csv"',
    ),
    CreditsCost: header("Credits this call cost.", "5"),
    CreditsRemaining: header("The organization's balance after this call.", "995"),
    RateLimitLimit: header("Requests the organization may make per window.", "600"),
    RateLimitRemaining: header("Requests left in the current window.", "599"),
    RateLimitReset: header("Seconds until the window resets.", "42"),
    RateLimitPolicy: header(
      "The quota policy (IETF draft-ietf-httpapi-ratelimit-headers): q requests per w seconds.",
      '"default";q=600;w=60',
    ),
    RateLimit: header(
      "What is left of the quota (IETF draft-ietf-httpapi-ratelimit-headers): r requests, t seconds until it resets.",
      '"default";r=599;t=42',
    ),
  };

  const byPath = new Map(DECLARATIONS.map((declaration) => [declaration.path as string, declaration]));
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const operation = (item as Json).get as Json & { responses: Json; parameters?: Json[]; operationId?: string };
    const declaration = byPath.get(path);
    if (!declaration) throw new Error(`${path} is served but not declared`);
    const access = operationOf(declaration);
    const etag = hasEtag(declaration.caching);
    operation.security = [{ [SECURITY_SCHEME]: [] }];
    operation["x-credits"] = access.credits;
    operation["x-scope"] = access.scope;
    markDeprecated(operation, access.name);
    const ok = operation.responses["200"] as Json;
    ok.description = "The reading or resource.";
    const download = "download" in declaration ? declaration.download : undefined;
    if (download) {
      ok.description = "The file, streamed (no Content-Length).";
      ok.content = Object.fromEntries(
        // Keyed by the bare media type; the answer's Content-Type adds its parameters (charset, header).
        download.mediaTypes.map((type) => [
          type.split(";")[0],
          { schema: DOWNLOAD_SCHEMAS[type.split(";")[0] as string] ?? { type: "string" } },
        ]),
      );
    }
    ok.headers = {
      ...(download ? { "Content-Disposition": { $ref: "#/components/headers/ContentDisposition" } } : {}),
      "X-Request-Id": { $ref: "#/components/headers/RequestId" },
      ...(declaration.caching === "none" ? {} : { "Cache-Control": { $ref: "#/components/headers/CacheControl" } }),
      "X-Credits-Cost": { $ref: "#/components/headers/CreditsCost" },
      "X-Credits-Remaining": { $ref: "#/components/headers/CreditsRemaining" },
      ...RATE_LIMIT_HEADERS,
      ...(etag ? { ETag: { $ref: "#/components/headers/ETag" } } : {}),
    };
    const responses: Json = { "200": ok };
    if (etag) {
      operation.parameters = [
        ...(operation.parameters ?? []),
        {
          in: "header",
          name: "If-None-Match",
          required: false,
          description:
            "An ETag from an earlier response: answers 304 with no body, and no credits, while it is current.",
          schema: { type: "string" },
        },
      ];
      responses["304"] = {
        description: "Not modified: the copy named by If-None-Match is current. No body, no credits.",
        headers: {
          ETag: { $ref: "#/components/headers/ETag" },
          "X-Request-Id": { $ref: "#/components/headers/RequestId" },
        },
      };
    }
    const hasInput = (operation.parameters ?? []).some((p) => p.in === "path" || p.in === "query");
    for (const code of errorsOf(declaration, hasInput)) {
      const status = String(ERROR_CODES[code].status);
      const existing = responses[status] as Json | undefined;
      // Two codes share 403: describe both on one response.
      responses[status] = existing
        ? { ...existing, description: `${existing.description} Or ${errorResponse(code, origin).description}` }
        : errorResponse(code, origin);
    }
    operation.responses = responses;
    (item as Json).head = headOf(operation);
  }
  return document;
}

/** What the deprecation list (server/1-domain/deprecations.ts) retires of an operation, marked as OpenAPI marks it. */
function markDeprecated(operation: Json & { parameters?: Json[] }, name: string) {
  for (const d of DEPRECATIONS.filter((entry) => entry.operation === name)) {
    const note = `Deprecated since ${d.since}; may be gone from ${d.sunset}: ${d.instead}`;
    if (d.parameter) {
      const parameter = operation.parameters?.find((p) => p.name === d.parameter);
      if (parameter)
        Object.assign(parameter, { deprecated: true, description: `${parameter.description ?? ""} ${note}`.trim() });
    } else if (d.field)
      continue; // the field's own schema says it (deprecated: true), and the introduction lists it
    else Object.assign(operation, { deprecated: true, description: `${operation.description as string} ${note}` });
  }
}

// The origin comes from the client's Host header, so the cache must stay small whatever it sends.
const MAX_CACHED_ORIGINS = 8;
const cache = new Map<string, string>();

/** The serialised document for an origin; generated once per origin, for the last few origins. */
export function openApiJson(origin: string): string {
  let json = cache.get(origin);
  if (!json) {
    json = JSON.stringify(buildOpenApiDocument(origin));
    cache.set(origin, json);
    if (cache.size > MAX_CACHED_ORIGINS) cache.delete(cache.keys().next().value as string);
  }
  return json;
}
