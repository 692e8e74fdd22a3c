/**
 * Settings that let the service make requests to loopback and private addresses, for tests that
 * serve their side from this machine: CIMD_ALLOW_PRIVATE_HOSTS (the authorization server fetching
 * client metadata documents) and WEBHOOK_ALLOW_PRIVATE_HOSTS (webhook deliveries, and plain http
 * endpoints) and IDP_ALLOW_PRIVATE_HOSTS (an organization's identity provider). Anywhere else either would let anyone make the server reach into its own network,
 * so production refuses to start with one. Decided once at start, like the dev outbox, before
 * NODE_ENV is defaulted.
 */
import { isProduction } from "./dev-outbox";

export interface PrivateHostsDecision {
  allowed: boolean;
  warning?: string;
  refusal?: string;
}

/** What each setting lets the service reach, in the words of its warning and refusal. */
const REACHES = {
  CIMD_ALLOW_PRIVATE_HOSTS: "client metadata documents would be fetched from",
  WEBHOOK_ALLOW_PRIVATE_HOSTS: "webhooks would be delivered to",
  IDP_ALLOW_PRIVATE_HOSTS: "identity providers (their discovery, keys and token endpoints) would be reached at",
} as const;

/** Every such setting, as scripts/serve.ts checks them at start. */
export const PRIVATE_HOSTS_SETTINGS = Object.keys(REACHES) as PrivateHostsSetting[];

export type PrivateHostsSetting = keyof typeof REACHES;

export function decidePrivateHosts(
  env: NodeJS.ProcessEnv,
  name: PrivateHostsSetting = "CIMD_ALLOW_PRIVATE_HOSTS",
): PrivateHostsDecision {
  const setting = env[name] ?? "";
  if (setting === "" || setting === "0") return { allowed: false };
  if (setting !== "1") return { allowed: false, refusal: `${name} must be 1 or 0, not "${setting}".` };
  if (isProduction(env))
    return {
      allowed: false,
      refusal: `${name}=1 in production: ${REACHES[name]} private and loopback addresses. It is for tests on one machine only.`,
    };
  return {
    allowed: true,
    warning: `${name}=1: ${REACHES[name].replace(" would be ", " may be ")} private and loopback addresses (tests only).`,
  };
}
