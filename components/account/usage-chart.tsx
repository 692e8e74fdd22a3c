"use client";
import Link from "next/link";
/** Credits spent per day, as bars, in the dashboard's chart frame (table alternative and CSV). */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { type Column, csvFileName } from "@/server/2-formats/csv";
import { CONNECT_PATH, TOKENS_PATH } from "@/server/2-http/paths";
import { ChartFigure } from "../charts/chart-figure";
import { credits, shortDay } from "../format";

export interface DayUsage {
  day: string;
  credits: number;
  calls: number;
}

const COLUMNS: Column<DayUsage>[] = [
  { label: "Day (UTC)", value: (d) => d.day },
  { label: "Calls", value: (d) => d.calls, numeric: true },
  { label: "Credits", value: (d) => d.credits, numeric: true },
];

export function UsageChart({ days }: { days: DayUsage[] }) {
  const total = days.reduce((sum, d) => sum + d.credits, 0);
  if (total === 0)
    return (
      <p className="notice" data-testid="usage-empty">
        No credits spent in the last {days.length} days. Create a token on <Link href={TOKENS_PATH}>API tokens</Link> or
        connect an MCP client on <Link href={CONNECT_PATH}>Connect MCP</Link>: each paid call then shows here, by day.
      </p>
    );
  return (
    <ChartFigure
      id="usage-chart"
      title="Credits spent per day"
      summary={`Credits spent per day over the last ${days.length} days: ${credits(total)} in all.`}
      columns={COLUMNS}
      rows={days.filter((d) => d.calls > 0)}
      rowKey={(d) => d.day}
      fileName={csvFileName("usage", days[0]?.day, days.at(-1)?.day)}
    >
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tickFormatter={shortDay} minTickGap={16} />
          <YAxis allowDecimals={false} width={48} />
          <Tooltip formatter={(value) => [`${value} credits`, "Spent"]} labelFormatter={(day) => String(day)} />
          <Bar dataKey="credits" fill="var(--accent)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
