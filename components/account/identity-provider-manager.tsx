"use client";
/**
 * The identity provider page's body (owners: sso.manage): the issuer, the dashboard's client at the
 * IdP (its secret goes in and never comes back), the domains it speaks for with each one's TXT
 * record and a Verify button, the role people join with, required SSO, and removal. Everything
 * shown is text React escapes: an issuer or a domain is hostile text like any other.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { TableWrap } from "@/components/ui/table-wrap";
import { ROLE_DESCRIPTIONS } from "@/server/1-domain/roles";
import { utcDay } from "../format";
import { useTRPC } from "../trpc";
import { ProblemAlert } from "./account-list";
import { IdJagSettings } from "./id-jag-settings";

type JoinRole = "admin" | "member" | "billing";
const JOIN_ROLES: JoinRole[] = ["member", "admin", "billing"];

export function IdentityProviderManager() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const shown = useQuery(trpc.identityProvider.show.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.identityProvider.show.queryKey() });
  const set = useMutation(trpc.identityProvider.set.mutationOptions({ onSuccess: refresh }));
  const verify = useMutation(trpc.identityProvider.verify.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.identityProvider.remove.mutationOptions({ onSuccess: refresh }));
  const provider = shown.data?.provider ?? null;

  const [issuer, setIssuer] = useState("");
  const [clientId, setClientId] = useState("");
  const [clientSecret, setClientSecret] = useState("");
  const [domains, setDomains] = useState("");
  const [defaultRole, setDefaultRole] = useState<JoinRole>("member");
  const [requireSso, setRequireSso] = useState(false);
  // The form starts from what is stored, each time it changes.
  useEffect(() => {
    if (!provider) return;
    setIssuer(provider.issuer);
    setClientId(provider.clientId ?? "");
    setDomains(provider.domains.map((d) => d.domain).join("\n"));
    setDefaultRole(provider.defaultRole === "owner" ? "member" : provider.defaultRole);
    setRequireSso(provider.requireSso);
  }, [provider]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    set.mutate(
      {
        issuer,
        clientId: clientId.trim() || null,
        clientSecret: clientSecret || null,
        domains: domains
          .split(/[\s,]+/)
          .map((d) => d.trim())
          .filter(Boolean),
        defaultRole,
        requireSso,
      },
      { onSuccess: () => setClientSecret("") },
    );
  };

  return (
    <>
      <section aria-labelledby="idp-settings">
        <h2 id="idp-settings">{provider ? "Settings" : "Connect your identity provider"}</h2>
        <form onSubmit={submit} className="stacked-form" data-testid="idp-form">
          <label>
            Issuer
            <input
              type="url"
              value={issuer}
              onChange={(e) => setIssuer(e.target.value)}
              required
              maxLength={2048}
              placeholder="https://login.example.com"
            />
          </label>
          <label>
            Client ID
            <input value={clientId} onChange={(e) => setClientId(e.target.value)} maxLength={512} autoComplete="off" />
          </label>
          <label>
            Client secret
            <input
              type="password"
              value={clientSecret}
              onChange={(e) => setClientSecret(e.target.value)}
              maxLength={2048}
              autoComplete="new-password"
              placeholder={provider?.hasClientSecret ? "Stored — leave empty to keep it" : ""}
            />
          </label>
          <label>
            E-mail domains (one a line)
            <textarea value={domains} onChange={(e) => setDomains(e.target.value)} rows={3} required />
          </label>
          <label>
            Role of people who join by signing in
            <select value={defaultRole} onChange={(e) => setDefaultRole(e.target.value as JoinRole)}>
              {JOIN_ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <p className="hint">{ROLE_DESCRIPTIONS[defaultRole]}.</p>
          <label className="check">
            <input type="checkbox" checked={requireSso} onChange={(e) => setRequireSso(e.target.checked)} />
            Require it: people of the verified domains get no e-mail link, and no GitHub or Google sign-in
          </label>
          <button type="submit" disabled={set.isPending}>
            Save identity provider
          </button>
        </form>
        <ProblemAlert errors={[set.error]} />
        {set.data ? (
          <p role="status" data-testid="idp-saved">
            Saved: {set.data.issuer}.
          </p>
        ) : null}
        {shown.data ? (
          <p>
            Register this redirect URI for the client at your identity provider:{" "}
            <code data-testid="redirect-uri">{shown.data.redirectUri}</code>
          </p>
        ) : null}
      </section>
      {provider ? (
        <section aria-labelledby="idp-domains">
          <h2 id="idp-domains">Domains</h2>
          <p>
            Publish each TXT record in your DNS, then verify it. Only a verified domain&apos;s people are sent to your
            identity provider.
          </p>
          <TableWrap label="Domains">
            <table>
              <thead>
                <tr>
                  <th scope="col">Domain</th>
                  <th scope="col">TXT record</th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {provider.domains.map((claim) => (
                  <tr key={claim.domain} data-testid="domain-row" data-domain={claim.domain}>
                    <td data-label="Domain">{claim.domain}</td>
                    <td data-label="TXT record">
                      <code>{claim.recordName}</code> <code data-testid="txt-value">{claim.recordValue}</code>
                    </td>
                    <td data-label="State" data-testid="domain-state">
                      {claim.verifiedAt ? `Verified ${utcDay(claim.verifiedAt)}` : "Not verified"}
                    </td>
                    <td>
                      {claim.verifiedAt ? null : (
                        <button
                          type="button"
                          disabled={verify.isPending}
                          onClick={() => verify.mutate({ domain: claim.domain })}
                        >
                          Verify<span className="sr-only"> {claim.domain}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <ProblemAlert errors={[verify.error, shown.error]} />
        </section>
      ) : null}
      {provider && shown.data ? (
        <IdJagSettings
          mcp={shown.data.mcp}
          inlineKeys={provider.jwks ? provider.jwks.keys.length : null}
          links={shown.data.links}
          onChange={refresh}
        />
      ) : null}
      {provider ? (
        <section aria-labelledby="idp-remove">
          <h2 id="idp-remove">Remove</h2>
          <p>People sign in with e-mail links again; those who joined through it stay members.</p>
          <button
            type="button"
            className="danger"
            disabled={remove.isPending}
            onClick={() => {
              if (window.confirm("Remove the identity provider and its domains?")) remove.mutate();
            }}
          >
            Remove identity provider
          </button>
          <ProblemAlert errors={[remove.error]} />
        </section>
      ) : null}
    </>
  );
}
