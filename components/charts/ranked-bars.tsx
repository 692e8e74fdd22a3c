"use client";
/**
 * A ranking as horizontal bars, one per product, best first. Behind each bar a ghost may show the
 * product's ceiling (what it published), so the gap is what it gives up; dashed lines may mark the
 * band cutoffs of the axis. Marks are drawn by our own shape so that every product has exactly one,
 * even at zero, and carries its product id.
 */
import {
  Bar,
  BarChart,
  CartesianGrid,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  useXAxisScale,
  XAxis,
  YAxis,
} from "recharts";
import type { GhostBar } from "./chart-data";

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

/** Each row: the product's name on one line, its bar under it; names are never cut short. */
const ROW_HEIGHT = 40;
const NAME_HEIGHT = 15;

interface ShapeProps {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  payload?: GhostBar;
}

function GhostBarMark({ x = 0, y = 0, height = 0, payload, ghost }: ShapeProps & { ghost: boolean }) {
  const scale = useXAxisScale();
  if (!payload || !scale) return null;
  const left = scale(0) ?? x;
  const end = scale(payload.value) ?? left;
  const ceiling = scale(payload.ceiling) ?? end;
  const barTop = y + NAME_HEIGHT;
  const barHeight = Math.max(4, height - NAME_HEIGHT);
  const labelX = Math.max(end, ghost ? ceiling : end) + 6;
  return (
    <g
      data-mark="bar"
      data-product-id={payload.productId}
      data-value={payload.value}
      data-ceiling={payload.ceiling}
      className={payload.available ? "bar-mark" : "bar-mark unavailable"}
    >
      <text x={left} y={y + NAME_HEIGHT - 4} className="bar-name">
        {payload.rank}. {payload.name}
      </text>
      {ghost ? (
        <rect className="ghost" x={left} y={barTop} width={Math.max(0, ceiling - left)} height={barHeight} rx={2} />
      ) : null}
      <rect className="kept" x={left} y={barTop} width={Math.max(0, end - left)} height={barHeight} rx={2} />
      <text x={labelX} y={barTop + barHeight / 2} dominantBaseline="central" className="bar-label">
        {payload.available ? payload.value.toFixed(1) : "unavailable"}
        {ghost && payload.available && payload.givesUp > 0 ? ` (−${payload.givesUp.toFixed(1)})` : ""}
      </text>
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
        {bar.rank}. {bar.name}
      </strong>{" "}
      <span className="hint">{bar.vendor}</span>
      {bar.available ? (
        <dl>
          <dt>{valueLabel}</dt>
          <dd>{bar.value.toFixed(1)}</dd>
          {ceilingLabel ? (
            <>
              <dt>{ceilingLabel}</dt>
              <dd>{bar.ceiling.toFixed(1)}</dd>
              <dt>Gives up</dt>
              <dd>{bar.givesUp.toFixed(1)}</dd>
            </>
          ) : null}
        </dl>
      ) : (
        <p>Unavailable: no offering meets every control.</p>
      )}
    </div>
  );
}

export function RankedBars({ bars, ghost, valueLabel, ceilingLabel, cutoffs = [] }: RankedBarsProps) {
  return (
    <ResponsiveContainer width="100%" height={bars.length * ROW_HEIGHT + 48}>
      <BarChart
        data={[...bars]}
        layout="vertical"
        margin={{ top: 20, right: 96, bottom: 4, left: 8 }}
        barCategoryGap={6}
      >
        <CartesianGrid horizontal={false} strokeDasharray="3 3" />
        <XAxis type="number" domain={[0, 100]} ticks={[0, 20, 40, 60, 80, 100]} />
        <YAxis type="category" dataKey="productId" hide />
        {cutoffs
          .filter((cutoff) => cutoff.from > 0)
          .map((cutoff) => (
            <ReferenceLine
              key={cutoff.name}
              x={cutoff.from}
              className="cutoff"
              stroke="#8a94a0"
              strokeDasharray="4 3"
              label={{ value: cutoff.name, position: "top", fontSize: 11, fill: "#5b6876" }}
            />
          ))}
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
