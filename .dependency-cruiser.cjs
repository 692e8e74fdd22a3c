/**
 * The layer graph (docs/development.md "Layers", whose map `npm run docs:layers` writes from the
 * table below): every import runs downward. A module may import its own layer
 * and the layers below it, never a layer above; surfaces never import each other; the pure layers
 * do no I/O. `npm run lint:layers` checks it; CI runs it. A new import that breaks a rule is a
 * design question: move the shared piece down a layer rather than silencing the rule.
 */
const LAYERS = [
  {
    name: "domain",
    rooms: [
      [
        "server/1-domain/",
        "market definition and its checks, score and sensitivity types, the Operation row, the price sentence",
      ],
      ["server/1-errors/", "error codes, ApiError, describeError"],
    ],
  },
  {
    name: "pure logic",
    rooms: [
      ["server/2-scoring/", "the scoring engine, sensitivity, what-if"],
      ["server/2-readings/", "every reading's computation, one type of release, release exports"],
      ["server/2-comparisons/", "two releases of a market compared: what changed, summed up and said"],
      ["server/2-notifications/", "what a notification, a weekly summary and a webhook event say"],
      ["server/2-formats/", "CSV, JSON tables, ZIP, citations, counts and money in words"],
      ["server/2-http/", "origin, problem+json, security headers, same-origin, HTML escaping, paths"],
      // The charts' pure transforms: the dashboard's components, the MCP views and the embeds draw from them.
      ["server/2-charts/", "the charts' transforms, colour scale and label placement (dashboard, MCP views, embeds)"],
    ],
  },
  // Observability (logs, metrics) sits with storage: it writes to stdout and listens to db/'s caches.
  {
    name: "storage",
    rooms: [
      ["db/", "schema, client, migrations, change feed, demo data"],
      ["server/3-catalog/", "the catalogue store; releases.ts, the one way to load a release"],
      ["server/3-exports/", "a release's export built once on a worker thread, served many times"],
      ["server/3-limits/", "rate limits, bulkheads, request deadlines, abuse throttles"],
      ["server/3-queue/", "pg-boss on the service's own database"],
      ["server/3-observability/", "JSON log, Prometheus metrics, call records"],
      ["server/3-keys/", "the app's one secret (AUTH_SECRET) and what is sealed with it"],
      ["server/3-outbound/", "the outbound guard: what the service may dial, and dialling it"],
      ["server/3-workers/", "the worker pool: PNG rendering, export builds, readings of large markets"],
    ],
  },
  // What a person and an organization have, one room per concern; billing (credit packs bought
  // through Stripe) beside them, writing the ledger through server/4-credits.
  {
    name: "accounts",
    rooms: [
      [
        "server/4-organizations/",
        "organizations, members, invitations, settings, the audit trail, members' MCP connections",
      ],
      ["server/4-identity/", "single sign-on: identity providers, their links to people, rechecks"],
      ["server/4-api-access/", "API tokens, OAuth grants' records (oidc-provider's storage), embeds"],
      ["server/4-credits/", "the balance and its ledger, changed together; usage read from the ledger"],
      ["server/4-webhooks/", "an organization's webhook endpoints and their deliveries"],
      ["server/4-following/", "who follows which market, notifications, the inbox, the weekly summary, e-mails owed"],
      ["server/4-billing/", "credit packs bought through Stripe, disputes, automatic top-up"],
    ],
  },
  {
    name: "start-up",
    rooms: [
      ["server/5-startup/", "what is decided once at start: the public origin, billing, the dev outbox, the seed"],
      ["server/5-database/", "the app's database handle: open, migrate, seed the demo"],
      ["server/5-http-server/", "the HTTP server npm start runs: /v1 and /mcp directly, health, the Fetch bridge"],
    ],
  },
  // Mail sits with auth: sign-in links are mail, and its unsubscribe links are signed with the auth secret.
  {
    name: "auth",
    rooms: [
      ["server/6-auth/", "callers: bearer tokens, OAuth access tokens, sessions, sealed secrets"],
      ["server/6-mail/", "transport and dev outbox, notification mail, signed unsubscribe links"],
    ],
  },
  {
    name: "procedures",
    rooms: [
      ["server/7-procedures/", "tRPC: each operation declared once (operations/); auth, scopes, limits, credits"],
      [
        "server/7-routers/",
        "the routers of the API and the dashboard, by area, joined in root.ts; a procedure invoked by path",
      ],
    ],
  },
  {
    name: "surfaces",
    rooms: [
      ["server/8-rest/", "/v1: dispatch, the door, answers"],
      ["server/8-mcp/", "/mcp: the edge, tools, results, the SDK server"],
      ["server/8-oauth/", "the OAuth server (oidc-provider), ID-JAG"],
      ["server/8-dashboard/", "the dashboard's caller and its procedures"],
      ["server/8-cli/", "the operator's command line"],
      ["server/8-jobs/", "background jobs on the queue: notifications, mail, webhook deliveries, top-ups"],
      ["server/8-embeds/", "public embed links: chart, page, serving"],
      ["components/", "React: the dashboard's pieces and the MCP views"],
    ],
  },
  // The routing table: which API path each surface's Node entry answers (server/9-routing/api-routes.ts).
  // It sits above the surfaces it routes to, and below the entry points that serve it.
  { name: "routing", rooms: [["server/9-routing/", "which API path each surface's Node entry answers"]] },
  {
    name: "routes and entry points",
    rooms: [
      ["app/", "Next.js routes only"],
      ["proxy.ts", "Next's proxy"],
      ["instrumentation.ts", "what starts with the server"],
      ["scripts/", "npm scripts' entry points"],
    ],
  },
].map((layer) => ({
  ...layer,
  paths: layer.rooms.map(([room]) => `^${room.replace(/\./g, "\\.")}${room.endsWith("/") ? "" : "$"}`),
}));

const upward = LAYERS.flatMap((layer, index) =>
  LAYERS.slice(index + 1).map((above) => ({
    name: `${layer.name} imports ${above.name}`,
    comment: `The ${layer.name} layer may only import itself and the layers below it.`,
    severity: "error",
    from: { path: layer.paths },
    to: { path: above.paths },
  })),
);

const SURFACES = "^server/8-(rest|mcp|oauth|dashboard|cli|jobs|embeds)/";

module.exports = {
  forbidden: [
    ...upward,
    {
      name: "surface imports another surface",
      comment: "REST, MCP, OAuth, the dashboard and the CLI share what lies below them, never each other.",
      severity: "error",
      from: { path: SURFACES },
      to: { path: SURFACES, pathNot: "^server/8-$1/" },
    },
    {
      name: "server imports components",
      comment:
        "server/ holds no React: what both draw (the charts' transforms) lives in server/2-charts, and components import it.",
      severity: "error",
      from: { path: "^server/" },
      to: { path: "^components/" },
    },
    {
      name: "db imports server code",
      comment:
        "db/ sits below every room of server/ and takes nothing from it, not even a type: the schema's JSON columns name their shapes in db/stored-shapes.ts and the room that writes them declares what they are (declaration merging). The metrics listen to db/ through db/cache-lookups.ts.",
      severity: "error",
      from: { path: "^db/" },
      to: { path: "^server/" },
    },
    {
      name: "components import a surface other than the dashboard",
      severity: "error",
      from: { path: "^components/" },
      to: { path: "^server/8-(rest|mcp|oauth|cli|embeds)/" },
    },
    {
      name: "pure layer does I/O",
      comment:
        "Domain, scoring, readings, formats and HTTP shapes are pure: no files, network, processes or database. Dialling lives in server/3-outbound/, serving Node responses in server/5-http-server/.",
      severity: "error",
      from: {
        path: [
          "^server/1-domain/",
          "^server/1-errors/",
          "^server/2-scoring/",
          "^server/2-readings/",
          "^server/2-comparisons/",
          "^server/2-notifications/",
          "^server/2-formats/",
          "^server/2-http/",
          "^server/2-charts/",
          // The embed's chart and page: data in, text out (server/8-embeds/serve.ts serves them).
          "^server/8-embeds/(chart|page)\\.ts$",
        ],
      },
      to: {
        // A type (IncomingMessage) describes I/O without doing any.
        dependencyTypesNot: ["type-only"],
        path: [
          "^(node:)?(fs|fs/promises|net|http|https|child_process|dgram|dns|tls|worker_threads)$",
          "^postgres$",
          "^drizzle-orm",
          "^@electric-sql/",
          "^ioredis$",
          "^nodemailer$",
        ],
      },
    },
    {
      name: "no-circular",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["^node_modules", "^\\.next", "^tests/", "^artifacts/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};

// The layers, for the generated map in docs/development.md (npm run docs:layers): not a
// dependency-cruiser option, so not enumerable (its configuration is checked against a schema).
Object.defineProperty(module.exports, "layers", { value: LAYERS, enumerable: false });
