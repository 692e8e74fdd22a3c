import type { Metadata } from "next";
import { headers } from "next/headers";
import { TokenManager } from "@/components/account/token-manager";
import { publicOriginOf } from "@/server/2-http/origin";
import { TOKENS_PATH } from "@/server/2-http/paths";
import { requireOrganization } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "API tokens" };
export const dynamic = "force-dynamic";

export default async function TokensPage() {
  const { organization } = await requireOrganization(TOKENS_PATH);
  const origin = publicOriginOf(await headers());
  return (
    <main>
      <h1>API tokens</h1>
      <p>
        Tokens of <strong>{organization.name}</strong> call the REST API and MCP server. Readings are billed to this
        organization&apos;s credits.
      </p>
      <TokenManager origin={origin} />
    </main>
  );
}
