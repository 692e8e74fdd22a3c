"use client";
/**
 * What if the weights were different: a slider per indicator, grouped by axis, starting at the
 * published weights; once they rest for a moment the Capability Index and the Max reading (under
 * the page's country) are recomputed by the what-if procedure — the API's own, never stored — and
 * shown beside the published ranks. The weights that differ from the published ones live in the
 * page URL (`whatif=id:w,…`), so a what-if can be shared as a link. It is never the published
 * ranking, and says so.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { TableWrap } from "@/components/table-wrap";
import { problemText, useTRPC } from "@/components/trpc";
import { AXIS_LABELS, type Axis } from "@/server/domain/market-definition";
import { MAX_WEIGHT, parseWeightsParam } from "@/server/scoring/whatif";
import type { WhatIfReading } from "./reading-types";

export interface WeightedIndicator {
  id: string;
  name: string;
  weight: number;
}

export interface WeightedAxis {
  id: Axis;
  indicators: readonly WeightedIndicator[];
}

/** How long the sliders must rest before the rankings are asked for again. */
const DEBOUNCE_MS = 300;

/** `id:w,id:w` of the weights that differ from the published ones ("" when none do). */
export function changedWeights(axes: readonly WeightedAxis[], weights: ReadonlyMap<string, number>): string {
  return axes
    .flatMap((axis) => axis.indicators)
    .filter((indicator) => (weights.get(indicator.id) ?? indicator.weight) !== indicator.weight)
    .map((indicator) => `${indicator.id}:${weights.get(indicator.id)}`)
    .join(",");
}

/**
 * Weights from the URL's `whatif=id:w,…`, read by the API's own parser: known indicators with
 * weights the API takes; anything else in a hand-edited link is ignored, not an error page.
 */
export function weightsFromUrl(axes: readonly WeightedAxis[], text: string | undefined): Map<string, number> {
  const known = new Set(axes.flatMap((axis) => axis.indicators.map((indicator) => indicator.id)));
  const { weights } = parseWeightsParam(text ?? "");
  return new Map([...weights].filter(([id, weight]) => known.has(id) && weight >= 0 && weight <= MAX_WEIGHT));
}

function rememberWeights(changed: string) {
  const url = new URL(window.location.href);
  if (changed) url.searchParams.set("whatif", changed);
  else url.searchParams.delete("whatif");
  window.history.replaceState(window.history.state, "", url);
}

/** ▲2, ▼1 or =, with words for screen readers. */
function RankMove({ change }: { change: number }) {
  if (change === 0)
    return (
      <span>
        <span aria-hidden="true">=</span>
        <span className="sr-only">unchanged</span>
      </span>
    );
  const up = change > 0;
  return (
    <span className={up ? "rank-up" : "rank-down"}>
      <span aria-hidden="true">
        {up ? "▲" : "▼"}
        {Math.abs(change)}
      </span>
      <span className="sr-only">
        {up ? "up" : "down"} {Math.abs(change)}
      </span>
    </span>
  );
}

const sliderMax = (published: number) => Math.max(10, Math.ceil(published * 4));

export function WhatIfPanel({
  marketId,
  release,
  country,
  axes,
  initialWeights,
}: {
  marketId: string;
  release?: number;
  country: string;
  axes: readonly WeightedAxis[];
  /** The URL's `whatif` parameter, as the page was opened. */
  initialWeights?: string;
}) {
  const trpc = useTRPC();
  const [weights, setWeights] = useState(() => weightsFromUrl(axes, initialWeights));
  const changed = changedWeights(axes, weights);
  const [asked, setAsked] = useState(changed);
  useEffect(() => {
    const timer = setTimeout(() => {
      setAsked(changed);
      rememberWeights(changed);
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [changed]);

  const whatif = useQuery({
    ...trpc.readings.whatif.queryOptions(
      { marketId, weights: asked, country, ...(release === undefined ? {} : { release }) },
      { placeholderData: keepPreviousData },
    ),
    enabled: asked !== "",
  });
  const setWeight = (id: string, weight: number) => setWeights((current) => new Map(current).set(id, weight));

  return (
    <section aria-labelledby="whatif-title" className="whatif" data-testid="whatif">
      <h2 id="whatif-title">What if the weights were different?</h2>
      <p className="notice" role="note" data-testid="whatif-note">
        <strong>Not the published ranking.</strong> Move a weight to see how the Capability Index and the Max under{" "}
        {country} would rank with it. Nothing is stored or published; the link keeps your weights.
      </p>
      <div className="whatif-layout">
        <div className="whatif-sliders">
          {axes.map((axis) => (
            <fieldset key={axis.id} className="card" data-axis={axis.id}>
              <legend>{AXIS_LABELS[axis.id]} weights</legend>
              <p className="hint" data-testid={`moves-${axis.id}`}>
                {WHAT_IT_MOVES[axis.id]}
              </p>
              {axis.indicators.map((indicator) => {
                const value = weights.get(indicator.id) ?? indicator.weight;
                return (
                  <label key={indicator.id} className="weight">
                    <span>
                      {indicator.name} <output data-testid={`weight-${indicator.id}`}>{value}</output>
                      {value === indicator.weight ? null : (
                        <span className="hint"> (published {indicator.weight})</span>
                      )}
                    </span>
                    <input
                      type="range"
                      min={0}
                      max={sliderMax(indicator.weight)}
                      step={0.05}
                      value={value}
                      data-indicator={indicator.id}
                      aria-label={`${indicator.name} weight`}
                      onChange={(event) => setWeight(indicator.id, Number(event.target.value))}
                    />
                  </label>
                );
              })}
            </fieldset>
          ))}
          <p>
            <button type="button" onClick={() => setWeights(new Map())} disabled={changed === ""}>
              Back to the published weights
            </button>
          </p>
        </div>
        {/* It may scroll on its own beside the sliders: reachable by keyboard (WCAG 2.1.1). */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable */}
        <section className="whatif-results" tabIndex={0} aria-label="What your weights move">
          {asked === "" ? (
            <p className="hint">
              With the published weights the ranking is the published one. Move an Innovation weight to see the rankings
              change here.
            </p>
          ) : whatif.error ? (
            <div className="notice error-notice" role="alert">
              <p>
                <strong>Could not rank with these weights.</strong> {problemText(whatif.error)}
              </p>
            </div>
          ) : whatif.data ? (
            <WhatIfTables reading={whatif.data} />
          ) : (
            <p className="hint" aria-busy="true">
              Ranking with your weights…
            </p>
          )}
        </section>
      </div>
    </section>
  );
}

/**
 * What a weight of each axis moves: both rankings order by Innovation, so only Innovation weights
 * rerank; the others change a score no ranking here orders by, and the sliders say so.
 */
const WHAT_IT_MOVES: Record<string, string> = {
  innovation: "These move both rankings: the Capability Index and the Max order products by Innovation.",
  control:
    "These change each product's Control score only. Neither ranking orders by Control, so the tables do not move.",
  scale: "These change each product's Scale score only. Neither ranking orders by Scale, so the tables do not move.",
};

/** One ranking with the caller's weights: rank, move, product, the value now and as published. */
function MoveTable<
  Row extends { rank: number; publishedRank: number; rankChange: number; productId: string; name: string },
>({
  testId,
  caption,
  valueLabel,
  rows,
  value,
  published,
}: {
  testId: string;
  caption: string;
  valueLabel: string;
  rows: readonly Row[];
  value: (row: Row) => string;
  /** null: nothing published to compare with (unavailable under the controls). */
  published: (row: Row) => number | null;
}) {
  return (
    <table data-testid={testId}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col" className="num">
            Rank
          </th>
          <th scope="col">Move</th>
          <th scope="col">Product</th>
          <th scope="col" className="num">
            {valueLabel}
          </th>
          <th scope="col" className="num">
            Published
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((p) => {
          const usable = !("available" in p) || p.available !== false;
          return (
            <tr
              key={p.productId}
              data-product-id={p.productId}
              data-rank-change={usable ? p.rankChange : undefined}
              className={usable ? undefined : "unavailable"}
            >
              <td className="num" data-label="Rank">
                {usable ? p.rank : "–"}
              </td>
              <td data-label="Move">
                {usable ? (
                  <>
                    <RankMove change={p.rankChange} /> <span className="hint">from {p.publishedRank}</span>
                  </>
                ) : (
                  <span className="hint">unranked</span>
                )}
              </td>
              <th scope="row">{p.name}</th>
              <td className="num" data-label={valueLabel}>
                {value(p)}
              </td>
              <td className="num" data-label="Published">
                {published(p)?.toFixed(1) ?? "unavailable"}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function WhatIfTables({ reading }: { reading: WhatIfReading }) {
  return (
    <TableWrap label="Rankings with your weights" live>
      <MoveTable
        testId="whatif-capaindex"
        caption="Capability Index with your weights (not published)"
        valueLabel="Innovation"
        rows={reading.capabilityIndex.products}
        value={(p) => p.innovation.toFixed(1)}
        published={(p) => p.publishedInnovation}
      />
      {reading.max ? (
        <MoveTable
          testId="whatif-max"
          caption={`Max under ${reading.max.country} with your weights (not published)`}
          valueLabel="Keeps"
          rows={reading.max.products}
          value={(p) => (p.available ? p.retainedInnovation.toFixed(1) : "unavailable")}
          published={(p) => (p.available ? p.publishedRetainedInnovation : null)}
        />
      ) : null}
    </TableWrap>
  );
}
