/**
 * Credit packs (docs/billing.md) are decided at start, like the public origin: a bad CREDIT_PACKS
 * or, in production, a Stripe key without its webhook secret stops the server with the reason.
 */
import { billingRefusal } from "../4-billing/config";
import { isProduction } from "./dev-outbox";

/** Exits 1 with the reason when the billing settings are wrong. */
export function billingOrExit(env: NodeJS.ProcessEnv = process.env): void {
  const refusal = billingRefusal(env, isProduction(env));
  if (!refusal) return;
  console.error(`[start] not starting. ${refusal}`);
  process.exit(1);
}
