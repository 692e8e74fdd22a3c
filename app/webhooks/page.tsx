import type { Metadata } from "next";
import { WebhookManager } from "@/components/account/webhook-manager";
import { byCountryName } from "@/components/format";
import { WEBHOOKS_PATH } from "@/server/2-http/paths";
import { dashboardCaller } from "@/server/8-dashboard/caller";
import { requireOrganization } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "Webhooks" };
export const dynamic = "force-dynamic";

export default async function WebhooksPage() {
  const { organization } = await requireOrganization(WEBHOOKS_PATH);
  const caller = await dashboardCaller();
  const [markets, { geographies }] = await Promise.all([caller.markets.browse(), caller.geographies.list({})]);
  return (
    <main>
      <h1>Webhooks</h1>
      <p>
        Endpoints of <strong>{organization.name}</strong> receive releases, archivings and changes under your countries
        as signed HTTP POSTs, following the Standard Webhooks specification: verify each with the endpoint&apos;s secret
        (npm <code>standardwebhooks</code>: <code>new Webhook(secret).verify(rawBody, headers)</code>) and skip a{" "}
        <code>webhook-id</code> you have already processed. Failed deliveries are retried with backoff; an endpoint that
        keeps failing is disabled and its owners are e-mailed.
      </p>
      <WebhookManager
        markets={markets.markets.map((m) => ({ value: m.marketId, label: m.name }))}
        countries={byCountryName<{ country: string; name: string }>(geographies).map((g) => ({
          value: g.country,
          label: g.name,
        }))}
      />
    </main>
  );
}
