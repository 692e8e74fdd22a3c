"use client";
/**
 * The active organization's embeds: what each shows (market, reading, country and release by
 * name), where it may be shown, its views, the releases paid for; revoke, asked first (it is for
 * good). A table at full width, one labelled card per embed on a phone.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ConfirmButton } from "@/components/ui/confirm-button";
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
          <table data-testid="embed-list" className="embed-list">
            <thead>
              <tr>
                <th scope="col">Chart</th>
                <th scope="col">Country</th>
                <th scope="col">Release</th>
                <th scope="col">Shown on</th>
                <th scope="col" className="num">
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
                  <th scope="row">
                    {e.revokedAt ? (
                      `${e.readingTitle} of ${e.marketName}`
                    ) : (
                      <a href={`${origin}/embed/${e.id}`} title={e.summary}>
                        {e.readingTitle} of {e.marketName}
                      </a>
                    )}
                    <span className="hint embed-id">
                      {" "}
                      {e.view}, {e.theme === "auto" ? "follows the reader's scheme" : e.theme} · {e.id}
                    </span>
                  </th>
                  <td data-label="Country">{e.countryName ? `${e.countryName} (${e.country})` : "–"}</td>
                  <td data-label="Release">{e.release === null ? "latest" : e.release}</td>
                  <td data-label="Shown on" className="embed-origins">
                    {e.allowedOrigins.length ? e.allowedOrigins.join(" ") : "any site"}
                  </td>
                  <td data-label="Views" className="num" data-testid="embed-views">
                    {count(e.views)}
                  </td>
                  <td data-label="Releases paid">{e.chargedReleases.join(", ") || "–"}</td>
                  <td data-label="Created">{utcMinute(e.createdAt)}</td>
                  <td data-label="State">
                    {e.revokedAt ? (
                      `Revoked ${utcMinute(e.revokedAt)}`
                    ) : (
                      <ConfirmButton
                        label="Revoke"
                        accessibleLabel={`Revoke ${e.readingTitle} of ${e.marketName} (${e.id})`}
                        question="Revoke for good? The chart stops showing everywhere it is pasted."
                        confirmLabel="Revoke for good"
                        disabled={revoke.isPending}
                        onConfirm={() => revoke.mutate({ embedId: e.id })}
                      />
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
