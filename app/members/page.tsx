import type { Metadata } from "next";
import { MembersManager } from "@/components/account/members-manager";
import { OrganizationSettings } from "@/components/account/organization-settings";
import { can } from "@/server/1-domain/roles";
import { MEMBERS_PATH } from "@/server/2-http/paths";
import { requireOrganization } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "Members" };
export const dynamic = "force-dynamic";

export default async function MembersPage() {
  const { organization } = await requireOrganization(MEMBERS_PATH);
  return (
    <main>
      <h1>Members</h1>
      <p>
        The people of <strong>{organization.name}</strong> and what each may do: owners everything, admins members,
        tokens, webhooks and settings, members the markets and their own tokens, billing the credits.
      </p>
      <MembersManager organizationName={organization.name} />
      <OrganizationSettings
        name={organization.name}
        homeCountry={organization.homeCountry}
        balance={organization.creditBalance}
        canChange={can(organization.role, "organization.settings")}
        canDelete={can(organization.role, "organization.delete")}
      />
    </main>
  );
}
