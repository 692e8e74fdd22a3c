import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { ConnectionList } from "@/components/account/connection-list";
import { can } from "@/server/1-domain/roles";
import { publicOriginOf } from "@/server/2-http/origin";
import { CONNECT_PATH, MCP_PATH, ONBOARDING_PATH, TOKENS_PATH } from "@/server/2-http/paths";
import { dashboardCaller } from "@/server/8-dashboard/caller";
import { requireUser } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "Connect an MCP client" };
export const dynamic = "force-dynamic";

/**
 * Ready-to-paste set-ups for common MCP clients. Clients that speak MCP authorization sign in
 * through the browser (OAuth); the API-token header is the alternative for scripts and for
 * clients that cannot.
 */
function configurations(url: string): { client: string; where: string; text: string }[] {
  const header = "Authorization: Bearer $MPS_TOKEN";
  return [
    {
      client: "Claude Code",
      where: "in a terminal; /mcp in Claude Code then signs you in",
      text: `claude mcp add --transport http market-positioning ${url}`,
    },
    {
      client: "VS Code",
      where: ".vscode/mcp.json; VS Code asks you to sign in on first use",
      text: JSON.stringify({ servers: { "market-positioning": { type: "http", url } } }, null, 2),
    },
    {
      client: "Cursor",
      where: "~/.cursor/mcp.json; Cursor offers to sign in on first use",
      text: JSON.stringify({ mcpServers: { "market-positioning": { url } } }, null, 2),
    },
    {
      client: "Claude Code with an API token",
      where: "for scripts and CI, no browser",
      text: `claude mcp add --transport http market-positioning ${url} --header "${header}"`,
    },
    {
      client: "MCP Inspector",
      where: "in a terminal, with an API token",
      text: `npx @modelcontextprotocol/inspector --cli ${url} --transport http \\\n  --header "${header}" --method tools/list`,
    },
  ];
}

export default async function ConnectPage() {
  await requireUser(CONNECT_PATH);
  const { activeId, organizations } = await (await dashboardCaller()).organizations.list();
  const organization = organizations.find((o) => o.id === activeId) ?? null;
  const url = `${publicOriginOf(await headers())}${MCP_PATH}`;
  return (
    <main>
      <h1>Connect an MCP client</h1>
      <p>
        The MCP server offers the same data as the REST API — markets, geographies, snapshots, the Capability Index, Max
        and Delta readings and the rest — as MCP tools, at the same prices
        {organization ? (
          <>
            , billed to your active organization (now <strong>{organization.name}</strong>)
          </>
        ) : null}
        .
      </p>
      {organization ? null : (
        <div className="notice" role="note">
          <p>
            You can connect a client now, but it gets data only once you belong to an organization:{" "}
            <Link href={`${ONBOARDING_PATH}?returnTo=${CONNECT_PATH}`}>create one</Link>. Connections made before then
            start working without reconnecting.
          </p>
        </div>
      )}
      <p>
        Server URL: <code data-testid="mcp-url">{url}</code> (Streamable HTTP). Clients that support MCP authorization
        open this site, you sign in and approve the connection, and they act for the organization active then (billed to
        it, within your role there) until you or an admin revoke it below, or you leave it. Others send an{" "}
        <Link href={TOKENS_PATH}>API token</Link> with the scope <code>Market.Read.All</code>; set it as{" "}
        <code>MPS_TOKEN</code> in the examples.
      </p>
      <ConnectionList />
      {organization && can(organization.role, "connections.manage_all") ? (
        <ConnectionList scope="organization" />
      ) : null}
      {configurations(url).map(({ client, where, text }) => (
        <section key={client} aria-labelledby={`client-${client.replace(/\W+/g, "-")}`}>
          <h2 id={`client-${client.replace(/\W+/g, "-")}`}>
            {client} <span className="hint">({where})</span>
          </h2>
          {/* A configuration scrolls sideways on a phone: reachable by keyboard (WCAG 2.1.1). */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable code block must be focusable */}
          <pre tabIndex={0}>
            <code data-testid="client-config">{text}</code>
          </pre>
        </section>
      ))}
    </main>
  );
}
