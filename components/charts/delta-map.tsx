"use client";
/**
 * The delta as a map: Innovation (y) against Control (x). Each product is one streak from its
 * published point (hollow) to its point under the controls (filled), with an arrowhead showing the
 * direction; a product that does not move is a single dot. Hover or focus a point for its values.
 */
import {
  CartesianGrid,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  useXAxisScale,
  useYAxisScale,
  XAxis,
  YAxis,
} from "recharts";
import { round1 } from "../../server/scoring/round";
import type { Streak } from "./chart-data";
import { arrowHead, signed } from "./geometry";

const AXIS_TICKS = [0, 20, 40, 60, 80, 100];

interface ShapeProps {
  cx?: number;
  cy?: number;
  payload?: Streak;
}

function StreakMark({ cx = 0, cy = 0, payload }: ShapeProps) {
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  if (!payload || !xScale || !yScale) return null;
  const from = { x: xScale(payload.from.x) ?? cx, y: yScale(payload.from.y) ?? cy };
  const to = { x: cx, y: cy };
  // Labels in the right half read leftwards, so they stay inside the plot.
  const labelAt = payload.available ? to : from;
  const leftwards = labelAt.x > (xScale(50) ?? Number.POSITIVE_INFINITY);
  const label = (
    <text
      x={labelAt.x + (leftwards ? -8 : 8)}
      y={labelAt.y - 7}
      textAnchor={leftwards ? "end" : "start"}
      className="streak-label"
    >
      {payload.name}
      {payload.available ? "" : " (unavailable)"}
    </text>
  );
  // An unavailable product has no point under the controls (its scores are zeros): it is drawn
  // where it was published, crossed out, rather than as a streak into the corner.
  if (!payload.available)
    return (
      <g
        data-mark="streak"
        data-product-id={payload.productId}
        data-moves={payload.moves}
        className="streak unavailable"
      >
        <circle cx={from.x} cy={from.y} r={5} className="streak-from" />
        <path
          d={`M${from.x - 4},${from.y - 4}L${from.x + 4},${from.y + 4}M${from.x - 4},${from.y + 4}L${from.x + 4},${from.y - 4}`}
          className="streak-cross"
        />
        {label}
      </g>
    );
  return (
    <g data-mark="streak" data-product-id={payload.productId} data-moves={payload.moves} className="streak">
      {payload.moves ? (
        <>
          <line x1={from.x} y1={from.y} x2={to.x} y2={to.y} className="streak-line" />
          <circle cx={from.x} cy={from.y} r={4} className="streak-from" />
          <polygon points={arrowHead(from, to)} className="streak-arrow" />
        </>
      ) : null}
      <circle cx={to.x} cy={to.y} r={payload.moves ? 3 : 5} className="streak-to" />
      {label}
    </g>
  );
}

function StreakTooltip({ active, payload }: { active?: boolean; payload?: readonly { payload?: Streak }[] }) {
  const streak = active ? payload?.[0]?.payload : undefined;
  if (!streak) return null;
  return (
    <div className="chart-tooltip">
      <strong>{streak.name}</strong> <span className="hint">{streak.vendor}</span>
      {streak.available ? null : <p>Unavailable under these controls.</p>}
      <table>
        <thead>
          <tr>
            <th />
            <th className="num">Published</th>
            <th className="num">Under controls</th>
            <th className="num">Change</th>
          </tr>
        </thead>
        <tbody>
          {(["y", "x"] as const).map((axis) => (
            <tr key={axis}>
              <th scope="row">{axis === "y" ? "Innovation" : "Control"}</th>
              <td className="num">{streak.from[axis].toFixed(1)}</td>
              <td className="num">{streak.to[axis].toFixed(1)}</td>
              <td className="num">{signed(round1(streak.to[axis] - streak.from[axis]))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function DeltaMap({ streaks }: { streaks: readonly Streak[] }) {
  // The point recharts hovers is where the product is drawn: under controls, or where it was
  // published when it is unavailable there.
  const points = streaks.map((streak) => {
    const at = streak.available ? streak.to : streak.from;
    return { ...streak, x: at.x, y: at.y };
  });
  return (
    <ResponsiveContainer width="100%" aspect={1.45} maxHeight={560}>
      <ScatterChart margin={{ top: 16, right: 24, bottom: 24, left: 4 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis
          type="number"
          dataKey="x"
          name="Control"
          domain={[0, 100]}
          ticks={AXIS_TICKS}
          label={{ value: "Control →", position: "insideBottom", offset: -14 }}
        />
        <YAxis
          type="number"
          dataKey="y"
          name="Innovation"
          domain={[0, 100]}
          ticks={AXIS_TICKS}
          width={44}
          label={{ value: "Innovation →", angle: -90, position: "insideLeft", offset: 10 }}
        />
        <Tooltip
          cursor={false}
          content={(props) => (
            <StreakTooltip
              active={props.active}
              payload={props.payload as readonly { payload?: Streak }[] | undefined}
            />
          )}
        />
        <Scatter
          data={points}
          isAnimationActive={false}
          shape={(props: unknown) => <StreakMark {...(props as ShapeProps)} />}
        />
      </ScatterChart>
    </ResponsiveContainer>
  );
}

/** What the marks mean, in words, under the map. */
export function DeltaMapLegend() {
  return (
    <ul className="chart-legend" aria-label="Legend">
      <li>
        <svg width="16" height="12" aria-hidden="true">
          <circle cx="8" cy="6" r="4" className="streak-from" />
        </svg>
        published
      </li>
      <li>
        <svg width="40" height="12" aria-hidden="true">
          <line x1="2" y1="6" x2="34" y2="6" className="streak-line" />
          <polygon points={arrowHead({ x: 2, y: 6 }, { x: 36, y: 6 })} className="streak-arrow" />
        </svg>
        under the controls (arrow: direction of the move)
      </li>
      <li className="unavailable-key">
        <svg width="16" height="12" aria-hidden="true">
          <path d="M4,2L12,10M4,10L12,2" className="streak-cross" />
        </svg>
        unavailable under the controls
      </li>
    </ul>
  );
}
