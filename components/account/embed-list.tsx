"use client";
/** The active organization's embeds: what each shows, its views, the releases paid for; revoke. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TableWrap } from "@/components/ui/table-wrap";
import { count, utcMinute } from "../format";
import { useTRPC } from "../trpc";
import { AccountList } from "./account-list";

export function EmbedList({ origin }: { origin: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const embeds = useQuery(trpc.embeds.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.embeds.list.queryKey() });
  const revoke = useMutation(trpc.embeds.revoke.mutationOptions({ onSuccess: refresh }));
  return (
    <AccountList
      items={embeds.data}
      pending={embeds.isPending}
      errors={[embeds.error, revoke.error]}
      empty="No embeds yet. Open a market's reading and choose Embed beside its figure."
    >
      {(items) => (
        <TableWrap label="Embeds">
          <table data-testid="embed-list">
            <thead>
              <tr>
                <th scope="col">Embed</th>
                <th scope="col">Reading</th>
                <th scope="col">Market</th>
                <th scope="col">Country</th>
                <th scope="col">Release</th>
                <th scope="col">Allowed origins</th>
                <th scope="col" className="numeric">
                  Views
                </th>
                <th scope="col">Releases paid</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {items.map((e) => (
                <tr key={e.id} data-embed={e.id}>
                  <td>{e.revokedAt ? e.id : <a href={`${origin}/embed/${e.id}`}>{e.id}</a>}</td>
                  <td>
                    {e.reading} ({e.view}, {e.theme})
                  </td>
                  <td>{e.marketId}</td>
                  <td>{e.country ?? "–"}</td>
                  <td>{e.release === null ? "latest" : e.release}</td>
                  <td>{e.allowedOrigins.length ? e.allowedOrigins.join(" ") : "none (not frameable)"}</td>
                  <td className="numeric" data-testid="embed-views">
                    {count(e.views)}
                  </td>
                  <td>{e.chargedReleases.join(", ") || "–"}</td>
                  <td>{utcMinute(e.createdAt)}</td>
                  <td>
                    {e.revokedAt ? (
                      `Revoked ${utcMinute(e.revokedAt)}`
                    ) : (
                      <button
                        type="button"
                        disabled={revoke.isPending}
                        onClick={() => revoke.mutate({ embedId: e.id })}
                        aria-label={`Revoke ${e.id}`}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </AccountList>
  );
}
