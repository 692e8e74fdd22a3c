/**
 * The operator CLI in the audit trail (docs/accounts.md, "Audit trail"): every change it makes is
 * recorded as the operator, in the change's own transaction.
 */
import type { Database } from "../../db/client";
import type { AuditActor, AuditChange } from "../1-domain/audit";
import { recordAuditEvent } from "../4-organizations/audit";

/**
 * Who the CLI's changes are recorded as in the audit trail: the operator, named by the account
 * that ran the command (the CLI has no client address or user agent).
 */
export function operatorActor(env: NodeJS.ProcessEnv = process.env): AuditActor {
  const user = env.SUDO_USER || env.USER || env.LOGNAME;
  return { kind: "operator", label: user ? `operator:${user}` : "operator CLI" };
}

/** Runs `change` and records it in one transaction: the event exists exactly when the change does. */
export function audited<T>(
  db: Database,
  change: (tx: Database) => Promise<T>,
  event: (result: T) => { organizationId: string } & AuditChange,
): Promise<T> {
  return db.transaction(async (tx) => {
    const result = await change(tx as unknown as Database);
    const { organizationId, ...what } = event(result);
    await recordAuditEvent(tx, organizationId, operatorActor(), what);
    return result;
  });
}
