/**
 * The app's one secret, AUTH_SECRET: it signs next-auth's cookies, hashes e-mail sign-in tokens, and
 * keys unsubscribe links, OAuth cookies and MCP receipts (its own room, below auth and mail, which
 * both use it). When unset (the quick
 * start), one is generated on first start and kept in the data folder, so sessions survive
 * restarts without any configuration. Deployments with several instances must set AUTH_SECRET.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataFolder } from "../../db/client";
import { log } from "../3-observability/logger";

let cached: string | undefined;

export function appSecret(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  if (cached) return cached;
  const file = path.join(dataFolder(env), "auth-secret");
  try {
    cached = readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(path.dirname(file), { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      // "wx": if another process wrote it first, keep theirs.
      writeFileSync(file, `${secret}\n`, { flag: "wx", mode: 0o600 });
      log().info({ file }, "auth: generated AUTH_SECRET");
    } catch (raced) {
      if ((raced as NodeJS.ErrnoException).code !== "EEXIST") throw raced;
    }
    cached = readFileSync(file, "utf8").trim();
  }
  return cached;
}
