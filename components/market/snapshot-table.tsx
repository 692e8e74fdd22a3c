"use client";
/**
 * The snapshot as a sortable table: product, vendor, three published scores with their band, gaps,
 * and, when a country is engaged, what each keeps of its Innovation there, or that it is
 * unavailable there (never a number for a product the country excludes).
 */
import { useState } from "react";
import { score } from "@/components/format";
import { ProductLink } from "@/components/product/product-link";
import { usePaged } from "@/components/ui/pager";
import { TableWrap } from "@/components/ui/table-wrap";
import { AXES } from "@/server/1-domain/market-definition";
import { bandSlug } from "./band";

type Axis = (typeof AXES)[number];
type SortKey = "name" | "vendor" | Axis | "under";

/** Innovation kept under the engaged country's controls, by product id; null: unavailable there. */
export interface UnderCountry {
  country: string;
  innovation: Record<string, number | null>;
}

export interface SnapshotProduct {
  productId: string;
  name: string;
  vendor: string;
  scores: Record<Axis, number>;
  bands: Record<Axis, string>;
  gaps: string[];
  /** How sure each score is (docs/methodology.md, Uncertainty). */
  uncertainty?: Record<Axis, { interval: { p5: number; p95: number }; bandSettled: boolean }>;
}

/** The score's 90 % interval under it, and a badge when its band is not settled. */
function Uncertainty({ of }: { of: NonNullable<SnapshotProduct["uncertainty"]>[Axis] | undefined }) {
  if (!of) return null;
  const { p5, p95 } = of.interval;
  return (
    <>
      {of.bandSettled ? null : (
        <>
          {" "}
          <span className="badge unsettled" title="Fewer than 95 % of the sensitivity analysis's draws keep this band">
            band not settled
          </span>
        </>
      )}
      <span className="interval hint" title="5th–95th percentile across the sensitivity analysis">
        {p5 === p95 ? "" : `90 %: ${score(p5)}–${score(p95)}`}
      </span>
    </>
  );
}

const LABELS: Record<SortKey, string> = {
  name: "Product",
  vendor: "Vendor",
  innovation: "Innovation",
  control: "Control",
  scale: "Scale",
  under: "Under",
};

function compare(key: SortKey, a: SnapshotProduct, b: SnapshotProduct, under?: UnderCountry): number {
  if (key === "name" || key === "vendor") return a[key].localeCompare(b[key]) || a.productId.localeCompare(b.productId);
  if (key === "under") {
    // Unavailable below every available product in either direction of the sort is not possible
    // with one comparator; −1 keeps them together at the low end.
    const kept = (p: SnapshotProduct) => under?.innovation[p.productId] ?? -1;
    return kept(a) - kept(b) || a.name.localeCompare(b.name);
  }
  return a.scores[key] - b.scores[key] || a.name.localeCompare(b.name);
}

export function SnapshotTable({
  products,
  marketId,
  release,
  under,
}: {
  products: SnapshotProduct[];
  marketId: string;
  /** The release the snapshot is of: each product's link opens its page on it. */
  release: number;
  /** The engaged country's reading, when the page is read under one. */
  under?: UnderCountry;
}) {
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: "innovation", descending: true });
  const sorted = [...products].sort((a, b) => (sort.descending ? -1 : 1) * compare(sort.key, a, b, under));
  const { shown: rows, pager, pagerEnd } = usePaged(sorted, "products", "snapshot");
  const header = (key: SortKey, numeric = false) => {
    const active = sort.key === key;
    return (
      <th
        scope="col"
        className={numeric ? "num" : undefined}
        aria-sort={active ? (sort.descending ? "descending" : "ascending") : "none"}
      >
        <button
          type="button"
          className="sort"
          onClick={() => setSort({ key, descending: active ? !sort.descending : numeric })}
        >
          {key === "under" && under ? `Innovation under ${under.country}` : LABELS[key]}
          <span aria-hidden="true">{active ? (sort.descending ? " ▼" : " ▲") : ""}</span>
        </button>
      </th>
    );
  };
  return (
    <>
      {pager}
      <TableWrap label="Snapshot">
        <table data-testid="snapshot-table" className="sortable compact-cards">
          <caption className="sr-only">Published scores of every product; select a column header to sort.</caption>
          <thead>
            <tr>
              {header("name")}
              {header("vendor")}
              {AXES.map((axis) => header(axis, true))}
              {under ? header("under", true) : null}
              <th scope="col">Gaps</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => {
              const kept = under ? under.innovation[p.productId] : undefined;
              const unavailable = under !== undefined && kept === null;
              return (
                <tr
                  key={p.productId}
                  data-product-id={p.productId}
                  className={unavailable ? "unavailable" : undefined}
                  data-unavailable-under={unavailable ? under?.country : undefined}
                >
                  <th scope="row">
                    <ProductLink marketId={marketId} productId={p.productId} release={release}>
                      {p.name}
                    </ProductLink>
                  </th>
                  <td data-label={LABELS.vendor}>{p.vendor}</td>
                  {AXES.map((axis) => (
                    <td key={axis} className="num" data-axis={axis} data-label={LABELS[axis]}>
                      {score(p.scores[axis])}{" "}
                      <span className={`badge band-${bandSlug(p.bands[axis])}`}>{p.bands[axis]}</span>
                      <Uncertainty of={p.uncertainty?.[axis]} />
                    </td>
                  ))}
                  {under ? (
                    <td className="num" data-label={`Innovation under ${under.country}`} data-under={under.country}>
                      {typeof kept === "number" ? score(kept) : <span className="badge unavailable">unavailable</span>}
                    </td>
                  ) : null}
                  <td data-label="Gaps">{p.gaps.length ? p.gaps.join(", ") : "none"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>
      {pagerEnd}
    </>
  );
}
