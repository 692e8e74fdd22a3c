import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The database drivers stay plain Node modules, never bundled: PGlite's wasm and data files
  // are loaded from node_modules at run time and are never served as public assets.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "proper-lockfile", "oidc-provider"],
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
  },
};

export default nextConfig;
