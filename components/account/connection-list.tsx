"use client";
/**
 * MCP clients connected through OAuth, each revocable: the signed-in person's own (`scope:
 * "mine"`), or every connection of the active organization with the person it acts as (`scope:
 * "organization"`, for those who manage them all).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TableWrap } from "@/components/ui/table-wrap";
import { utcMinute } from "../format";
import { useTRPC } from "../trpc";
import { AccountList } from "./account-list";

export function ConnectionList({ scope = "mine" }: { scope?: "mine" | "organization" }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const everyone = scope === "organization";
  const connections = useQuery(
    everyone ? trpc.connections.organizationList.queryOptions() : trpc.connections.list.queryOptions(),
  );
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.connections.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.connections.organizationList.queryKey() }),
    ]);
  const revokeMine = useMutation(trpc.connections.revoke.mutationOptions({ onSuccess: refresh }));
  const revokeAny = useMutation(trpc.connections.revokeInOrganization.mutationOptions({ onSuccess: refresh }));
  const revoke = everyone ? revokeAny : revokeMine;
  const id = everyone ? "organization-connections" : "connections";
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{everyone ? "Everyone's connections in this organization" : "Your connected clients"}</h2>
      <AccountList
        items={connections.data}
        pending={connections.isPending}
        errors={[connections.error, revoke.error]}
        empty={
          everyone
            ? "No MCP client acts for this organization yet."
            : "No MCP client is connected through sign-in yet. Add the server URL to a client and it will ask you here."
        }
      >
        {(list) => (
          <TableWrap label={everyone ? "MCP clients acting for this organization" : "Your connected MCP clients"}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Client</th>
                  <th scope="col">{everyone ? "Acts as" : "Acts for"}</th>
                  <th scope="col">Access</th>
                  <th scope="col">Connected</th>
                  <th scope="col">Lapses if unused</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((connection) => (
                  <tr key={connection.grantId} data-testid="connection-row" data-grant-id={connection.grantId}>
                    <td data-label="Client">
                      {connection.clientName}
                      <br />
                      <small>
                        {connection.vouchedForBy ? (
                          <>
                            vouched for by <strong>{connection.vouchedForBy}</strong>
                          </>
                        ) : (
                          "registered itself"
                        )}
                      </small>
                    </td>
                    <td data-label={everyone ? "Acts as" : "Acts for"}>
                      {everyone
                        ? (connection.userEmail ?? connection.userId)
                        : (connection.organizationName ?? "your active organization")}
                    </td>
                    <td data-label="Access">
                      {connection.scopes.includes("Market.Read.All") ? "Market data" : "Lists only"}
                    </td>
                    <td data-label="Connected">{utcMinute(connection.connectedAt) ?? "never"}</td>
                    <td data-label="Lapses if unused">{utcMinute(connection.expiresAt) ?? "never"}</td>
                    <td>
                      <button
                        type="button"
                        className="danger"
                        disabled={revoke.isPending}
                        onClick={() => {
                          // Destructive for the client: it must sign in again to reconnect. Asked first.
                          if (
                            window.confirm(
                              `Disconnect "${connection.clientName}"? It loses access at once and must be connected again.`,
                            )
                          )
                            revoke.mutate({ grantId: connection.grantId });
                        }}
                      >
                        Revoke<span className="sr-only"> {connection.clientName}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </AccountList>
    </section>
  );
}
