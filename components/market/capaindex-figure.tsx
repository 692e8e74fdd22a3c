"use client";
import { ChartFigure } from "@/components/charts/chart-figure";
import { type Cutoff, RankedBars } from "@/components/charts/ranked-bars";
import { count, score } from "@/components/format";
import { productNameCell } from "@/components/product/product-link";
/** The Capability Index: products ranked by published Innovation, with the band cutoffs drawn. */
import { capaIndexBars } from "@/server/2-charts/chart-data";
import { type Column, csvFileName } from "@/server/2-formats/csv";
import { percentNumber } from "@/server/2-formats/percent";
import type { CapaindexReading } from "./reading-types";

type Row = CapaindexReading["products"][number];

const COLUMNS: Column<Row>[] = [
  { label: "Rank", value: (p) => p.rank, numeric: true },
  { label: "Product", value: (p) => p.name },
  { label: "Vendor", value: (p) => p.vendor },
  { label: "Innovation", value: (p) => p.innovation, numeric: true, decimals: 1 },
  { label: "Band", value: (p) => p.band },
  { label: "Band settled", value: (p) => (p.bandSettled ? "yes" : "no") },
  { label: "Innovation p5", value: (p) => p.innovationInterval.p5, numeric: true, decimals: 1 },
  { label: "Innovation p95", value: (p) => p.innovationInterval.p95, numeric: true, decimals: 1 },
  { label: "Rank best (p5)", value: (p) => p.rankInterval.best, numeric: true },
  { label: "Rank worst (p95)", value: (p) => p.rankInterval.worst, numeric: true },
  { label: "P(top 1) %", value: (p) => percentNumber(p.rankOdds.top1), numeric: true },
  { label: "P(top 3) %", value: (p) => percentNumber(p.rankOdds.top3), numeric: true },
  { label: "P(top 5) %", value: (p) => percentNumber(p.rankOdds.top5), numeric: true },
  { label: "Tied group", value: (p) => p.rankOdds.tieGroup, numeric: true },
];

export function CapaindexFigure({
  reading,
  cutoffs,
  under,
}: {
  reading: CapaindexReading;
  cutoffs: readonly Cutoff[];
  /** The country the page is read under and the products it excludes: marked, their bars hatched. */
  under?: { country: string; unavailable: ReadonlySet<string> };
}) {
  const leader = reading.products[0];
  const columns: Column<Row>[] = under
    ? [
        ...COLUMNS,
        {
          label: `Under ${under.country}`,
          value: (p) => (under.unavailable.has(p.productId) ? "unavailable" : "usable"),
        },
      ]
    : COLUMNS;
  const excluded = under ? reading.products.filter((p) => under.unavailable.has(p.productId)).length : 0;
  return (
    <ChartFigure
      id="capaindex"
      title="Capability Index"
      summary={`${count(reading.products.length)} products ranked by published Innovation${
        leader ? `; ${leader.name} leads with ${score(leader.innovation)} (${leader.band})` : ""
      }. Dashed lines mark the band cutoffs; whiskers span the 5th–95th percentile of each score across the sensitivity analysis, and a name says its rank range and an unsettled band. The table gives how likely each rank is (the share of draws in the top 1, 3 and 5) and groups the products that are statistically tied.${
        under && excluded > 0
          ? ` The ranks are the published ones; the ${count(excluded)} product${excluded === 1 ? "" : "s"} ${under.country} excludes ${excluded === 1 ? "is" : "are"} hatched and marked unavailable under ${under.country}.`
          : ""
      }`}
      columns={columns}
      rows={reading.products}
      rowKey={(p) => p.productId}
      rowNoun="products"
      fileName={csvFileName(reading.marketId, `r${reading.release}`, "capability-index")}
      cell={productNameCell(reading.marketId, reading.release)}
    >
      {(shown) => (
        <RankedBars
          bars={capaIndexBars(reading, under).filter((bar) => shown.has(bar.productId))}
          ghost={false}
          valueLabel="Innovation"
          cutoffs={cutoffs}
        />
      )}
    </ChartFigure>
  );
}
