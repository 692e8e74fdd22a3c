"use client";
/**
 * The delta as a map: Innovation (y) against Control (x). Each product is one streak from its
 * published point (hollow) to its point under the controls (filled), with an arrowhead showing the
 * direction; a product that does not move is a single dot. Hover or focus a point for its values.
 */
import { useMemo } from "react";
import {
  CartesianGrid,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  usePlotArea,
  useXAxisScale,
  useYAxisScale,
  XAxis,
  YAxis,
} from "recharts";
import { score } from "@/components/format";
import type { Point, Streak } from "@/server/2-charts/chart-data";
import { arrowHead, signed } from "@/server/2-charts/geometry";
import {
  type Box,
  type LabelPoint,
  placeLabels,
  type Segment,
  streakLabelPlacement,
} from "@/server/2-charts/label-placement";
import { round1 } from "../../server/2-scoring/round";

const AXIS_TICKS = [0, 20, 40, 60, 80, 100];
/** The labels' font size in pixels: drawn with it, and placed by it. */
const LABEL_FONT_SIZE = 12;
/** The radius the placement keeps clear around a product's point (its largest mark is r = 5). */
const POINT_RADIUS = 5;

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
    </g>
  );
}

/**
 * Every product's name, drawn after the marks and placed all at once (components/charts/
 * label-placement.ts) so that no two overlap and none covers a point: beside its point when there
 * is room, else further out with a leader line. A name with no room anywhere is left out; the
 * tooltip and the table still give it. Names are React text, never markup.
 */
function StreakLabels({ streaks }: { streaks: readonly Streak[] }) {
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  const plot = usePlotArea();
  const pixel = (point: Point) => ({ x: xScale?.(point.x) ?? 0, y: yScale?.(point.y) ?? 0 });
  const { points, obstacles, segments } = streakLabelPlacement(streaks, pixel, POINT_RADIUS);
  const bounds = plot ? { left: plot.x, top: plot.y, width: plot.width, height: plot.height } : null;
  // Placed again only when a point, a name or the plot moves (not on every hover).
  const input = JSON.stringify({ points, obstacles, segments, bounds });
  const placed = useMemo(() => {
    const given = JSON.parse(input) as {
      points: LabelPoint[];
      obstacles: Box[];
      segments: Segment[];
      bounds: Box | null;
    };
    if (!given.bounds) return [];
    return placeLabels(given.points, {
      bounds: given.bounds,
      fontSize: LABEL_FONT_SIZE,
      obstacles: given.obstacles,
      segments: given.segments,
    });
  }, [input]);
  if (!xScale || !yScale) return null;
  const unavailable = new Set(streaks.filter((s) => !s.available).map((s) => s.productId));
  return (
    <g className="streak-labels">
      {placed.map((label) =>
        label.hidden ? null : (
          <g key={label.id} data-label-for={label.id}>
            {label.leader ? (
              <line
                x1={label.leader.x1}
                y1={label.leader.y1}
                x2={label.leader.x2}
                y2={label.leader.y2}
                className="streak-leader"
              />
            ) : null}
            <text
              x={label.x}
              y={label.y}
              textAnchor={label.anchor}
              fontSize={LABEL_FONT_SIZE}
              className={unavailable.has(label.id) ? "streak-label unavailable" : "streak-label"}
            >
              {label.text}
            </text>
          </g>
        ),
      )}
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
              <td className="num">{score(streak.from[axis])}</td>
              <td className="num">{score(streak.to[axis])}</td>
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
    // Its size comes from CSS (.delta-map-plot): wide on a desktop, nearly square on a phone, where
    // the names need the height.
    <div className="delta-map-plot">
      <ResponsiveContainer width="100%" height="100%">
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
          <StreakLabels streaks={streaks} />
        </ScatterChart>
      </ResponsiveContainer>
    </div>
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
