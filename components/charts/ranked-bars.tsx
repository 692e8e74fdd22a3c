"use client";
/**
 * A ranking as horizontal bars, one per product, best first. Behind each bar a ghost may show the
 * product's ceiling (what it published), so the gap is what it gives up; dashed lines may mark the
 * band cutoffs of the axis. Marks are drawn by our own shape so that every product has exactly one,
 * even at zero, and carries its product id.
 */
import { useState } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  useChartWidth,
  usePlotArea,
  useXAxisScale,
  XAxis,
  YAxis,
} from "recharts";
import { score } from "@/components/format";
import { type GhostBar, rankLabel } from "@/server/2-charts/chart-data";
import { fitText, textWidth } from "@/server/2-charts/label-placement";
import { rankRangeText } from "../../server/2-readings/rank";

export interface Cutoff {
  name: string;
  from: number;
}

interface RankedBarsProps {
  bars: readonly GhostBar[];
  /** Draw the published ceiling behind each bar. */
  ghost: boolean;
  valueLabel: string;
  ceilingLabel?: string;
  cutoffs?: readonly Cutoff[];
}

/**
 * Each row: the product's name on one line, its bar under it. A name is cut short (with an
 * ellipsis, the whole name in its title and the table) only when it is wider than the chart.
 */
const ROW_HEIGHT = 40;
const NAME_HEIGHT = 15;
/** The names' font size, as .bar-name in app/globals.css sets it. */
const NAME_FONT_SIZE = 12;
/** Band names over their cutoff lines: the font size, and the height of a row of them. */
const CUTOFF_FONT_SIZE = 11;
const CUTOFF_ROW = 13;

interface ShapeProps {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  payload?: GhostBar;
}

function GhostBarMark({ x = 0, y = 0, height = 0, payload, ghost }: ShapeProps & { ghost: boolean }) {
  const scale = useXAxisScale();
  const chartWidth = useChartWidth();
  if (!payload || !scale) return null;
  const left = scale(0) ?? x;
  // The rank's 90 % interval and an unsettled band travel with the name, so they are read with it.
  const name = [
    `${rankLabel(payload)} ${payload.name}`,
    payload.rankInterval && (payload.rankInterval.best !== payload.rankInterval.worst || payload.unsettled)
      ? ` · ${rankRangeText(payload.rankInterval)}`
      : "",
    payload.unsettled ? " · band not settled" : "",
    payload.excludedUnder ? ` · unavailable under ${payload.excludedUnder}` : "",
  ].join("");
  const shown = chartWidth ? fitText(name, NAME_FONT_SIZE, chartWidth - left - 4) : name;
  const end = scale(payload.value) ?? left;
  const ceiling = scale(payload.ceiling) ?? end;
  const barTop = y + NAME_HEIGHT;
  const barHeight = Math.max(4, height - NAME_HEIGHT);
  const whisker = payload.interval
    ? { low: scale(payload.interval.low) ?? end, high: scale(payload.interval.high) ?? end }
    : undefined;
  const labelX = Math.max(end, ghost ? ceiling : end, whisker?.high ?? end) + 6;
  const middle = barTop + barHeight / 2;
  return (
    <g
      data-mark="bar"
      data-product-id={payload.productId}
      data-value={payload.value}
      data-ceiling={payload.ceiling}
      className={payload.available ? "bar-mark" : "bar-mark unavailable"}
      data-excluded-under={payload.excludedUnder}
    >
      <text x={left} y={y + NAME_HEIGHT - 4} className="bar-name">
        {shown === name ? null : <title>{name}</title>}
        {shown}
      </text>
      {/* An unavailable product keeps nothing: no bar, no ghost at its published length. */}
      {ghost && payload.available ? (
        <rect className="ghost" x={left} y={barTop} width={Math.max(0, ceiling - left)} height={barHeight} rx={2} />
      ) : null}
      {/* A published value of a product the country excludes is drawn as published, hatched. */}
      {payload.available ? (
        <rect
          className={payload.excludedUnder ? "published-only" : "kept"}
          x={left}
          y={barTop}
          width={Math.max(0, end - left)}
          height={barHeight}
          rx={2}
        />
      ) : null}
      {whisker && payload.interval ? (
        <g className="whisker" data-mark="whisker" data-low={payload.interval.low} data-high={payload.interval.high}>
          <line x1={whisker.low} x2={whisker.high} y1={middle} y2={middle} />
          <line x1={whisker.low} x2={whisker.low} y1={middle - 4} y2={middle + 4} />
          <line x1={whisker.high} x2={whisker.high} y1={middle - 4} y2={middle + 4} />
        </g>
      ) : null}
      <text
        x={payload.available ? labelX : left}
        y={barTop + barHeight / 2}
        dominantBaseline="central"
        className="bar-label"
      >
        {payload.available ? score(payload.value) : "unavailable under these controls"}
        {payload.excludedUnder ? " published" : ""}
        {ghost && payload.givesUp !== null && payload.givesUp > 0 ? ` (−${score(payload.givesUp)})` : ""}
      </text>
    </g>
  );
}

/**
 * Rows for the band names over their cutoff lines, each centred on its line at `x(from)`: a name
 * that would run into one before it (close cutoffs, a narrow phone) goes up a row, so none
 * overlap. Widths are estimated as the delta map's labels are (label-placement.ts), generously.
 */
function cutoffRows(cutoffs: readonly Cutoff[], x: (value: number) => number) {
  const rowsEnd: number[] = [];
  return [...cutoffs]
    .sort((a, b) => a.from - b.from)
    .map((cutoff) => {
      const at = x(cutoff.from);
      const half = textWidth(cutoff.name, CUTOFF_FONT_SIZE) / 2;
      let row = rowsEnd.findIndex((end) => end + 4 <= at - half);
      if (row === -1) row = rowsEnd.length;
      rowsEnd[row] = at + half;
      return { cutoff, x: at, row };
    });
}

function CutoffLabels({ cutoffs }: { cutoffs: readonly Cutoff[] }) {
  const scale = useXAxisScale();
  const plot = usePlotArea();
  if (!scale || !plot) return null;
  return (
    <g className="cutoff-labels">
      {cutoffRows(cutoffs, (value) => scale(value) ?? 0).map(({ cutoff, x, row }) => (
        <text
          key={cutoff.name}
          x={x}
          y={plot.y - 5 - row * CUTOFF_ROW}
          textAnchor="middle"
          fontSize={CUTOFF_FONT_SIZE}
          className="cutoff-label"
        >
          {cutoff.name}
        </text>
      ))}
    </g>
  );
}

function BarTooltip({
  active,
  payload,
  valueLabel,
  ceilingLabel,
}: {
  active?: boolean;
  payload?: readonly { payload?: GhostBar }[];
  valueLabel: string;
  ceilingLabel?: string;
}) {
  const bar = active ? payload?.[0]?.payload : undefined;
  if (!bar) return null;
  return (
    <div className="chart-tooltip">
      <strong>
        {rankLabel(bar)} {bar.name}
      </strong>{" "}
      <span className="hint">{bar.vendor}</span>
      {bar.available ? (
        <dl>
          <dt>{valueLabel}</dt>
          <dd>{score(bar.value)}</dd>
          {bar.interval ? (
            <>
              <dt>90 % of draws</dt>
              <dd>
                {score(bar.interval.low)}–{score(bar.interval.high)}
              </dd>
            </>
          ) : null}
          {bar.rankInterval ? (
            <>
              <dt>Rank in 90 % of draws</dt>
              <dd>{rankRangeText(bar.rankInterval).replace("rank ", "")}</dd>
            </>
          ) : null}
          {bar.unsettled ? (
            <>
              <dt>Band</dt>
              <dd>not settled</dd>
            </>
          ) : null}
          {ceilingLabel ? (
            <>
              <dt>{ceilingLabel}</dt>
              <dd>{score(bar.ceiling)}</dd>
              <dt>Gives up</dt>
              <dd>{(bar.givesUp ?? 0).toFixed(1)}</dd>
            </>
          ) : null}
        </dl>
      ) : (
        <p>Unavailable: no offering meets every control.</p>
      )}
    </div>
  );
}

const MARGIN = { top: 20, right: 96, bottom: 4, left: 8 };

export function RankedBars({ bars, ghost, valueLabel, ceilingLabel, cutoffs = [] }: RankedBarsProps) {
  const drawn = cutoffs.filter((cutoff) => cutoff.from > 0);
  // As many rows above the plot as the band names need at this width (the plot spans the chart
  // between the margins, 0 to 100).
  const [width, setWidth] = useState(0);
  const span = Math.max(1, width - MARGIN.left - MARGIN.right);
  const rows = width
    ? Math.max(0, ...cutoffRows(drawn, (value) => MARGIN.left + (value / 100) * span).map((l) => l.row))
    : 0;
  const top = MARGIN.top + rows * CUTOFF_ROW;
  return (
    <ResponsiveContainer width="100%" height={bars.length * ROW_HEIGHT + 28 + top} onResize={(w) => setWidth(w)}>
      <BarChart data={[...bars]} layout="vertical" margin={{ ...MARGIN, top }} barCategoryGap={6}>
        <CartesianGrid horizontal={false} strokeDasharray="3 3" />
        <XAxis type="number" domain={[0, 100]} ticks={[0, 20, 40, 60, 80, 100]} />
        <YAxis type="category" dataKey="productId" hide />
        {drawn.map((cutoff) => (
          <ReferenceLine key={cutoff.name} x={cutoff.from} className="cutoff" stroke="#8a94a0" strokeDasharray="4 3" />
        ))}
        <CutoffLabels cutoffs={drawn} />
        <Tooltip
          cursor={{ fill: "rgba(31, 95, 191, 0.06)" }}
          content={(props) => (
            <BarTooltip
              active={props.active}
              payload={props.payload as readonly { payload?: GhostBar }[] | undefined}
              valueLabel={valueLabel}
              ceilingLabel={ceilingLabel}
            />
          )}
        />
        <Bar
          dataKey="value"
          isAnimationActive={false}
          shape={(props: unknown) => <GhostBarMark {...(props as ShapeProps)} ghost={ghost} />}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}
