/**
 * The layer graph (README "Layers"): every import runs downward. A module may import its own layer
 * and the layers below it, never a layer above; surfaces never import each other; the pure layers
 * do no I/O. `npm run lint:layers` checks it; CI runs it. A new import that breaks a rule is a
 * design question: move the shared piece down a layer rather than silencing the rule.
 */
const LAYERS = [
  { name: "domain", paths: ["^server/domain/", "^server/errors/"] },
  {
    name: "pure logic",
    paths: [
      "^server/scoring/",
      "^server/readings/",
      "^server/notifications/",
      "^server/formats/",
      "^server/http/",
      // The charts' pure transforms: the dashboard's components, the MCP views and the embeds draw from them.
      "^server/charts/",
    ],
  },
  // Observability (logs, metrics) sits with storage: it writes to stdout and db/ counts its caches.
  {
    name: "storage",
    paths: [
      "^db/",
      "^server/catalog/",
      "^server/exports/",
      "^server/limits/",
      "^server/queue/",
      "^server/observability/",
      "^server/keys/",
      "^server/outbound/",
      "^server/workers/",
    ],
  },
  // Billing (credit packs bought through Stripe) is its own room beside accounts: it writes the ledger too.
  { name: "accounts", paths: ["^server/accounts/", "^server/billing/"] },
  { name: "start-up", paths: ["^server/startup/", "^server/database/", "^server/http-server/"] },
  // Mail sits with auth: sign-in links are mail, and its unsubscribe links are signed with the auth secret.
  { name: "auth", paths: ["^server/auth/", "^server/mail/"] },
  { name: "procedures", paths: ["^server/procedures/"] },
  {
    name: "surfaces",
    paths: [
      "^server/rest/",
      "^server/mcp/",
      "^server/oauth/",
      "^server/dashboard/",
      "^server/cli/",
      "^server/jobs/",
      "^server/embeds/",
      "^components/",
    ],
  },
  // The routing table: which API path each surface's Node entry answers (server/routing/api-routes.ts).
  // It sits above the surfaces it routes to, and below the entry points that serve it.
  { name: "routing", paths: ["^server/routing/"] },
  { name: "routes and entry points", paths: ["^app/", "^proxy\\.ts$", "^instrumentation\\.ts$", "^scripts/"] },
];

const upward = LAYERS.flatMap((layer, index) =>
  LAYERS.slice(index + 1).map((above) => ({
    name: `${layer.name} imports ${above.name}`,
    comment: `The ${layer.name} layer may only import itself and the layers below it.`,
    severity: "error",
    from: { path: layer.paths },
    to: { path: above.paths },
  })),
);

const SURFACES = "^server/(rest|mcp|oauth|dashboard|cli|jobs|embeds)/";

module.exports = {
  forbidden: [
    ...upward,
    {
      name: "surface imports another surface",
      comment: "REST, MCP, OAuth, the dashboard and the CLI share what lies below them, never each other.",
      severity: "error",
      from: { path: SURFACES },
      to: { path: SURFACES, pathNot: "^server/$1/" },
    },
    {
      name: "server imports components",
      comment:
        "server/ holds no React: what both draw (the charts' transforms) lives in server/charts, and components import it.",
      severity: "error",
      from: { path: "^server/" },
      to: { path: "^components/" },
    },
    {
      name: "db imports server code",
      comment:
        "db/ is the storage layer's floor: it takes no code from server/ (the metrics listen to it: db/cache-lookups.ts). Its schema still names the domain's types for its JSON columns (type-only imports, erased at build); moving those types down is the next step.",
      severity: "error",
      from: { path: "^db/" },
      to: { path: "^server/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "components import a surface other than the dashboard",
      severity: "error",
      from: { path: "^components/" },
      to: { path: "^server/(rest|mcp|oauth|cli|embeds)/" },
    },
    {
      name: "pure layer does I/O",
      comment:
        "Domain, scoring, readings, formats and HTTP shapes are pure: no files, network, processes or database. Dialling lives in server/outbound/, serving Node responses in server/http-server/.",
      severity: "error",
      from: {
        path: [
          "^server/domain/",
          "^server/errors/",
          "^server/scoring/",
          "^server/readings/",
          "^server/notifications/",
          "^server/formats/",
          "^server/http/",
          // The embed's chart and page: data in, text out (server/embeds/serve.ts serves them).
          "^server/embeds/(chart|page)\\.ts$",
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
