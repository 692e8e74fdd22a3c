import type { Metadata } from "next";
import Link from "next/link";
import { IdentityProviderManager } from "@/components/account/identity-provider-manager";
import { can } from "@/server/1-domain/roles";
import { IDENTITY_PROVIDER_PATH, MEMBERS_PATH } from "@/server/2-http/paths";
import { requireOrganization } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "Identity provider" };
export const dynamic = "force-dynamic";

/** The organization's own sign-in (docs/enterprise.md): owners only (sso.manage). */
export default async function IdentityProviderPage() {
  const { organization } = await requireOrganization(IDENTITY_PROVIDER_PATH);
  // Said, not a silent redirect: an admin who followed a link here learns why and whom to ask.
  if (!can(organization.role, "sso.manage"))
    return (
      <main className="narrow">
        <h1>Identity provider</h1>
        <p role="alert" data-testid="identity-provider-owners-only">
          Only owners of <strong>{organization.name}</strong> can manage its identity provider (the company sign-in and
          its e-mail domains). You are {organization.role === "admin" ? "an" : "a"} {organization.role} here.
        </p>
        <p>
          Ask an owner to change it: the owners are listed on <Link href={MEMBERS_PATH}>Members</Link>.
        </p>
      </main>
    );
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
