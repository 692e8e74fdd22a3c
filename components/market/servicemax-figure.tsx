"use client";
/**
 * The Max reading: products ranked by the Innovation they keep with every control engaged. Each bar
 * is `on` in front of its `off` ghost; unavailable products say so and name the controls they miss.
 */
import { maxGhostBars, usableHeadline } from "@/components/charts/chart-data";
import { ChartFigure } from "@/components/charts/chart-figure";
import { signed } from "@/components/charts/geometry";
import { RankedBars } from "@/components/charts/ranked-bars";
import { productNameCell } from "@/components/product/product-link";
import { type Column, csvFileName } from "@/server/formats/csv";
import type { ServicemaxReading } from "./reading-types";

type Row = ServicemaxReading["products"][number];

export function ServicemaxFigure({
  reading,
  controlNames,
}: {
  reading: ServicemaxReading;
  controlNames: ReadonlyMap<string, string>;
}) {
  const missing = (p: Row) => p.missingControls.map((id) => controlNames.get(id) ?? id).join("; ");
  const columns: Column<Row>[] = [
    { label: "Rank", value: (p) => (p.available ? p.rank : null), numeric: true },
    { label: "Product", value: (p) => p.name },
    { label: "Vendor", value: (p) => p.vendor },
    { label: "State", value: (p) => (p.available ? "available" : "unavailable") },
    { label: "Offering", value: (p) => p.offering?.name ?? "" },
    { label: "Innovation off", value: (p) => p.off.innovation, numeric: true, decimals: 1 },
    { label: "Innovation on", value: (p) => (p.available ? p.on.innovation : null), numeric: true, decimals: 1 },
    { label: "Control off", value: (p) => p.off.control, numeric: true, decimals: 1 },
    { label: "Control on", value: (p) => (p.available ? p.on.control : null), numeric: true, decimals: 1 },
    { label: "Scale off", value: (p) => p.off.scale, numeric: true, decimals: 1 },
    { label: "Scale on", value: (p) => (p.available ? p.on.scale : null), numeric: true, decimals: 1 },
    {
      label: "Distance Innovation",
      value: (p) => (p.available ? p.distance.innovation : null),
      numeric: true,
      decimals: 1,
    },
    { label: "Distance Control", value: (p) => (p.available ? p.distance.control : null), numeric: true, decimals: 1 },
    { label: "Distance Scale", value: (p) => (p.available ? p.distance.scale : null), numeric: true, decimals: 1 },
    { label: "Distance", value: (p) => (p.available ? p.distance.magnitude : null), numeric: true, decimals: 1 },
    { label: "Missing controls", value: missing },
    {
      label: "Innovation on p5",
      value: (p) => (p.available ? p.retainedInterval.p5 : null),
      numeric: true,
      decimals: 1,
    },
    {
      label: "Innovation on p95",
      value: (p) => (p.available ? p.retainedInterval.p95 : null),
      numeric: true,
      decimals: 1,
    },
    { label: "Rank best (p5)", value: (p) => (p.available ? p.rankInterval.best : null), numeric: true },
    { label: "Rank worst (p95)", value: (p) => (p.available ? p.rankInterval.worst : null), numeric: true },
  ];
  const leader = reading.products.find((p) => p.available);
  // The usable first, in rank order; then the unavailable, unranked, by name.
  const rows = [
    ...reading.products.filter((p) => p.available),
    ...reading.products.filter((p) => !p.available).sort((a, b) => a.name.localeCompare(b.name)),
  ];
  return (
    <ChartFigure
      id="servicemax"
      title={`Max under ${reading.country}`}
      summary={`${usableHeadline(reading.products, reading.country)} The usable are ranked by the Innovation they keep${
        leader ? `; ${leader.name} keeps the most, ${leader.on.innovation.toFixed(1)}` : ""
      }. Each bar is the state on, in front of the state off; whiskers span the 5th–95th percentile of what it keeps across the sensitivity analysis. The unavailable follow, unranked, with no bar.`}
      columns={columns}
      rows={rows}
      rowKey={(p) => p.productId}
      fileName={csvFileName(reading.marketId, `r${reading.release}`, "max", reading.country)}
      cell={productNameCell(reading.marketId, reading.release)}
    >
      <RankedBars bars={maxGhostBars(reading)} ghost valueLabel="On (kept)" ceilingLabel="Off (published)" />
      <details className="max-states-details">
        <summary>Each product off and on, with its distance</summary>
        <ul className="max-states" data-testid="max-states">
          {rows.map((p) => (
            <li key={p.productId} data-product-id={p.productId} className={p.available ? undefined : "unavailable"}>
              <span className="max-name">
                {p.available ? `${p.rank}.` : "–"} {p.name}
              </span>{" "}
              {p.available ? (
                <span>
                  off {p.off.innovation.toFixed(1)} → on {p.on.innovation.toFixed(1)}, distance{" "}
                  {p.distance.magnitude.toFixed(1)} (Innovation {signed(p.distance.innovation)}, Control{" "}
                  {signed(p.distance.control)}, Scale {signed(p.distance.scale)})
                </span>
              ) : (
                <span>
                  <strong>unavailable</strong>: no offering meets {missing(p)}
                </span>
              )}
            </li>
          ))}
        </ul>
      </details>
    </ChartFigure>
  );
}
