import type { Metadata } from "next";
import { CreditsView } from "@/components/account/credits-view";
import { requireOrganization } from "@/server/dashboard/guards";
import { CREDITS_PATH } from "@/server/http/paths";

export const metadata: Metadata = { title: "Credits" };
export const dynamic = "force-dynamic";

export default async function CreditsPage() {
  const { organization } = await requireOrganization(CREDITS_PATH);
  return (
    <main>
      <h1>Credits</h1>
      <p>
        Credits of <strong>{organization.name}</strong>.
      </p>
      <CreditsView />
    </main>
  );
}
