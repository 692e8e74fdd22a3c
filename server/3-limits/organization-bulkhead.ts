/** This process's bulkhead of metered calls per organization (on globalThis: Next may load this module in several bundles). */
import { Bulkhead } from "./bulkhead";
import { requestLimits } from "./request-limits";

const state = globalThis as typeof globalThis & { __mpsOrganizationBulkhead?: Bulkhead };

export function organizationBulkhead(): Bulkhead {
  const limits = requestLimits();
  state.__mpsOrganizationBulkhead ??= new Bulkhead(limits.orgMaxInFlight, limits.orgMaxQueued);
  return state.__mpsOrganizationBulkhead;
}
