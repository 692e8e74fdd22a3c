import type { Metadata } from "next";
import { AuditLog } from "@/components/account/audit-log";
import { AUDIT_ACTIONS, AUDIT_READER_ROLES } from "@/server/1-domain/audit";
import { AUDIT_PATH } from "@/server/2-http/paths";
import { requireOrganization } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "Audit trail" };
export const dynamic = "force-dynamic";

export default async function AuditPage() {
  const { organization } = await requireOrganization(AUDIT_PATH);
  const mayRead = AUDIT_READER_ROLES.includes(organization.role);
  return (
    <main>
      <h1>Audit trail</h1>
      <p>
        Every change to the tokens, webhooks, connections, credits, members and settings of{" "}
        <strong>{organization.name}</strong>: who made it, when, from where and what. Events are kept for good and
        cannot be edited or deleted. Tokens read it over the API at <code>/v1/audit-events</code>.
      </p>
      {mayRead ? (
        <AuditLog actions={AUDIT_ACTIONS} />
      ) : (
        <p data-testid="audit-not-allowed">Only owners and admins of the organization can read its audit trail.</p>
      )}
    </main>
  );
}
