import type { Metadata } from "next";
import { OnboardingForm } from "@/components/account/onboarding-form";
import { credits } from "@/components/format";
import { MARKETS_PATH, ONBOARDING_PATH } from "@/server/2-http/paths";
import { dashboardCaller } from "@/server/8-dashboard/caller";
import { requireUser, safeReturnPath } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "Create an organization" };
export const dynamic = "force-dynamic";

export default async function OnboardingPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const returnTo = safeReturnPath((await searchParams).returnTo) ?? MARKETS_PATH;
  await requireUser(`${ONBOARDING_PATH}?returnTo=${encodeURIComponent(returnTo)}`);
  const { organizations: existing, next } = await (await dashboardCaller()).organizations.list();
  return (
    <main className="narrow">
      <h1>Create an organization</h1>
      <p>
        API tokens, credits and MCP connections belong to an organization. You will be its owner.
        {existing.length > 0 ? ` You already belong to ${existing.length}; this adds another.` : ""}
      </p>
      <p data-testid="onboarding-terms">
        {next.credits > 0
          ? `Your first organization starts with ${credits(next.credits)}.`
          : "Starting credits come with a person's first organization only: this one starts at 0 credits, and the operator can grant more."}
      </p>
      {next.remaining === 0 ? (
        <p role="alert" className="error">
          You have created as many organizations as one person may. Use one of yours, or ask the operator for another.
        </p>
      ) : (
        <OnboardingForm returnTo={returnTo} />
      )}
    </main>
  );
}
