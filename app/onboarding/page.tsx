import type { Metadata } from "next";
import { OnboardingForm } from "@/components/onboarding-form";
import { dashboardCaller } from "@/server/dashboard/caller";
import { requireUser, safeReturnPath } from "@/server/dashboard/guards";
import { ONBOARDING_PATH, TOKENS_PATH } from "@/server/http/paths";

export const metadata: Metadata = { title: "Create an organization" };
export const dynamic = "force-dynamic";

export default async function OnboardingPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const returnTo = safeReturnPath((await searchParams).returnTo) ?? TOKENS_PATH;
  await requireUser(`${ONBOARDING_PATH}?returnTo=${encodeURIComponent(returnTo)}`);
  const { organizations: existing } = await (await dashboardCaller()).organizations.list();
  return (
    <main className="narrow">
      <h1>Create an organization</h1>
      <p>
        API tokens, credits and MCP connections belong to an organization. You will be its owner.
        {existing.length > 0 ? ` You already belong to ${existing.length}; this adds another.` : ""}
      </p>
      <OnboardingForm returnTo={returnTo} />
    </main>
  );
}
