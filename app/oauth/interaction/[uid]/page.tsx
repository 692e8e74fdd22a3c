import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { connectionRefusal } from "@/server/1-domain/roles";
import { publicOriginOf } from "@/server/2-http/origin";
import { ONBOARDING_PATH } from "@/server/2-http/paths";
import { activeOrganizationOf } from "@/server/4-organizations/organizations";
import { getDatabase } from "@/server/5-database/app-database";
import { requireUser } from "@/server/8-dashboard/guards";
import { consentRequest } from "@/server/8-oauth/consent";
import { interactionPath } from "@/server/8-oauth/provider";

export const metadata: Metadata = { title: "Connect an MCP client" };
export const dynamic = "force-dynamic";

/** The consent page of the OAuth flow: who is asking, for what, and as whom. */
export default async function ConsentPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const here = interactionPath(uid);
  const user = await requireUser(here);
  const { db } = await getDatabase();
  const origin = publicOriginOf(await headers());
  const [request, organization] = await Promise.all([
    consentRequest(db, origin, uid),
    activeOrganizationOf(db, user.id),
  ]);
  if (!request)
    return (
      <main className="narrow">
        <h1>This connection request has expired</h1>
        <p>Start the connection again from your MCP client; it will open a new request here.</p>
      </main>
    );
  // The decision refuses it too (server/8-oauth/routes.ts); the page offers no form to submit.
  const refusal = connectionRefusal(organization?.role);
  if (refusal)
    return (
      <main className="narrow">
        <h1>You cannot connect {request.clientName}</h1>
        <p role="alert">
          Your {refusal}. Ask an owner or admin of <strong>{organization?.name}</strong> for another role, or switch to
          an organization where you may connect MCP clients.
        </p>
      </main>
    );
  return (
    <main className="narrow">
      <h1>Connect {request.clientName}?</h1>
      <p>
        <strong>{request.clientName}</strong> asks to use the Market Positioning MCP server as{" "}
        <strong>{user.email ?? "you"}</strong>. After you answer, your browser returns to{" "}
        <code>{request.returnsTo}</code>.
      </p>
      {request.vouchedForBy ? (
        <p data-testid="client-identity">
          Its name and addresses are published by <strong>{request.vouchedForBy}</strong>, the site its client ID
          belongs to.
        </p>
      ) : (
        <p data-testid="client-identity">
          It registered itself with this name: nobody vouches for it. Connect it only if you started the connection from
          a client you trust.
        </p>
      )}
      <ul>
        {request.readsMarketData ? (
          <li>Read market data: snapshots and readings, billed to your organization&apos;s credits.</li>
        ) : (
          <li>List markets and geographies only: it did not ask to read market data.</li>
        )}
        {request.staysConnected ? <li>Stay connected until you revoke it on the Connect page.</li> : null}
      </ul>
      {organization ? (
        <p>
          Calls are billed to <strong>{organization.name}</strong>, your active organization now: the connection acts
          for it alone, within your role there, for as long as you belong to it. Its owners and admins can see and
          revoke it.
        </p>
      ) : (
        <div className="notice" role="note">
          <p>
            <strong>An organization is needed for data.</strong> You can connect now, but until you create an
            organization every call answers <code>organization_required</code>. The connection starts working as soon as
            the organization exists; nothing needs reconnecting.
          </p>
          <p>
            <Link href={`${ONBOARDING_PATH}?returnTo=${encodeURIComponent(here)}`}>Create an organization first</Link>{" "}
            (you come back here afterwards).
          </p>
        </div>
      )}
      <form method="post" action={`${here}/decision`} className="actions">
        <button type="submit" name="decision" value="allow">
          Allow
        </button>
        <button type="submit" name="decision" value="deny" className="secondary">
          Deny
        </button>
      </form>
    </main>
  );
}
