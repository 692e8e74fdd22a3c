"use client";
/** API tokens of the active organization: create (the secret is shown once), list, revoke. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { SecretShown } from "@/components/account/secret-shown";
import { TableWrap } from "@/components/ui/table-wrap";
import { count, utcMinute } from "../format";
import { useTRPC } from "../trpc";
import { AccountList, ProblemAlert } from "./account-list";

const SCOPE = "Market.Read.All";
const EXPIRY_CHOICES = [
  { label: "Never", days: 0 },
  { label: "7 days", days: 7 },
  { label: "30 days", days: 30 },
  { label: "90 days", days: 90 },
  { label: "1 year", days: 365 },
];

type TokenState = { revokedAt: string | Date | null; expiresAt: string | Date | null };

function status(token: TokenState): string {
  if (token.revokedAt) return "Revoked";
  if (token.expiresAt && new Date(token.expiresAt).getTime() <= Date.now()) return "Expired";
  return "Active";
}

export function TokenManager({ origin }: { origin: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.tokens.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
  const [name, setName] = useState("");
  const [withScope, setWithScope] = useState(true);
  const [days, setDays] = useState(0);
  const create = useMutation(trpc.tokens.create.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(
    trpc.tokens.revoke.mutationOptions({
      onSuccess: (_, { tokenId }) => {
        // A revoked token's secret opens nothing: it leaves the screen at once.
        if (create.data?.token.id === tokenId) create.reset();
        return refresh();
      },
    }),
  );
  const live = tokens.data?.filter((t) => status(t) === "Active") ?? [];
  const ended = tokens.data?.filter((t) => status(t) !== "Active") ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, scopes: withScope ? [SCOPE] : [], ...(days ? { expiresInDays: days } : {}) });
    setName("");
  };
  return (
    <>
      <section aria-labelledby="new-token">
        <h2 id="new-token">New token</h2>
        <form onSubmit={submit} className="inline-form">
          <label>
            Name
            <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder="ci" />
          </label>
          <label className="check">
            <input type="checkbox" checked={withScope} onChange={(e) => setWithScope(e.target.checked)} />
            {SCOPE} <span className="hint">(readings; without it only the free operations)</span>
          </label>
          <label>
            Expires
            <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {EXPIRY_CHOICES.map((c) => (
                <option key={c.days} value={c.days}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={create.isPending}>
            Create token
          </button>
        </form>
        <ProblemAlert errors={[create.error]} />
        {create.data ? (
          <SecretShown
            heading={`Copy the secret of “${create.data.token.name}” now: it will not be shown again.`}
            secret={create.data.secret}
            label="Token secret"
            testId="new-token-secret"
          />
        ) : null}
      </section>

      <section aria-labelledby="token-list">
        <h2 id="token-list">Tokens</h2>
        <AccountList
          items={tokens.data}
          pending={tokens.isPending}
          errors={[tokens.error, revoke.error]}
          empty="No tokens yet. Create one above, then send it as a Bearer token."
        >
          {() => (
            <>
              {live.length === 0 ? <p>No active tokens.</p> : null}
              {live.length ? (
                <TokenTable tokens={live} label="API tokens" onRevoke={revoke.mutate} revoking={revoke.isPending} />
              ) : null}
              {ended.length ? (
                // Revoked and expired tokens stay on record (who used what, when) but out of the way.
                <details className="folded" data-testid="ended-tokens">
                  <summary>Revoked and expired ({count(ended.length)})</summary>
                  <TokenTable tokens={ended} label="Revoked and expired API tokens" />
                </details>
              ) : null}
            </>
          )}
        </AccountList>
      </section>

      <section aria-labelledby="use-token">
        <h2 id="use-token">Use it</h2>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable code block must be focusable */}
        <pre tabIndex={0}>
          <code>{`curl -H "Authorization: Bearer $TOKEN" ${origin}/v1/markets\ncurl -H "Authorization: Bearer $TOKEN" "${origin}/v1/markets/foundation-model-apis/delta?country=FR"`}</code>
        </pre>
        <p className="hint">
          Reference: <a href="/docs/api">/docs/api</a>. Revoking a token stops it at once.
        </p>
      </section>
    </>
  );
}

type TokenRow = TokenState & {
  id: string;
  name: string;
  displayPrefix: string;
  scopes: string[];
  createdAt: string | Date;
  lastUsedAt: string | Date | null;
  /** Who made it; null: the operator CLI (or someone no longer here). */
  createdBy?: string | null;
};

function TokenTable({
  tokens,
  label,
  onRevoke,
  revoking = false,
}: {
  tokens: TokenRow[];
  label: string;
  /** Absent for tokens that can no longer be revoked. */
  onRevoke?: (input: { tokenId: string }) => void;
  revoking?: boolean;
}) {
  return (
    <TableWrap label={label}>
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Token</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            {onRevoke ? (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id} data-testid="token-row" data-token-id={token.id}>
              <td data-label="Name">{token.name}</td>
              <td data-label="Token">
                <code>{token.displayPrefix}…</code>
              </td>
              <td data-label="Scopes">{token.scopes.join(", ") || "none"}</td>
              <td data-label="Created">
                {utcMinute(token.createdAt)}
                <br />
                <small data-testid="token-creator">by {token.createdBy ?? "the operator"}</small>
              </td>
              <td data-label="Expires">{utcMinute(token.expiresAt) ?? "never"}</td>
              <td data-label="Last used">{utcMinute(token.lastUsedAt) ?? "never"}</td>
              <td data-label="Status">{status(token)}</td>
              {onRevoke ? (
                <td>
                  <button
                    type="button"
                    className="danger"
                    disabled={revoking}
                    onClick={() => {
                      // Destructive and immediate for every program using it: asked first.
                      if (
                        window.confirm(
                          `Revoke the token "${token.name}"? Every program using it is refused at once; this cannot be undone.`,
                        )
                      )
                        onRevoke({ tokenId: token.id });
                    }}
                  >
                    Revoke<span className="sr-only"> {token.name}</span>
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
