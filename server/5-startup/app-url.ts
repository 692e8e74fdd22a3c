/**
 * The public origin is the operator's to decide (server/2-http/origin.ts). In production every link
 * the service writes — sign-in links above all — must name it, so a deployment without APP_URL
 * (or with one that is no origin) does not start. Decided once at start, like the dev outbox.
 */
import { parseAppUrl } from "../2-http/origin";
import { isProduction } from "./dev-outbox";

export function appUrlRefusal(env: NodeJS.ProcessEnv): string | null {
  const { origin, problem } = parseAppUrl(env.APP_URL);
  if (problem) return `${problem}.`;
  if (!origin && isProduction(env))
    return [
      "No APP_URL in production (NODE_ENV=production):",
      "links in sign-in mail, OAuth metadata and problem documents must name the service's public",
      "origin, never the Host a client sent. Set APP_URL to it, e.g. APP_URL=https://api.example.com.",
    ].join("\n");
  return null;
}

/** Exits 1 with the reason when the server must not start for want of a public origin. */
export function appUrlOrExit(env: NodeJS.ProcessEnv = process.env): void {
  const refusal = appUrlRefusal(env);
  if (!refusal) return;
  console.error(`[start] not starting. ${refusal}`);
  process.exit(1);
}
