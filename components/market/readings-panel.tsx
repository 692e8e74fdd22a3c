"use client";
/**
 * The three readings of a market under the country the frame shows (the URL's `country`): the
 * Capability Index, the Max reading and the Delta, with the reader's gates. The delta view and the
 * gates live in the page URL too, so a reading can be shared as a link. Data comes from the same
 * tRPC procedures as REST and MCP, as the signed-in person (not metered).
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import type { Cutoff } from "@/components/charts/ranked-bars";
import { count } from "@/components/format";
import { problemText, useTRPC } from "@/components/trpc";
import { fullGeographies } from "@/server/1-domain/geographies";
import { usableCount } from "@/server/2-charts/chart-data";
import { CapaindexFigure } from "./capaindex-figure";
import { useCountryInUrl } from "./country-in-url";
import { DeltaFigure } from "./delta-figure";
import { EmbedAction } from "./embed-action";
import { GatesForm, type GatesState, gatesInput } from "./gates-form";
import type { DeltaView, Geography, ServicemaxReading } from "./reading-types";
import { ServicemaxFigure } from "./servicemax-figure";

interface ReadingsPanelProps {
  marketId: string;
  /** The release the page shows; undefined for the latest. */
  release?: number;
  initialCountry: string;
  initialView: DeltaView;
  /** The gates the page's URL names (`minSeal`, `require`). */
  initialGates: GatesState;
  innovationCutoffs: readonly Cutoff[];
}

/** Writes the reading's state into the page URL without a navigation (Next keeps it in sync). */
function rememberInUrl(changes: Record<string, string>) {
  const url = new URL(window.location.href);
  for (const [key, value] of Object.entries(changes)) url.searchParams.set(key, value);
  window.history.replaceState(window.history.state, "", url);
}

function Problem({ error, what }: { error: unknown; what: string }) {
  return (
    <div className="notice error-notice" role="alert">
      <p>
        <strong>Could not load {what}.</strong> {problemText(error)}
      </p>
    </div>
  );
}

/** A reading's place on the page: its chart once loaded, the problem in words if it failed. */
function ReadingSlot<T>({
  query,
  what,
  children,
}: {
  query: { data: T | undefined; error: unknown };
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return children(query.data);
  if (query.error) return <Problem error={query.error} what={what} />;
  return (
    <div className="chart skeleton" aria-busy="true">
      <p className="hint">Loading {what}…</p>
    </div>
  );
}

function EngagedControls({ geography }: { geography: Geography | undefined }) {
  if (!geography) return null;
  if (geography.controls.length === 0)
    return (
      <p className="notice" data-testid="nothing-moves">
        {geography.name} engages no sovereign controls, so nothing moves: every product keeps its published scores.
      </p>
    );
  return (
    <details className="engaged-controls" data-testid="engaged-controls">
      <summary>
        {geography.name} engages {geography.controls.length} control{geography.controls.length === 1 ? "" : "s"}:{" "}
        {geography.controls.map((c) => c.name).join(", ")}
      </summary>
      <ul>
        {geography.controls.map((control) => (
          <li key={control.id}>
            <strong>{control.name}</strong> <span className="hint">({control.framework})</span>: {control.description}
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * The answer an analyst wants first: how many products can be used at all under the country's
 * controls, and which ones; every figure below ranks only those.
 */
function UsableHeadline({ reading, countryName }: { reading: ServicemaxReading; countryName?: string }) {
  const { usable, total } = usableCount(reading.products);
  const names = reading.products.filter((p) => p.available).map((p) => p.name);
  return (
    <p className="usable-headline" data-testid="usable-headline" data-usable={usable} data-total={total}>
      <strong>
        {count(usable)} of {count(total)}
      </strong>{" "}
      product{total === 1 ? "" : "s"} {usable === 1 ? "is" : "are"} usable under {countryName ?? reading.country}'s
      controls{usable > 0 && usable <= 5 ? `: ${names.join(", ")}` : ""}.
      {usable < total ? (
        <span className="hint">
          {" "}
          The other {total - usable} have no offering that meets every control: they are set apart, unranked, below.
        </span>
      ) : null}
    </p>
  );
}

export function ReadingsPanel({
  marketId,
  release,
  initialCountry,
  initialView,
  initialGates,
  innovationCutoffs,
}: ReadingsPanelProps) {
  const trpc = useTRPC();
  const [country] = useCountryInUrl(initialCountry);
  const [view, setView] = useState<DeltaView>(initialView);
  const [gates, setGates] = useState<GatesState>(initialGates);
  const releaseInput = release === undefined ? {} : { release };
  const keep = { placeholderData: keepPreviousData };

  const geographies = useQuery(
    trpc.geographies.list.queryOptions({}, { staleTime: 5 * 60_000, select: withControlObjects }),
  );
  const capaindex = useQuery(trpc.readings.capaindex.queryOptions({ marketId, ...releaseInput }));
  const max = useQuery(
    trpc.readings.servicemax.queryOptions({ marketId, ...releaseInput, country, ...gatesInput(gates) }, keep),
  );
  const delta = useQuery(
    trpc.readings.delta.queryOptions({ marketId, ...releaseInput, country, ...gatesInput(gates) }, keep),
  );

  const geography = geographies.data?.geographies.find((g) => g.country === country);
  const controlNames = new Map(
    (geographies.data?.geographies ?? []).flatMap((g) => g.controls.map((c) => [c.id, c.name] as const)),
  );
  const updating = (max.isFetching && max.isPlaceholderData) || (delta.isFetching && delta.isPlaceholderData);

  const chooseView = (next: DeltaView) => {
    setView(next);
    rememberInUrl({ country, view: next });
  };
  const chooseGates = (next: GatesState) => {
    setGates(next);
    rememberInUrl({
      minSeal: next.minSeal === null ? "" : String(next.minSeal),
      require: next.requireControls.join(","),
    });
  };

  return (
    <section aria-labelledby="readings-title" className="readings" aria-busy={updating}>
      <h2 id="readings-title">Readings</h2>
      {/* The country is chosen in the page's frame, for every view; this view reads it from the URL. */}
      {updating ? (
        <p className="hint" role="status">
          Updating for {country}…
        </p>
      ) : null}
      {geographies.error ? <Problem error={geographies.error} what="the countries" /> : null}
      {max.data ? <UsableHeadline reading={max.data} countryName={geography?.name} /> : null}
      <EngagedControls geography={geography} />
      <GatesForm gates={gates} controls={geographies.data?.controls ?? []} onChange={chooseGates} />

      <h3>Capability Index</h3>
      <p className="hint">
        Every product ranked by its published Innovation; no controls are engaged here. Those {country} excludes are
        hatched and marked.
      </p>
      <ReadingSlot query={capaindex} what="the Capability Index">
        {(reading) => (
          <>
            <CapaindexFigure
              reading={reading}
              cutoffs={innovationCutoffs}
              {...(max.data
                ? {
                    under: {
                      country: max.data.country,
                      unavailable: new Set(max.data.products.filter((p) => !p.available).map((p) => p.productId)),
                    },
                  }
                : {})}
            />
            <EmbedAction marketId={marketId} reading="capaindex" release={reading.release} />
          </>
        )}
      </ReadingSlot>

      <h3>Max</h3>
      <p className="hint">
        Ranked by the Innovation each product keeps with every control of {geography?.name ?? country} engaged:{" "}
        <em>off</em> is published, <em>on</em> is under the controls.
      </p>
      <ReadingSlot query={max} what="the Max reading">
        {(reading) => (
          <>
            <ServicemaxFigure reading={reading} controlNames={controlNames} />
            <EmbedAction marketId={marketId} reading="servicemax" country={reading.country} release={reading.release} />
          </>
        )}
      </ReadingSlot>

      <h3>Delta</h3>
      <p className="hint">What each product keeps and loses: published against under the controls.</p>
      <ReadingSlot query={delta} what="the Delta">
        {(reading) => (
          <>
            <DeltaFigure reading={reading} view={view} onViewChange={chooseView} />
            <EmbedAction
              marketId={marketId}
              reading="delta"
              country={reading.country}
              release={reading.release}
              view={view}
            />
          </>
        )}
      </ReadingSlot>
    </section>
  );
}

/** The geographies as the dashboard asks them (detail=full): every country's controls as objects. */
function withControlObjects<T extends { geographies: Parameters<typeof fullGeographies>[0] }>(data: T) {
  return { ...data, geographies: fullGeographies(data.geographies) };
}
