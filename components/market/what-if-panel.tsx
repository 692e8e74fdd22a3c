"use client";
/**
 * What if the weights were different: a slider per indicator, grouped by axis, starting at the
 * published weights; once they rest for a moment the what-if procedure (the API's own, never
 * stored) scores every product again on every axis, and the view shows what moved: a summary of
 * each axis's changes, kept in sight while a slider moves (beside the sliders on a desktop, pinned
 * above them on a phone), and the Capability Index and the Max (under the page's country) with
 * each product's Innovation, Control and Scale beside the published values — in the order of the
 * axis the reader picks, so every weight moves something on screen. The weights that differ from
 * the published ones, and the order, live in the page URL (`whatif=id:w,…`, `whatifBy=control`),
 * so a what-if can be shared as a link. It is never the published ranking, and says so.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from "react";
import { count, score } from "@/components/format";
import { problemText, useTRPC } from "@/components/trpc";
import { usePaged } from "@/components/ui/pager";
import { TableWrap } from "@/components/ui/table-wrap";
import { AXES, AXIS_LABELS, type Axis } from "@/server/1-domain/market-definition";
import { MAX_WEIGHT, parseWeightsParam } from "@/server/2-scoring/whatif";
import {
  type AxisMove,
  axisMoves,
  rankMoves,
  scoreChange,
  signedScore,
  type WhatIfRow,
  type WhatIfRows,
  whatIfRows,
} from "./what-if-rows";

export interface WeightedIndicator {
  id: string;
  name: string;
  weight: number;
}

export interface WeightedAxis {
  id: Axis;
  indicators: readonly WeightedIndicator[];
}

/** How long the sliders must rest before the scores are asked for again. */
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

/** The axis of the URL's `whatifBy`, Innovation (the rankings' own order) for anything else. */
export const orderFromUrl = (text: string | undefined): Axis =>
  AXES.find((axis) => axis === text && axis !== "innovation") ?? "innovation";

function remember(changed: string, by: Axis) {
  const url = new URL(window.location.href);
  if (changed) url.searchParams.set("whatif", changed);
  else url.searchParams.delete("whatif");
  if (by !== "innovation") url.searchParams.set("whatifBy", by);
  else url.searchParams.delete("whatifBy");
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

/**
 * What a weight of each axis moves. Both rankings order by Innovation; a Control or Scale weight
 * moves that axis's column, and reorders the tables when they are ordered by it.
 */
const WHAT_IT_MOVES: Record<Axis, string> = {
  innovation: "Move Innovation, and so both rankings.",
  control: "Move Control: its column, and the order by Control.",
  scale: "Move Scale: its column, and the order by Scale.",
};

export function WhatIfPanel({
  marketId,
  release,
  country,
  axes,
  initialWeights,
  initialOrder,
}: {
  marketId: string;
  release?: number;
  country: string;
  axes: readonly WeightedAxis[];
  /** The URL's `whatif` parameter, as the page was opened. */
  initialWeights?: string;
  /** The URL's `whatifBy` parameter, as the page was opened. */
  initialOrder?: string;
}) {
  const trpc = useTRPC();
  const [weights, setWeights] = useState(() => weightsFromUrl(axes, initialWeights));
  const [by, setBy] = useState<Axis>(() => orderFromUrl(initialOrder));
  const changed = changedWeights(axes, weights);
  const [asked, setAsked] = useState(changed);
  useEffect(() => {
    const timer = setTimeout(() => setAsked(changed), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [changed]);
  useEffect(() => remember(asked, by), [asked, by]);

  const whatif = useQuery({
    ...trpc.readings.whatif.queryOptions(
      { marketId, weights: asked, country, ...(release === undefined ? {} : { release }) },
      { placeholderData: keepPreviousData },
    ),
    enabled: asked !== "",
  });
  const setWeight = (id: string, weight: number) => setWeights((current) => new Map(current).set(id, weight));
  // Shown only for the weights asked: while a newer answer is on its way the last one stays, marked busy.
  const reading = asked === "" ? undefined : whatif.data;
  const rows = reading ? whatIfRows(reading, by) : undefined;
  // Back at the published weights nothing is asked: the published scores need no answer.
  const busy = changed !== "" && (asked !== changed || whatif.isFetching);
  const movedCount = changed === "" ? 0 : changed.split(",").length;
  // Set once the sliders answer (hydrated): before that a key press moves nothing.
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);

  return (
    <section aria-labelledby="whatif-title" className="whatif" data-testid="whatif" data-live={live || undefined}>
      <h2 id="whatif-title">What if the weights were different?</h2>
      <p className="notice whatif-note" role="note" data-testid="whatif-note">
        <strong>Not the published ranking.</strong> Nothing is stored; the link keeps your weights.
      </p>
      <div className="whatif-layout">
        <div className="whatif-sliders" data-testid="whatif-sliders">
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
                    <span className="weight-head">
                      <span>{indicator.name}</span> <output data-testid={`weight-${indicator.id}`}>{value}</output>
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
                      data-axis={axis.id}
                      aria-label={`${indicator.name} weight`}
                      onChange={(event) => setWeight(indicator.id, Number(event.target.value))}
                    />
                  </label>
                );
              })}
            </fieldset>
          ))}
          <p>
            <button type="button" className="secondary" onClick={() => setWeights(new Map())} disabled={changed === ""}>
              Back to the published weights
            </button>
          </p>
        </div>
        <Results busy={busy}>
          <Summary
            state={
              changed === ""
                ? { kind: "published" }
                : whatif.error && !busy
                  ? { kind: "refused", sentence: refusalText(whatif.error) }
                  : rows
                    ? { kind: "scored", rows }
                    : { kind: "waiting" }
            }
            by={by}
            movedCount={movedCount}
            busy={busy}
          />
          {rows && changed !== "" && !(whatif.error && !busy) ? (
            <div className="whatif-tables" id="whatif-tables">
              <OrderBy by={by} onChange={setBy} />
              <WhatIfTables rows={rows} by={by} />
            </div>
          ) : null}
        </Results>
      </div>
    </section>
  );
}

/**
 * The refusal as the API words it: its issues are sentences a person reads as they are
 * (server/2-scoring/whatif.ts), so the page shows them without the detail's lead-in.
 */
function refusalText(error: unknown): string {
  const issues = (error as { shape?: { problem?: { issues?: { message: string }[] } } } | null)?.shape?.problem?.issues;
  return issues?.length ? issues.map((issue) => issue.message).join(" ") : problemText(error);
}

/**
 * The results' column. On a desktop it sits beside the sliders and stays in view, scrolling on
 * its own when taller than the window: then it is a keyboard stop with a name (WCAG 2.1.1). On a
 * phone it is no box at all (display: contents), so its summary can be pinned above the sliders
 * and its tables follow them; it is then no stop either.
 */
function Results({ busy, children }: { busy: boolean; children: ReactNode }) {
  const frame = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollHeight > element.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    const mutations = new MutationObserver(() => {
      for (const child of element.children) observer.observe(child);
      measure();
    });
    mutations.observe(element, { childList: true });
    return () => {
      observer.disconnect();
      mutations.disconnect();
    };
  }, []);
  const region = scrolls ? { tabIndex: 0, role: "region", "aria-label": "What your weights move" } : {};
  return (
    <div ref={frame} className="whatif-results" data-testid="whatif-results" aria-busy={busy} {...region}>
      {children}
    </div>
  );
}

type SummaryState =
  | { kind: "published" }
  | { kind: "waiting" }
  | { kind: "refused"; sentence: string }
  | { kind: "scored"; rows: WhatIfRows };

/**
 * What the weights moved, axis by axis, in a few lines: the part of the results kept in sight
 * while a slider moves (pinned on a phone). Announced politely when it changes.
 */
function Summary({
  state,
  by,
  movedCount,
  busy,
}: {
  state: SummaryState;
  by: Axis;
  movedCount: number;
  busy: boolean;
}) {
  return (
    <div className="whatif-summary" data-testid="whatif-summary" data-state={state.kind} data-busy={busy}>
      {/* The right-hand side says "scoring…" while an answer is on its way, in the room of the
          link it then shows: the pinned summary keeps its height while a slider moves. */}
      <p className="whatif-summary-head">
        <strong>{movedCount === 0 ? "Published weights" : `Your weights: ${movedCount} changed`}</strong>
        {busy ? (
          <span className="hint">scoring…</span>
        ) : state.kind === "scored" ? (
          <a className="whatif-jump" href="#whatif-tables">
            Every product
          </a>
        ) : null}
      </p>
      <div aria-live="polite" aria-atomic="true">
        {state.kind === "published" ? (
          <p className="hint">Every score and rank as published. Move any weight: what it changes shows here.</p>
        ) : state.kind === "waiting" ? (
          <p className="hint">Scoring every product with your weights…</p>
        ) : state.kind === "refused" ? (
          <p className="whatif-refused" data-testid="whatif-refused">
            {state.sentence}
          </p>
        ) : (
          <AxisLines rows={state.rows} by={by} />
        )}
      </div>
    </div>
  );
}

function AxisLines({ rows, by }: { rows: WhatIfRows; by: Axis }) {
  const moves = axisMoves(rows.capabilityIndex);
  const ranked = rankMoves(rows.capabilityIndex);
  const rankedUnder = rows.max ? rankMoves(rows.max.ranked) : 0;
  return (
    <ul className="whatif-moves">
      {moves.map((move) => (
        <li key={move.axis} data-axis={move.axis} data-testid={`summary-${move.axis}`}>
          <strong>{AXIS_LABELS[move.axis]}</strong> <AxisMoveText move={move} />
          {move.axis === by ? (
            <span data-testid="summary-ranks">
              {" "}
              · ranks:{" "}
              {ranked === 0 && rankedUnder === 0
                ? "none move"
                : `${count(ranked)} of ${count(rows.capabilityIndex.length)} move${rows.max ? `, ${count(rankedUnder)} of ${count(rows.max.ranked.length)} under ${rows.max.country}` : ""}`}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function AxisMoveText({ move }: { move: AxisMove }) {
  if (!move.largest) return <span className="hint">as published</span>;
  const { name, change, now } = move.largest;
  return (
    <span>
      {count(move.changed)} of {count(move.of)} change; largest:{" "}
      <span className={change > 0 ? "score-up" : "score-down"}>
        {name} {signedScore(change)}
      </span>
      , now {score(now)}
    </span>
  );
}

function OrderBy({ by, onChange }: { by: Axis; onChange: (axis: Axis) => void }) {
  return (
    <div className="whatif-order">
      <span id="whatif-order-label">Order by</span>
      <fieldset className="segmented" aria-labelledby="whatif-order-label">
        {AXES.map((axis) => (
          <label key={axis} className={axis === by ? "active" : undefined}>
            <input
              type="radio"
              name="whatif-order"
              value={axis}
              checked={axis === by}
              onChange={() => onChange(axis)}
              data-testid={`whatif-by-${axis}`}
            />
            {AXIS_LABELS[axis]}
          </label>
        ))}
      </fieldset>
    </div>
  );
}

/** At most a dozen names, then how many more: a large market's excluded never fill the screen. */
const NAMED = 12;
function unavailableNames(products: readonly { name: string; vendor: string }[]): string {
  const named = products.slice(0, NAMED).map((p) => `${p.name} (${p.vendor})`);
  const more = products.length - named.length;
  return more > 0
    ? `${named.join(", ")} and ${count(more)} more (the Availability view lists them all)`
    : named.join(", ");
}

function WhatIfTables({ rows, by }: { rows: WhatIfRows; by: Axis }) {
  const label = AXIS_LABELS[by];
  return (
    <>
      <TableWrap label="Every product with your weights">
        <MoveTable
          testId="whatif-capaindex"
          caption={
            by === "innovation"
              ? "Capability Index with your weights (not published)"
              : `Every product by ${label}, with your weights (not published)`
          }
          valueLabel={(axis) => AXIS_LABELS[axis]}
          rows={rows.capabilityIndex}
          by={by}
        />
      </TableWrap>
      {rows.max ? (
        <>
          <TableWrap label={`Under ${rows.max.country}'s controls with your weights`}>
            <MoveTable
              testId="whatif-max"
              caption={
                by === "innovation"
                  ? `Max under ${rows.max.country} with your weights (not published)`
                  : `Under ${rows.max.country}'s controls by the ${label} kept, with your weights (not published)`
              }
              valueLabel={(axis) => `${AXIS_LABELS[axis]} kept`}
              rows={rows.max.ranked}
              by={by}
              under
            />
          </TableWrap>
          {rows.max.unavailable.length > 0 ? (
            <p className="whatif-unavailable" data-testid="whatif-unavailable">
              <strong>Unavailable under {rows.max.country}&apos;s controls</strong> — no offering meets them all, so no
              rank and no score: {unavailableNames(rows.max.unavailable)}.
            </p>
          ) : null}
        </>
      ) : null}
    </>
  );
}

/**
 * One ranking with the reader's weights: rank, the move against the published rank, the product,
 * then each axis — the value now, and its change from the published value (or "as published").
 */
function MoveTable({
  testId,
  caption,
  valueLabel,
  rows,
  by,
  under,
}: {
  testId: string;
  caption: string;
  valueLabel: (axis: Axis) => string;
  rows: readonly WhatIfRow[];
  by: Axis;
  /** The table reads under a country: its ranks and values carry `data-under`. */
  under?: boolean;
}) {
  const { shown, pager, pagerEnd } = usePaged(rows, "products", testId);
  return (
    <>
      {pager}
      <table data-testid={testId} data-order={by} className="whatif-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              Rank
            </th>
            <th scope="col">Move</th>
            <th scope="col">Product</th>
            {AXES.map((axis) => (
              <th key={axis} scope="col" className="num" aria-sort={axis === by ? "descending" : undefined}>
                {valueLabel(axis)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((p) => (
            <tr key={p.productId} data-product-id={p.productId} data-rank-change={p.rankChange}>
              <td className="num whatif-rank" data-label="Rank" data-under={under || undefined}>
                {p.rank}
              </td>
              <td className="whatif-move" data-label="Move">
                <RankMove change={p.rankChange} /> <span className="hint">from {p.publishedRank}</span>
              </td>
              <th scope="row">
                {p.name} <span className="hint whatif-vendor">{p.vendor}</span>
              </th>
              {AXES.map((axis) => {
                const change = scoreChange(p, axis);
                return (
                  <td
                    key={axis}
                    className="num whatif-score"
                    data-label={valueLabel(axis)}
                    data-axis={axis}
                    data-now={p.now[axis]}
                    data-under={under || undefined}
                  >
                    <span className="score-now">{score(p.now[axis])}</span>{" "}
                    <span className={`score-change ${change > 0 ? "score-up" : change < 0 ? "score-down" : "hint"}`}>
                      {change === 0 ? "as published" : `${signedScore(change)} from ${score(p.published[axis])}`}
                    </span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {pagerEnd}
    </>
  );
}
