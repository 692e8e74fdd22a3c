"use client";
/**
 * The organization's webhook endpoints: create one (the signing secret is shown once), list them
 * with their state, and per endpoint send a test, rotate the secret, disable or enable, delete,
 * and open its delivery log.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { TableWrap } from "@/components/table-wrap";
import { WEBHOOKS_PATH } from "@/server/http/paths";
import { utcMinute } from "./format";
import { problemText, useTRPC } from "./trpc";

/** Space- or comma-separated codes or ids, as typed. */
const listOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);

function SecretShown({ label, secret, note }: { label: string; secret: string; note?: string }) {
  return (
    <div className="secret" role="status">
      <p>
        <strong>Copy the signing secret of {label} now: it will not be shown again.</strong>
        {note ? ` ${note}` : null}
      </p>
      <div className="secret-row">
        <input
          readOnly
          value={secret}
          data-testid="webhook-secret"
          aria-label="Signing secret"
          onFocus={(e) => e.target.select()}
        />
      </div>
    </div>
  );
}

export function WebhookManager() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.webhooks.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>(["release.published"]);
  const [markets, setMarkets] = useState("");
  const [countries, setCountries] = useState("");
  const create = useMutation(trpc.webhooks.create.mutationOptions({ onSuccess: refresh }));
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: refresh }));
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.webhooks.remove.mutationOptions({ onSuccess: refresh }));
  const test = useMutation(trpc.webhooks.sendTest.mutationOptions());
  const failure = [create, update, rotate, remove, test].find((m) => m.error)?.error;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    rotate.reset();
    create.mutate(
      {
        url,
        description,
        events,
        marketIds: listOf(markets),
        countries: listOf(countries).map((c) => c.toUpperCase()),
      },
      { onSuccess: () => setUrl("") },
    );
  };
  const toggle = (type: string) =>
    setEvents((chosen) => (chosen.includes(type) ? chosen.filter((t) => t !== type) : [...chosen, type]));

  return (
    <>
      <section aria-labelledby="new-endpoint">
        <h2 id="new-endpoint">New endpoint</h2>
        <form onSubmit={submit} className="stacked-form">
          <label>
            URL
            <input
              type="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              required
              maxLength={2000}
              placeholder="https://example.com/webhooks/market-positioning"
            />
          </label>
          <label>
            <span>
              Description <span className="hint">(optional)</span>
            </span>
            <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={200} />
          </label>
          <fieldset>
            <legend>Events</legend>
            {list.data?.events.map((e) => (
              <label key={e.type} className="check event-choice">
                <input type="checkbox" checked={events.includes(e.type)} onChange={() => toggle(e.type)} />
                <span>
                  <code>{e.type}</code>
                  <span className="hint">{e.description}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <label>
            <span>
              Markets <span className="hint">(ids, comma-separated; empty: every market)</span>
            </span>
            <input value={markets} onChange={(e) => setMarkets(e.target.value)} placeholder="foundation-model-apis" />
          </label>
          <label>
            <span>
              Countries for <code>market.changed</code>{" "}
              <span className="hint">(codes; empty: the home country, {list.data?.homeCountry ?? "…"})</span>
            </span>
            <input value={countries} onChange={(e) => setCountries(e.target.value)} placeholder="FR, DE" />
          </label>
          <button type="submit" disabled={create.isPending || events.length === 0}>
            Add endpoint
          </button>
        </form>
        {create.data ? <SecretShown label={create.data.endpoint.url} secret={create.data.secret} /> : null}
        {rotate.data ? (
          <SecretShown
            label={rotate.data.endpoint.url}
            secret={rotate.data.secret}
            note={`The previous secret keeps signing beside it until ${utcMinute(rotate.data.previousSecretUntil)} UTC.`}
          />
        ) : null}
        {test.data ? (
          <p role="status">
            Test event <code>{test.data.messageId}</code> queued: its delivery shows in the endpoint's log.
          </p>
        ) : null}
        {failure ? (
          <p role="alert" className="error">
            {problemText(failure)}
          </p>
        ) : null}
      </section>

      <section aria-labelledby="endpoint-list">
        <h2 id="endpoint-list">Endpoints</h2>
        {list.isPending ? <p>Loading…</p> : null}
        {list.data?.endpoints.length === 0 ? <p>No endpoints yet.</p> : null}
        {list.data?.endpoints.length ? (
          <TableWrap label="Webhook endpoints">
            <table>
              <thead>
                <tr>
                  <th scope="col">Endpoint</th>
                  <th scope="col">Events</th>
                  <th scope="col">Markets</th>
                  <th scope="col">Countries</th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.endpoints.map((endpoint) => (
                  <tr key={endpoint.id} data-testid="webhook-row" data-endpoint-id={endpoint.id}>
                    <td data-label="Endpoint">
                      <Link href={`${WEBHOOKS_PATH}/${endpoint.id}`}>{endpoint.url}</Link>
                      {endpoint.description ? <div className="hint">{endpoint.description}</div> : null}
                    </td>
                    <td data-label="Events">{endpoint.events.join(", ")}</td>
                    <td data-label="Markets">{endpoint.marketIds.join(", ") || "every market"}</td>
                    <td data-label="Countries">{endpoint.countries.join(", ") || `home (${list.data.homeCountry})`}</td>
                    <td data-label="State" data-testid="webhook-state">
                      {endpoint.enabled
                        ? endpoint.failingSince
                          ? `Failing since ${utcMinute(endpoint.failingSince)} (${endpoint.consecutiveFailures} in a row)`
                          : "Enabled"
                        : `Disabled: ${endpoint.disabledReason ?? ""}`}
                    </td>
                    <td className="actions">
                      <button type="button" onClick={() => test.mutate({ endpointId: endpoint.id })}>
                        Send test<span className="sr-only"> to {endpoint.url}</span>
                      </button>
                      <button
                        type="button"
                        onClick={() => update.mutate({ endpointId: endpoint.id, enabled: !endpoint.enabled })}
                      >
                        {endpoint.enabled ? "Disable" : "Enable"}
                        <span className="sr-only"> {endpoint.url}</span>
                      </button>
                      <button
                        type="button"
                        onClick={() => {
                          create.reset();
                          rotate.mutate({ endpointId: endpoint.id });
                        }}
                      >
                        Rotate secret<span className="sr-only"> of {endpoint.url}</span>
                      </button>
                      <button
                        type="button"
                        className="danger"
                        onClick={() => {
                          if (window.confirm(`Delete the endpoint ${endpoint.url} and its delivery log?`))
                            remove.mutate({ endpointId: endpoint.id });
                        }}
                      >
                        Delete<span className="sr-only"> {endpoint.url}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : null}
      </section>
    </>
  );
}
