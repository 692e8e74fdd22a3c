"use client";
import { ChartFigure } from "@/components/charts/chart-figure";
import { DeltaMap, DeltaMapLegend } from "@/components/charts/delta-map";
import { RankedBars } from "@/components/charts/ranked-bars";
import { count } from "@/components/format";
import { productNameCell } from "@/components/product/product-link";
/**
 * The Delta in two views: the map (a streak per product from published to under controls) and the
 * bars (the ranking under controls with the published ceiling as a ghost). One table and CSV per
 * view, of what that view draws. With the reader's gates, the chart draws those that pass, ranked
 * among themselves; those that fail are set apart, named with the gate they missed, and stay in the
 * table.
 */
import { deltaGhostBars, deltaStreaks, type GhostBar, type Streak, usableHeadline } from "@/server/2-charts/chart-data";
import { signed } from "@/server/2-charts/geometry";
import { type Column, csvFileName } from "@/server/2-formats/csv";
import { GatedOutList, gatedOut, gatesSentence, gateWords, throughGates } from "./gated-out";
import type { DeltaReading, DeltaView } from "./reading-types";

const MAP_COLUMNS: Column<Streak>[] = [
  { label: "Product", value: (s) => s.name },
  { label: "Vendor", value: (s) => s.vendor },
  { label: "State", value: (s) => (s.available ? "available" : "unavailable") },
  { label: "Published Control", value: (s) => s.from.x, numeric: true, decimals: 1 },
  { label: "Published Innovation", value: (s) => s.from.y, numeric: true, decimals: 1 },
  {
    label: "Under controls Control",
    value: (s) => (s.available ? s.to.x : null),
    numeric: true,
    under: true,
    decimals: 1,
  },
  {
    label: "Under controls Innovation",
    value: (s) => (s.available ? s.to.y : null),
    numeric: true,
    under: true,
    decimals: 1,
  },
  { label: "Moves", value: (s) => (s.available ? (s.moves ? "yes" : "no") : "unavailable") },
];

const BAR_COLUMNS: Column<GhostBar>[] = [
  { label: "Rank", value: (b) => b.rank, numeric: true, under: true },
  { label: "Product", value: (b) => b.name },
  { label: "Vendor", value: (b) => b.vendor },
  { label: "State", value: (b) => (b.available ? "available" : "unavailable") },
  {
    label: "Innovation under controls",
    value: (b) => (b.available ? b.value : null),
    numeric: true,
    under: true,
    decimals: 1,
  },
  { label: "Published Innovation", value: (b) => b.ceiling, numeric: true, decimals: 1 },
  { label: "Gives up", value: (b) => b.givesUp, numeric: true, under: true, decimals: 1 },
];

function ViewSwitch({ view, onChange }: { view: DeltaView; onChange: (view: DeltaView) => void }) {
  return (
    <fieldset className="segmented" aria-label="Delta view">
      {(["map", "bars"] as const).map((option) => (
        <label key={option} className={option === view ? "active" : undefined}>
          <input
            type="radio"
            name="delta-view"
            value={option}
            checked={option === view}
            onChange={() => onChange(option)}
            data-testid={`delta-view-${option}`}
          />
          {option === "map" ? "Map" : "Bars"}
        </label>
      ))}
    </fieldset>
  );
}

export function DeltaFigure({
  reading,
  view,
  onViewChange,
}: {
  reading: DeltaReading;
  view: DeltaView;
  onViewChange: (view: DeltaView) => void;
}) {
  const toolbar = <ViewSwitch view={view} onChange={onViewChange} />;
  const file = (suffix: string) =>
    csvFileName(reading.marketId, `r${reading.release}`, "delta", suffix, reading.country);
  // The table's product names link to their pages; the CSV keeps them as text.
  const cell = productNameCell(reading.marketId, reading.release);
  const gated = Boolean(reading.gates);
  const passes = throughGates(gated);
  const drawn = { ...reading, products: reading.products.filter(passes) };
  const byId = new Map(reading.products.map((p) => [p.productId, p]));
  const gateColumns = <T extends { productId: string }>(): Column<T>[] =>
    gated ? [{ label: "Your gates", value: (row) => gateWords(byId.get(row.productId) ?? {}) }] : [];
  const gatesSummary = gated ? gatesSentence(reading.gates?.passed ?? 0, gatedOut(reading.products).length) : "";
  const moved = drawn.products.filter((p) => p.available && p.distance.magnitude > 0).length;
  const headline = usableHeadline(reading.products, reading.country);
  const title = `Delta under ${reading.country}`;
  const setApart = (shown: ReadonlySet<string>) => (
    <GatedOutList products={reading.products.filter((p) => shown.has(p.productId))} testId="delta-gated-out" />
  );
  if (view === "map") {
    return (
      <ChartFigure
        id="delta-map"
        title={title}
        summary={`${headline} Innovation against Control: each streak runs from the published point to the point under ${reading.country}'s controls; ${count(moved)} of the usable${gated ? " that pass" : ""} move.${gatesSummary || " Unavailable products are set apart, at their published point, greyed."}`}
        columns={[...MAP_COLUMNS, ...gateColumns<Streak>()]}
        rows={deltaStreaks(reading)}
        rowKey={(s) => s.productId}
        rowNoun="products"
        fileName={file("map")}
        toolbar={toolbar}
        cell={cell}
      >
        {(shown) => (
          <>
            <DeltaMap streaks={deltaStreaks(drawn).filter((s) => shown.has(s.productId))} />
            <DeltaMapLegend />
            {setApart(shown)}
          </>
        )}
      </ChartFigure>
    );
  }
  const bars = deltaGhostBars(drawn);
  // Those that failed a gate stay in the table, unranked, after those that pass.
  const failing = deltaGhostBars({ ...reading, products: reading.products.filter((p) => !passes(p)) }).map((bar) => ({
    ...bar,
    rank: null,
  }));
  const mostLost = bars.filter((b) => b.givesUp !== null).sort((a, b) => (b.givesUp ?? 0) - (a.givesUp ?? 0))[0];
  return (
    <ChartFigure
      id="delta-bars"
      title={title}
      summary={`${headline} The usable${gated ? " that pass your gates" : ""} are ranked by Innovation under ${reading.country}'s controls, each in front of its published ceiling${
        mostLost?.givesUp ? `; of those, ${mostLost.name} gives up the most (${signed(-mostLost.givesUp)})` : ""
      }${gatesSummary ? `.${gatesSummary}` : "; the unavailable follow, unranked, with no bar."}`}
      columns={[...BAR_COLUMNS, ...gateColumns<GhostBar>()]}
      rows={[...bars, ...failing]}
      rowKey={(b) => b.productId}
      rowNoun="products"
      fileName={file("bars")}
      toolbar={toolbar}
      cell={cell}
    >
      {(shown) => (
        <>
          <RankedBars
            bars={bars.filter((b) => shown.has(b.productId))}
            ghost
            valueLabel="Under controls"
            ceilingLabel="Published"
          />
          {setApart(shown)}
        </>
      )}
    </ChartFigure>
  );
}
