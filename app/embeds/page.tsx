import type { Metadata } from "next";
import { headers } from "next/headers";
import { EmbedList } from "@/components/account/embed-list";
import { publicOriginOf } from "@/server/2-http/origin";
import { EMBEDS_PATH } from "@/server/2-http/paths";
import { requireOrganization } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "Embeds" };
export const dynamic = "force-dynamic";

export default async function EmbedsPage() {
  const { organization } = await requireOrganization(EMBEDS_PATH);
  const origin = publicOriginOf(await headers());
  return (
    <main>
      <h1>Embeds</h1>
      <p>
        Charts of <strong>{organization.name}</strong> that others can frame, cite and paste: each is paid for once per
        release it shows (the reading&apos;s price); views are free. Any site may frame an embed unless it lists the
        sites allowed. A revoked embed stops answering at once, for good.
      </p>
      <EmbedList origin={origin} />
    </main>
  );
}
