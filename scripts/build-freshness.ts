/**
 * Whether a tree's build (.next and the MCP views) is newer than every source it was built from:
 * `npm start` builds when it is not, and the paired bench (tests/bench/paired.ts) builds the
 * current tree before its rounds on the same rule.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { VIEW_OUTPUT } from "./build-mcp-views";

const SOURCES = [
  "app",
  "server",
  "db",
  "components",
  "instrumentation.ts",
  "next.config.ts",
  "package-lock.json",
  "tsconfig.json",
];
const BUILT_FROM = /\.(tsx?|css|json|html)$/;

function newestSourceTime(root: string, entry: string): number {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return BUILT_FROM.test(entry) ? stat.mtimeMs : 0;
  return readdirSync(full).reduce(
    (newest, name) => Math.max(newest, newestSourceTime(root, path.join(entry, name))),
    0,
  );
}

/** True when `root` (the repository folder) has a build and no source is newer than it. */
export function buildIsCurrent(root: string): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return false;
  const builtAt = statSync(buildId).mtimeMs;
  if (!existsSync(VIEW_OUTPUT)) return false;
  return SOURCES.every((entry) => newestSourceTime(root, entry) <= builtAt);
}
