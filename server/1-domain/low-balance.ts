/**
 * The low-balance warning's one rule (docs/accounts.md, "Low-balance warning"): an organization
 * sets a threshold in whole credits, 0 to 1,000,000,000 (0: off); its balance is low when it is
 * at or below a threshold above 0. The header's warning reads `isLowBalance`; the e-mail is owed by
 * the debit that crosses from above to at or below, judged inside the debit's own statement
 * (db/migrations/0013_low_balance_warning.sql) with the same comparison.
 */
export const LOW_BALANCE_THRESHOLD_MAX = 1_000_000_000;
/** A new organization's threshold (the column's default). */
export const LOW_BALANCE_THRESHOLD_DEFAULT = 100;

export function isLowBalance(balance: number, threshold: number): boolean {
  return threshold > 0 && balance <= threshold;
}
