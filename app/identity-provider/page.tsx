import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { IdentityProviderManager } from "@/components/account/identity-provider-manager";
import { requireOrganization } from "@/server/dashboard/guards";
import { can } from "@/server/domain/roles";
import { IDENTITY_PROVIDER_PATH, MEMBERS_PATH } from "@/server/http/paths";

export const metadata: Metadata = { title: "Identity provider" };
export const dynamic = "force-dynamic";

/** The organization's own sign-in (docs/enterprise.md): owners only (sso.manage). */
export default async function IdentityProviderPage() {
  const { organization } = await requireOrganization(IDENTITY_PROVIDER_PATH);
  if (!can(organization.role, "sso.manage")) redirect(MEMBERS_PATH);
  return (
    <main>
      <h1>Identity provider</h1>
      <p>
        Sign the people of <strong>{organization.name}</strong> in to the dashboard through your own OpenID Connect
        identity provider: they type their e-mail address, sign in at your identity provider and join with the role you
        choose. When it says someone is gone, they are removed here at their next sign-in or within minutes of using the
        dashboard. The operator&apos;s guide is <code>docs/enterprise.md</code>.
      </p>
      <IdentityProviderManager />
    </main>
  );
}
