"use client";
/**
 * The organization's webhook endpoints: create one (the signing secret is shown once), list them
 * with their state, and per endpoint send a test, rotate the secret, disable or enable, delete,
 * and open its delivery log.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { SecretShown } from "@/components/account/secret-shown";
import { type Choice, ChoicePicker } from "@/components/ui/choice-picker";
import { TableWrap } from "@/components/ui/table-wrap";
import { WEBHOOKS_PATH } from "@/server/2-http/paths";
import { utcMinute } from "../format";
import { useTRPC } from "../trpc";
import { AccountList, ProblemAlert } from "./account-list";

/** Markets and countries come from the page (the dashboard's own lists), never typed as ids. */
export function WebhookManager({
  markets: marketChoices,
  countries: countryChoices,
}: {
  markets: Choice[];
  countries: Choice[];
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.webhooks.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>(["release.published"]);
  const [markets, setMarkets] = useState<string[]>([]);
  const [countries, setCountries] = useState<string[]>([]);
  const create = useMutation(trpc.webhooks.create.mutationOptions({ onSuccess: refresh }));
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: refresh }));
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(
    trpc.webhooks.remove.mutationOptions({
      onSuccess: (_, { endpointId }) => {
        // A deleted endpoint's secret signs nothing any more: it leaves the screen with it.
        if (create.data?.endpoint.id === endpointId) create.reset();
        if (rotate.data?.endpoint.id === endpointId) rotate.reset();
        return refresh();
      },
    }),
  );
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
        marketIds: markets,
        countries,
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
          <ChoicePicker
            legend="Markets"
            noneMeans="every market"
            choices={marketChoices}
            chosen={markets}
            onChange={setMarkets}
            testId="webhook-markets"
          />
          <ChoicePicker
            legend="Countries for market.changed"
            noneMeans={`the home country, ${list.data?.homeCountry ?? "…"}`}
            choices={countryChoices}
            chosen={countries}
            onChange={setCountries}
            testId="webhook-countries"
          />
          <button type="submit" disabled={create.isPending || events.length === 0}>
            Add endpoint
          </button>
        </form>
        {create.data ? (
          <SecretShown
            heading={`Copy the signing secret of ${create.data.endpoint.url} now: it will not be shown again.`}
            secret={create.data.secret}
            label="Signing secret"
            testId="webhook-secret"
          />
        ) : null}
        {rotate.data ? (
          <SecretShown
            heading={`Copy the signing secret of ${rotate.data.endpoint.url} now: it will not be shown again.`}
            secret={rotate.data.secret}
            label="Signing secret"
            testId="webhook-secret"
          >
            The previous secret keeps signing beside it until {utcMinute(rotate.data.previousSecretUntil)} UTC.
          </SecretShown>
        ) : null}
        {test.data ? (
          <p role="status">
            Test event <code>{test.data.messageId}</code> queued: its delivery shows in the endpoint's log.
          </p>
        ) : null}
        <ProblemAlert errors={[failure]} />
      </section>

      <section aria-labelledby="endpoint-list">
        <h2 id="endpoint-list">Endpoints</h2>
        <AccountList
          items={list.data?.endpoints}
          pending={list.isPending}
          errors={[list.error]}
          empty="No endpoints yet. Add one above; a test event shows it works."
        >
          {(endpoints) => (
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
                  {endpoints.map((endpoint) => (
                    <tr key={endpoint.id} data-testid="webhook-row" data-endpoint-id={endpoint.id}>
                      <td data-label="Endpoint">
                        <Link href={`${WEBHOOKS_PATH}/${endpoint.id}`}>{endpoint.url}</Link>
                        {endpoint.description ? <div className="hint">{endpoint.description}</div> : null}
                        <div className="hint" data-testid="webhook-creator">
                          Added by {endpoint.createdBy ?? "someone no longer here"}
                        </div>
                      </td>
                      <td data-label="Events">{endpoint.events.join(", ")}</td>
                      <td data-label="Markets">{endpoint.marketIds.join(", ") || "every market"}</td>
                      <td data-label="Countries">
                        {endpoint.countries.join(", ") || `home (${list.data?.homeCountry ?? "…"})`}
                      </td>
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
          )}
        </AccountList>
      </section>
    </>
  );
}
