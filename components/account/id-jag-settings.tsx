"use client";
/**
 * The identity provider page's MCP part (docs/enterprise-mcp.md): what to give the IdP so it can
 * mint ID-JAGs for this service, the keys those assertions are verified with (the issuer's
 * published ones, or a key set given here), and the members whose IdP subject is linked (only
 * their assertions count). Every value shown is text React escapes.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { TableWrap } from "@/components/ui/table-wrap";
import { utcMinute } from "../format";
import { useTRPC } from "../trpc";
import { ProblemAlert } from "./account-list";

interface Props {
  mcp: { audience: string; tokenEndpoint: string; resource: string; grantType: string };
  inlineKeys: number | null;
  links: { userId: string; email: string | null; subject: string; checkedAt: Date | string }[];
  onChange: () => void;
}

export function IdJagSettings({ mcp, inlineKeys, links, onChange }: Props) {
  const trpc = useTRPC();
  const setKeys = useMutation(trpc.identityProvider.setKeys.mutationOptions({ onSuccess: onChange }));
  const [jwks, setJwks] = useState("");
  const save = (event: FormEvent) => {
    event.preventDefault();
    setKeys.mutate({ jwks }, { onSuccess: () => setJwks("") });
  };
  const facts: [string, string][] = [
    ["Audience (aud)", mcp.audience],
    ["Resource", mcp.resource],
    ["Token endpoint", mcp.tokenEndpoint],
    ["Grant type", mcp.grantType],
  ];
  return (
    <section aria-labelledby="idp-mcp">
      <h2 id="idp-mcp">MCP clients (ID-JAG)</h2>
      <p>
        Your identity provider can let your people&apos;s AI clients in without a consent page: it issues an identity
        assertion (ID-JAG) the client exchanges here for an access token acting for this organization with the
        person&apos;s role. Give your identity provider these:
      </p>
      <dl className="facts" data-testid="id-jag-facts">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>
              <code>{value}</code>
            </dd>
          </div>
        ))}
      </dl>
      <h3>Keys</h3>
      <p data-testid="id-jag-keys">
        {inlineKeys
          ? `Assertions are verified with the ${inlineKeys === 1 ? "key" : `${inlineKeys} keys`} given here.`
          : "Assertions are verified with the keys your issuer publishes (its discovery document's jwks_uri)."}
      </p>
      <form onSubmit={save} className="stacked-form">
        <label>
          Public keys (a JSON Web Key Set), instead of the published ones
          <textarea
            value={jwks}
            onChange={(e) => setJwks(e.target.value)}
            rows={4}
            maxLength={65_536}
            spellCheck={false}
            placeholder='{"keys": [{"kty": "RSA", "kid": "…", "n": "…", "e": "AQAB"}]}'
          />
        </label>
        <div className="inline-form">
          <button type="submit" disabled={setKeys.isPending || jwks.trim() === ""}>
            Save keys
          </button>
          {inlineKeys ? (
            <button
              type="button"
              className="secondary"
              disabled={setKeys.isPending}
              onClick={() => setKeys.mutate({ jwks: null })}
            >
              Use the published keys
            </button>
          ) : null}
        </div>
      </form>
      <ProblemAlert errors={[setKeys.error]} />
      <h3>People whose assertions count</h3>
      {links.length === 0 ? (
        <p data-testid="id-jag-links-empty">
          Nobody yet: a member is linked when they first sign in through your identity provider.
        </p>
      ) : (
        <TableWrap label="Linked people">
          <table data-testid="id-jag-links">
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Subject at your identity provider</th>
                <th scope="col">Last confirmed (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {links.map((link) => (
                <tr key={link.userId}>
                  <td data-label="Member">{link.email ?? link.userId}</td>
                  <td data-label="Subject">
                    <code>{link.subject}</code>
                  </td>
                  <td data-label="Last confirmed">{utcMinute(link.checkedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}
