import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The database drivers stay plain Node modules, never bundled: PGlite's wasm and data files
  // are loaded from node_modules at run time and are never served as public assets. pino and
  // prom-client too: one copy each per process, whatever bundle loads them (pino writes to stdout
  // synchronously, without transports or worker threads). rate-limiter-flexible loads its Drizzle
  // store's operators by a dynamic import a bundle cannot follow. piscina starts its threads from its
  // own dist/worker.js, which a bundle does not carry.
  serverExternalPackages: [
    "piscina",
    "@electric-sql/pglite",
    "postgres",
    "proper-lockfile",
    "oidc-provider",
    "pg-boss",
    "pg",
    "rate-limiter-flexible",
    "pino",
    "prom-client",
  ],
  poweredByHeader: false,
  // The App Router does not route dot folders: OAuth discovery lives under /api/well-known.
  async rewrites() {
    return [{ source: "/.well-known/:path*", destination: "/api/well-known/:path*" }];
  },
  reactStrictMode: true,
  // Migrations and demo data are read from the project folder at run time.
  outputFileTracingIncludes: {
    "/*": ["./db/migrations/**/*", "./db/demo/**/*"],
    "/mcp": ["./.mcp-views/**/*"],
    "/docs/api/scalar.js": ["./node_modules/@scalar/api-reference/dist/browser/standalone.js"],
    // The public guides served as Markdown (server/2-formats/agent-docs.ts lists which).
    "/docs/[document]": ["./docs/*.md"],
  },
};

export default nextConfig;
