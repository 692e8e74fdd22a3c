"use client";
/**
 * One axis of a product taken apart: each indicator's contribution to the score in points, largest
 * first, as horizontal bars in front of a ghost of the most it could add (its weight's share);
 * indicators not demonstrated are marked so. The table under it (open) gives every number the
 * chart is drawn from and the evidence behind each value; the CSV is that table.
 */
import {
  Bar,
  BarChart,
  CartesianGrid,
  ResponsiveContainer,
  Tooltip,
  useChartWidth,
  useXAxisScale,
  XAxis,
  YAxis,
} from "recharts";
import { ChartFigure } from "@/components/charts/chart-figure";
import { fitText } from "@/server/2-charts/label-placement";
import { type Column, csvFileName } from "@/server/2-formats/csv";
import { EvidenceBlock, valueText } from "./evidence";
import { AXIS_LABELS, type Axis, type AxisBreakdown, type IndicatorContribution } from "./types";

/** Each row: the indicator and its value on one line, the bar under it. */
const ROW_HEIGHT = 42;
const NAME_HEIGHT = 16;
/** The size `.bar-name` is drawn at (app/globals.css), for fitting a name to the chart's width. */
const NAME_FONT_SIZE = 12;

interface ContributionBar {
  indicatorId: string;
  name: string;
  value: string;
  contribution: number;
  /** The most this indicator could add: 100 × weight ÷ the axis's weight total. */
  share: number;
  gap: boolean;
}

/** Largest contribution first; ties by the heavier weight, then by name. */
export function byContribution(indicators: readonly IndicatorContribution[]): IndicatorContribution[] {
  return [...indicators].sort(
    (a, b) => b.contribution - a.contribution || b.weight - a.weight || a.name.localeCompare(b.name),
  );
}

const fixed = (n: number, digits: number) => n.toFixed(digits);

interface ShapeProps {
  x?: number;
  y?: number;
  height?: number;
  payload?: ContributionBar;
}

function ContributionMark({ x = 0, y = 0, height = 0, payload }: ShapeProps) {
  const scale = useXAxisScale();
  const chartWidth = useChartWidth();
  if (!payload || !scale) return null;
  const left = scale(0) ?? x;
  const name = `${payload.name}: ${payload.value}`;
  // Cut with "…" only when wider than the chart (a phone); the table and tooltip keep it whole.
  const shown = chartWidth ? fitText(name, NAME_FONT_SIZE, chartWidth - left - 4) : name;
  const end = scale(payload.contribution) ?? left;
  const ceiling = scale(payload.share) ?? end;
  const barTop = y + NAME_HEIGHT;
  const barHeight = Math.max(4, height - NAME_HEIGHT);
  return (
    <g
      data-mark="contribution"
      data-indicator-id={payload.indicatorId}
      data-contribution={payload.contribution}
      className={payload.gap ? "bar-mark contribution gap" : "bar-mark contribution"}
    >
      <text x={left} y={y + NAME_HEIGHT - 4} className="bar-name">
        {shown !== name ? <title>{name}</title> : null}
        {shown}
      </text>
      <rect className="ghost" x={left} y={barTop} width={Math.max(0, ceiling - left)} height={barHeight} rx={2} />
      <rect className="kept" x={left} y={barTop} width={Math.max(0, end - left)} height={barHeight} rx={2} />
      <text x={Math.max(end, ceiling) + 6} y={barTop + barHeight / 2} dominantBaseline="central" className="bar-label">
        {payload.gap ? "not demonstrated" : `+${fixed(payload.contribution, 1)} pts`}
      </text>
    </g>
  );
}

function ContributionTooltip({
  active,
  payload,
}: {
  active?: boolean;
  payload?: readonly { payload?: ContributionBar }[];
}) {
  const bar = active ? payload?.[0]?.payload : undefined;
  if (!bar) return null;
  return (
    <div className="chart-tooltip">
      <strong>{bar.name}</strong>
      <dl>
        <dt>Value</dt>
        <dd>{bar.value}</dd>
        <dt>Contribution</dt>
        <dd>{fixed(bar.contribution, 1)} pts</dd>
        <dt>At most</dt>
        <dd>{fixed(bar.share, 1)} pts</dd>
      </dl>
    </div>
  );
}

function ContributionBars({ bars }: { bars: readonly ContributionBar[] }) {
  const top = Math.max(10, ...bars.map((b) => b.share));
  const domainMax = Math.ceil(top / 5) * 5;
  return (
    <ResponsiveContainer width="100%" height={bars.length * ROW_HEIGHT + 44}>
      <BarChart
        data={[...bars]}
        layout="vertical"
        margin={{ top: 8, right: 112, bottom: 4, left: 8 }}
        barCategoryGap={6}
      >
        <CartesianGrid horizontal={false} strokeDasharray="3 3" />
        <XAxis type="number" domain={[0, domainMax]} unit=" pts" tickCount={Math.min(6, domainMax / 5 + 1)} />
        <YAxis type="category" dataKey="indicatorId" hide />
        <Tooltip
          cursor={{ fill: "rgba(31, 95, 191, 0.06)" }}
          content={(props) => (
            <ContributionTooltip
              active={props.active}
              payload={props.payload as readonly { payload?: ContributionBar }[] | undefined}
            />
          )}
        />
        <Bar
          dataKey="contribution"
          isAnimationActive={false}
          shape={(props: unknown) => <ContributionMark {...(props as ShapeProps)} />}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** The CSV's columns: every fact in a field of its own. */
const COLUMNS: Column<IndicatorContribution>[] = [
  { label: "Indicator", value: (i) => i.name },
  { label: "Value", value: (i) => valueText(i.value) },
  { label: "Unit", value: (i) => i.unit ?? "" },
  { label: "Normalised", value: (i) => i.normalized, numeric: true, decimals: 2 },
  { label: "Weight", value: (i) => i.weight, numeric: true },
  { label: "Contribution (pts)", value: (i) => i.contribution, numeric: true, decimals: 1 },
  { label: "Field (min–max)", value: (i) => (i.field ? `${i.field.min}–${i.field.max}` : "") },
  { label: "Source", value: (i) => i.evidence?.source ?? "" },
  { label: "As of", value: (i) => i.evidence?.asOf ?? "" },
  { label: "Confidence", value: (i) => i.evidence?.confidence ?? "" },
  { label: "Note", value: (i) => i.evidence?.note ?? "" },
];

/** The table's: the same facts, a value with its unit and the evidence in one cell, so it fits its card at 1280. */
const TABLE_COLUMNS: Column<IndicatorContribution>[] = [
  { label: "Indicator", value: (i) => i.name },
  { label: "Value", value: (i) => valueText(i.value, i.unit) },
  { label: "Normalised", value: (i) => i.normalized, numeric: true, decimals: 2 },
  { label: "Weight", value: (i) => i.weight, numeric: true },
  { label: "Contribution (pts)", value: (i) => i.contribution, numeric: true, decimals: 1 },
  { label: "Field (min–max)", value: (i) => (i.field ? `${i.field.min}–${i.field.max}` : "") },
  { label: "Evidence", value: (i) => i.evidence?.source ?? "" },
];

/** The table's cells that are more than text: a gap marked, the evidence with its link and date. */
function tableCell(label: string, i: IndicatorContribution) {
  if (label === "Value" && i.gap) return <strong className="gap-mark">not demonstrated</strong>;
  if (label === "Evidence") return <EvidenceBlock evidence={i.evidence} />;
  return undefined;
}

export function ContributionFigure({
  axis,
  breakdown,
  marketId,
  release,
  productId,
}: {
  axis: Axis;
  breakdown: AxisBreakdown;
  marketId: string;
  release: number;
  productId: string;
}) {
  const name = AXIS_LABELS[axis];
  const rows = byContribution(breakdown.indicators);
  const bars: ContributionBar[] = rows.map((i) => ({
    indicatorId: i.indicatorId,
    name: i.name,
    value: valueText(i.value, i.unit),
    contribution: i.contribution,
    share: (100 * i.weight) / breakdown.weightTotal,
    gap: i.gap,
  }));
  // Added up here, in tenths, from the same numbers the table shows.
  const sum = rows.reduce((total, i) => total + Math.round(i.contribution * 10), 0) / 10;
  const gaps = rows.filter((i) => i.gap).length;
  const leader = rows[0];
  return (
    <ChartFigure
      id={`contributions-${axis}`}
      title={`${name}: what each indicator adds`}
      summary={`${rows.length} indicators add up to the ${name} score of ${fixed(breakdown.score, 1)}${
        leader && leader.contribution > 0
          ? `; ${leader.name} adds the most, ${fixed(leader.contribution, 1)} points`
          : ""
      }${gaps ? `; ${gaps} not demonstrated (0 points)` : ""}. Each bar stands in front of the most that indicator could add.`}
      columns={COLUMNS}
      tableColumns={TABLE_COLUMNS}
      rows={rows}
      rowKey={(i) => i.indicatorId}
      fileName={csvFileName(marketId, `r${release}`, productId, axis, "contributions")}
      cell={tableCell}
      tableOpen
    >
      <ContributionBars bars={bars} />
      <p className="contribution-sum" data-testid={`contributions-sum-${axis}`}>
        The contributions add up to the {name} score: {rows.map((i) => fixed(i.contribution, 1)).join(" + ")} ={" "}
        <strong data-testid={`contributions-total-${axis}`}>{fixed(sum, 1)}</strong>. A contribution is 100 × weight ×
        normalised value ÷ {breakdown.weightTotal} (the axis's weights), rounded so that they add up exactly.
      </p>
    </ChartFigure>
  );
}
