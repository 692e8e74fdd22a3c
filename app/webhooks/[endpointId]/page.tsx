import type { Metadata } from "next";
import Link from "next/link";
import { WebhookDeliveries } from "@/components/account/webhook-deliveries";
import { WEBHOOKS_PATH } from "@/server/2-http/paths";
import { requireOrganization } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "Webhook deliveries" };
export const dynamic = "force-dynamic";

export default async function WebhookDeliveriesPage({ params }: { params: Promise<{ endpointId: string }> }) {
  const { endpointId } = await params;
  await requireOrganization(`${WEBHOOKS_PATH}/${encodeURIComponent(endpointId)}`);
  return (
    <main>
      <p>
        <Link href={WEBHOOKS_PATH}>← Webhooks</Link>
      </p>
      <h1>Deliveries</h1>
      <WebhookDeliveries endpointId={endpointId} />
    </main>
  );
}
