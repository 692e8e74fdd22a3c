"use client";
/** The MCP clients connected through OAuth as the signed-in person, each revocable. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TableWrap } from "@/components/ui/table-wrap";
import { utcMinute } from "../format";
import { useTRPC } from "../trpc";
import { AccountList } from "./account-list";

export function ConnectionList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const connections = useQuery(trpc.connections.list.queryOptions());
  const revoke = useMutation(
    trpc.connections.revoke.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.connections.list.queryKey() }),
    }),
  );
  return (
    <section aria-labelledby="connections">
      <h2 id="connections">Connected clients</h2>
      <AccountList
        items={connections.data}
        pending={connections.isPending}
        errors={[connections.error, revoke.error]}
        empty="No MCP client is connected through sign-in yet. Add the server URL to a client and it will ask you here."
      >
        {(list) => (
          <TableWrap label="Connected MCP clients">
            <table>
              <thead>
                <tr>
                  <th scope="col">Client</th>
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
