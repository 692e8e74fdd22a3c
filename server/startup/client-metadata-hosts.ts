/**
 * CIMD_ALLOW_PRIVATE_HOSTS=1 lets the authorization server fetch client metadata documents from
 * loopback and private addresses: tests serve them from this machine. Anywhere else it would let
 * anyone make the server fetch from its own network, so production refuses to start with it.
 * Decided once at start, like the dev outbox, before NODE_ENV is defaulted.
 */
import { isProduction } from "./dev-outbox";

export interface PrivateHostsDecision {
  allowed: boolean;
  warning?: string;
  refusal?: string;
}

export function decidePrivateHosts(env: NodeJS.ProcessEnv): PrivateHostsDecision {
  const setting = env.CIMD_ALLOW_PRIVATE_HOSTS ?? "";
  if (setting === "" || setting === "0") return { allowed: false };
  if (setting !== "1") return { allowed: false, refusal: `CIMD_ALLOW_PRIVATE_HOSTS must be 1 or 0, not "${setting}".` };
  if (isProduction(env))
    return {
      allowed: false,
      refusal:
        "CIMD_ALLOW_PRIVATE_HOSTS=1 in production: client metadata documents would be fetched from private and loopback addresses. It is for tests on one machine only.",
    };
  return {
    allowed: true,
    warning:
      "CIMD_ALLOW_PRIVATE_HOSTS=1: client metadata documents may be fetched from private and loopback addresses (tests only).",
  };
}
