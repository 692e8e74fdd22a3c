"use client";
/**
 * A product's history on one yardstick, small: per axis, each release's published score (dashed,
 * hollow points) and the same release restated under the yardstick's methodology (solid), so a
 * move the method made is told apart from a move the product made. Restated numbers are labelled
 * as such everywhere; published releases never change. Table alternative and CSV, as every chart.
 */
import type { inferRouterOutputs } from "@trpc/server";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartFigure } from "@/components/charts/chart-figure";
import { type Column, csvFileName } from "@/server/2-formats/csv";
import type { AppRouter } from "@/server/7-routers/root";
import { AXES, AXIS_LABELS } from "./types";

export type ProductHistory = inferRouterOutputs<AppRouter>["readings"]["history"];
type Row = ProductHistory["releases"][number];

export function RestatedHistory({ history }: { history: ProductHistory }) {
  const columns: Column<Row>[] = [
    { label: "Release", value: (r) => r.release, numeric: true },
    { label: "Published on", value: (r) => r.lastUpdated.slice(0, 10) },
    { label: "Methodology", value: (r) => r.methodologyVersion },
    ...AXES.flatMap((axis): Column<Row>[] => [
      { label: `${AXIS_LABELS[axis]} published`, value: (r) => r.published.scores[axis], numeric: true, decimals: 1 },
      {
        label: `${AXIS_LABELS[axis]} restated`,
        value: (r) => r.restated.scores[axis],
        numeric: true,
        decimals: 1,
      },
    ]),
  ];
  const { yardstick } = history;
  return (
    <ChartFigure
      id="restated-history"
      title={`History, restated under methodology ${yardstick.methodologyVersion} (release ${yardstick.release})`}
      summary={`${history.name}'s scores in each release as published (dashed) and restated under release ${yardstick.release}'s methodology (solid): where the two lines part, the method moved, not the product.`}
      columns={columns}
      rows={history.releases}
      rowKey={(r) => String(r.release)}
      fileName={csvFileName(history.marketId, history.productId, "history", `restated-r${yardstick.release}`)}
    >
      <div className="small-multiples">
        {AXES.map((axis) => (
          <div key={axis} className="small-multiple" data-testid={`history-${axis}`}>
            <p className="small-multiple-title">{AXIS_LABELS[axis]}</p>
            <ResponsiveContainer width="100%" height={150}>
              <LineChart
                data={history.releases.map((r) => ({
                  release: `r${r.release}`,
                  published: r.published.scores[axis],
                  restated: r.restated.scores[axis],
                }))}
                margin={{ top: 6, right: 8, bottom: 0, left: 0 }}
              >
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="release" />
                <YAxis domain={[0, 100]} width={30} />
                <Tooltip />
                <Legend iconSize={10} />
                <Line
                  type="linear"
                  dataKey="published"
                  name="Published"
                  stroke="#57606a"
                  strokeDasharray="4 3"
                  dot={{ r: 3, fill: "#fff" }}
                  isAnimationActive={false}
                />
                <Line
                  type="linear"
                  dataKey="restated"
                  name="Restated"
                  stroke="var(--accent)"
                  strokeWidth={2}
                  dot={{ r: 3 }}
                  isAnimationActive={false}
                />
              </LineChart>
            </ResponsiveContainer>
          </div>
        ))}
      </div>
    </ChartFigure>
  );
}
