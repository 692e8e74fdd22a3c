import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { requireOrganization } from "@/server/dashboard/guards";
import { MCP_PATH } from "@/server/mcp/handler";
import { CONNECT_PATH, TOKENS_PATH } from "@/server/paths";
import { publicOrigin } from "@/server/rest/handler";

export const metadata: Metadata = { title: "Connect an MCP client" };
export const dynamic = "force-dynamic";

/** Ready-to-paste set-ups for common MCP clients, each with the server URL and a token header. */
function configurations(url: string): { client: string; where: string; text: string }[] {
  const header = "Authorization: Bearer $MPS_TOKEN";
  return [
    {
      client: "Claude Code",
      where: "in a terminal",
      text: `claude mcp add --transport http market-positioning ${url} --header "${header}"`,
    },
    {
      client: "VS Code",
      where: ".vscode/mcp.json",
      text: JSON.stringify(
        {
          inputs: [
            { type: "promptString", id: "mps-token", description: "Market Positioning API token", password: true },
          ],
          servers: {
            "market-positioning": {
              type: "http",
              url,
              // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's own input variable syntax
              headers: { Authorization: "Bearer ${input:mps-token}" },
            },
          },
        },
        null,
        2,
      ),
    },
    {
      client: "Cursor",
      where: "~/.cursor/mcp.json",
      text: JSON.stringify(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Cursor's own environment variable syntax
        { mcpServers: { "market-positioning": { url, headers: { Authorization: "Bearer ${env:MPS_TOKEN}" } } } },
        null,
        2,
      ),
    },
    {
      client: "MCP Inspector",
      where: "in a terminal",
      text: `npx @modelcontextprotocol/inspector --cli ${url} --transport http \\\n  --header "${header}" --method tools/list`,
    },
  ];
}

export default async function ConnectPage() {
  const { organization } = await requireOrganization(CONNECT_PATH);
  const url = `${publicOrigin(new Request("http://localhost/", { headers: await headers() }))}${MCP_PATH}`;
  return (
    <main>
      <h1>Connect an MCP client</h1>
      <p>
        The MCP server offers the same data as the REST API — markets, geographies, snapshots, the Capability Index, Max
        and Delta readings — as six tools, billed to <strong>{organization.name}</strong> at the same prices.
      </p>
      <p>
        Server URL: <code data-testid="mcp-url">{url}</code> (Streamable HTTP). Authenticate with an{" "}
        <Link href={TOKENS_PATH}>API token</Link> that has the scope <code>Market.Read.All</code>; set it as{" "}
        <code>MPS_TOKEN</code> in the examples below.
      </p>
      {configurations(url).map(({ client, where, text }) => (
        <section key={client} aria-labelledby={`client-${client}`}>
          <h2 id={`client-${client}`}>
            {client} <span className="hint">({where})</span>
          </h2>
          <pre>
            <code data-testid="client-config">{text}</code>
          </pre>
        </section>
      ))}
    </main>
  );
}
