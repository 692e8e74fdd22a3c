"use client";
import { ChartFigure } from "@/components/charts/chart-figure";
import { RankedBars } from "@/components/charts/ranked-bars";
import { score } from "@/components/format";
import { productNameCell } from "@/components/product/product-link";
/**
 * The Max reading: products ranked by the Innovation they keep with every control engaged. Each bar
 * is `on` in front of its `off` ghost; unavailable products say so and name the controls they miss.
 */
import { maxGhostBars, usableHeadline } from "@/server/2-charts/chart-data";
import { signed } from "@/server/2-charts/geometry";
import { type Column, csvFileName } from "@/server/2-formats/csv";
import { percentNumber, percentText } from "@/server/2-formats/percent";
import { GatedOutList, gatedOut, gatesSentence, gateWords, throughGates } from "./gated-out";
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
  const gated = Boolean(reading.gates);
  const passes = throughGates(gated);
  const ranked = (p: Row) => p.available && passes(p);
  const columns: Column<Row>[] = [
    { label: "Rank", value: (p) => (ranked(p) ? p.rank : null), numeric: true, under: true },
    { label: "Product", value: (p) => p.name },
    { label: "Vendor", value: (p) => p.vendor },
    { label: "State", value: (p) => (p.available ? "available" : "unavailable") },
    { label: "Offering", value: (p) => p.offering?.name ?? "" },
    { label: "Innovation off", value: (p) => p.off.innovation, numeric: true, decimals: 1 },
    {
      label: "Innovation on",
      value: (p) => (p.available ? p.on.innovation : null),
      numeric: true,
      under: true,
      decimals: 1,
    },
    { label: "Control off", value: (p) => p.off.control, numeric: true, decimals: 1 },
    { label: "Control on", value: (p) => (p.available ? p.on.control : null), numeric: true, under: true, decimals: 1 },
    { label: "Scale off", value: (p) => p.off.scale, numeric: true, decimals: 1 },
    { label: "Scale on", value: (p) => (p.available ? p.on.scale : null), numeric: true, under: true, decimals: 1 },
    {
      label: "Distance Innovation",
      value: (p) => (p.available ? p.distance.innovation : null),
      numeric: true,
      under: true,
      decimals: 1,
    },
    {
      label: "Distance Control",
      value: (p) => (p.available ? p.distance.control : null),
      numeric: true,
      under: true,
      decimals: 1,
    },
    {
      label: "Distance Scale",
      value: (p) => (p.available ? p.distance.scale : null),
      numeric: true,
      under: true,
      decimals: 1,
    },
    {
      label: "Distance",
      value: (p) => (p.available ? p.distance.magnitude : null),
      numeric: true,
      under: true,
      decimals: 1,
    },
    { label: "Missing controls", value: missing },
    {
      label: "Innovation on p5",
      value: (p) => (p.available ? p.retainedInterval.p5 : null),
      numeric: true,
      under: true,
      decimals: 1,
    },
    {
      label: "Innovation on p95",
      value: (p) => (p.available ? p.retainedInterval.p95 : null),
      numeric: true,
      under: true,
      decimals: 1,
    },
    { label: "Rank best (p5)", value: (p) => (p.available ? p.rankInterval.best : null), numeric: true, under: true },
    {
      label: "Rank worst (p95)",
      value: (p) => (p.available ? p.rankInterval.worst : null),
      numeric: true,
      under: true,
    },
    {
      label: "P(top 1) %",
      value: (p) => (p.available ? percentNumber(p.rankOdds.top1) : null),
      numeric: true,
      under: true,
    },
    {
      label: "P(top 3) %",
      value: (p) => (p.available ? percentNumber(p.rankOdds.top3) : null),
      numeric: true,
      under: true,
    },
    {
      label: "P(top 5) %",
      value: (p) => (p.available ? percentNumber(p.rankOdds.top5) : null),
      numeric: true,
      under: true,
    },
    { label: "Tied group", value: (p) => p.rankOdds.tieGroup, numeric: true },
    { label: "SEAL", value: (p) => p.seal?.level ?? null, numeric: true },
    { label: "Weakest objectives", value: (p) => p.seal?.weakest.join("; ") ?? "" },
    ...(gated
      ? ([
          { label: "Your gates", value: gateWords },
          {
            label: "Rank in the whole field",
            value: (p) => (p.available ? (p.publishedRank ?? null) : null),
            numeric: true,
          },
        ] satisfies Column<Row>[])
      : []),
  ];
  const leader = reading.products.find(ranked);
  // The usable (and, with gates, passing) first, in rank order; then the rest, unranked, by name.
  const rows = [
    ...reading.products.filter(ranked),
    ...reading.products.filter((p) => !ranked(p)).sort((a, b) => a.name.localeCompare(b.name)),
  ];
  const setApart = gatedOut(reading.products).length;
  return (
    <ChartFigure
      id="servicemax"
      title={`Max under ${reading.country}`}
      summary={`${usableHeadline(reading.products, reading.country)} The usable are ranked by the Innovation they keep${
        leader ? `; ${leader.name} keeps the most, ${score(leader.on.innovation)}` : ""
      }. Each bar is the state on, in front of the state off; whiskers span the 5th–95th percentile of what it keeps across the sensitivity analysis.${
        gated ? gatesSentence(reading.gates?.passed ?? 0, setApart) : " The unavailable follow, unranked, with no bar."
      }`}
      columns={columns}
      rows={rows}
      rowKey={(p) => p.productId}
      rowNoun="products"
      fileName={csvFileName(reading.marketId, `r${reading.release}`, "max", reading.country)}
      cell={productNameCell(reading.marketId, reading.release)}
    >
      {(shown) => (
        <>
          <RankedBars
            bars={maxGhostBars({ ...reading, products: reading.products.filter(passes) }).filter((bar) =>
              shown.has(bar.productId),
            )}
            ghost
            valueLabel="On (kept)"
            ceilingLabel="Off (published)"
          />
          <GatedOutList products={reading.products.filter((p) => shown.has(p.productId))} testId="gated-out" />
          <details className="max-states-details">
            <summary>Each product off and on, with its distance</summary>
            <ul className="max-states" data-testid="max-states">
              {rows
                .filter((p) => shown.has(p.productId))
                .map((p) => (
                  <li
                    key={p.productId}
                    data-product-id={p.productId}
                    className={p.available ? undefined : "unavailable"}
                  >
                    <span className="max-name">
                      {ranked(p) ? `${p.rank}.` : "–"} {p.name}
                    </span>{" "}
                    {p.available && gated && !p.gate?.passed ? (
                      <span>
                        <strong>not through your gates</strong>: {gateWords(p)}
                      </span>
                    ) : p.available ? (
                      <span>
                        off {score(p.off.innovation)} → on <span data-under>{score(p.on.innovation)}</span>, distance{" "}
                        {score(p.distance.magnitude)} (Innovation {signed(p.distance.innovation)}, Control{" "}
                        {signed(p.distance.control)}, Scale {signed(p.distance.scale)}); top 3 in{" "}
                        {percentText(p.rankOdds.top3)} of draws{p.seal ? `; SEAL-${p.seal.level ?? "?"}` : ""}
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
        </>
      )}
    </ChartFigure>
  );
}
