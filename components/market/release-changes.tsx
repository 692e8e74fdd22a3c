"use client";
/**
 * "What changed": a release comparison as the API gives it (GET /v1/markets/{id}/changes), in
 * words. The market-level lines, then a table of every product: entered, left or stayed; each
 * axis's change with its causes (own values, field, method) and band; the Capability Index rank;
 * the Max rank and availability under the comparison's country, a page at a time. Names are
 * rendered as text only.
 */
import type { inferRouterOutputs } from "@trpc/server";
import { score } from "@/components/format";
import { ProductLink } from "@/components/product/product-link";
import { usePaged } from "@/components/ui/pager";
import { TableWrap } from "@/components/ui/table-wrap";
import { AXES } from "@/server/1-domain/market-definition";
import {
  AXIS_LABELS,
  attributionText,
  availabilityText,
  bandText,
  marketChangeLines,
  maxRankText,
  rankText,
  scoreChangeText,
} from "@/server/2-comparisons/comparison-phrases";
import type { AppRouter } from "@/server/7-routers/root";
import { bandSlug } from "./band";

export type Comparison = inferRouterOutputs<AppRouter>["readings"]["changes"];
type ProductChange = Comparison["products"][number];

/** Published scores of the later release, by product: an entered product's numbers. */
export type ScoresByProduct = Readonly<Record<string, Record<(typeof AXES)[number], number>>>;

function AxisCell({
  product,
  axis,
  published,
}: {
  product: ProductChange;
  axis: (typeof AXES)[number];
  published?: ScoresByProduct;
}) {
  const band = bandText(product.bands[axis]);
  const change = product.scores?.[axis];
  // A product that entered has no change to show, but it has a score: the number, then its band.
  const entered = product.status === "entered" ? published?.[product.productId]?.[axis] : undefined;
  if (!change)
    return (
      <td data-axis={axis} data-label={AXIS_LABELS[axis]} data-score={entered}>
        {entered !== undefined ? `${score(entered)} ` : null}
        {band ? <span className={`badge band-${bandSlug(band)}`}>{band}</span> : "—"}
      </td>
    );
  const causes = attributionText(change.attribution);
  return (
    <td
      data-label={AXIS_LABELS[axis]}
      data-axis={axis}
      data-change={change.change}
      data-own-values={change.attribution.ownValues}
      data-field={change.attribution.field}
      data-method={change.attribution.method}
    >
      {scoreChangeText(change)}
      {causes ? <div className="hint">{causes}</div> : null}
      {band ? <div className="hint">band {band}</div> : null}
    </td>
  );
}

/** The largest score change of a product on any axis, in points; entered and left products first. */
function moveSize(p: ProductChange): number {
  if (p.status !== "stayed") return Number.POSITIVE_INFINITY;
  return Math.max(0, ...AXES.map((axis) => Math.abs(p.scores?.[axis]?.change ?? 0)));
}

const statusOrder = { entered: 0, left: 1, stayed: 2 } as const;

/** Biggest movers first: entered, left, then by the largest change on any axis; ties by name. */
export function byMoveSize(products: readonly ProductChange[]): ProductChange[] {
  return [...products].sort(
    (a, b) =>
      statusOrder[a.status] - statusOrder[b.status] || moveSize(b) - moveSize(a) || a.name.localeCompare(b.name),
  );
}

export function ReleaseChanges({ comparison, published }: { comparison: Comparison; published?: ScoresByProduct }) {
  const { country } = comparison;
  const { shown: products, pager, pagerEnd } = usePaged(byMoveSize(comparison.products), "products", "changes");
  return (
    <>
      <p data-testid="changes-pair">
        Release <strong>{comparison.to.release}</strong> (methodology {comparison.to.methodologyVersion}) against
        release <strong>{comparison.from.release}</strong> (methodology {comparison.from.methodologyVersion}); Max ranks
        and availability under {country}.
      </p>
      <ul data-testid="changes-market">
        {marketChangeLines(comparison).map((line) => (
          <li key={line.id} data-testid={`changes-${line.id}`}>
            {line.text}
          </li>
        ))}
      </ul>
      {pager}
      <TableWrap label="What changed, per product">
        <table data-testid="changes-table" className="compact-cards">
          <caption className="sr-only">
            Every product of either release, biggest movers first: whether it entered, left or stayed, each score's
            change and its causes, and its ranks.
          </caption>
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Status</th>
              {AXES.map((axis) => (
                <th key={axis} scope="col">
                  {AXIS_LABELS[axis]}
                </th>
              ))}
              <th scope="col">Capability Index rank</th>
              <th scope="col">Max rank under {country}</th>
              <th scope="col">Availability under {country}</th>
            </tr>
          </thead>
          <tbody>
            {products.map((p) => (
              <tr
                key={p.productId}
                data-product-id={p.productId}
                data-status={p.status}
                {...(p.max.available.to === false ? { "data-unavailable-under": country } : {})}
              >
                <th scope="row">
                  <span data-testid="changes-product-name">
                    {/* A product that left is on its page in the release it left from. */}
                    <ProductLink
                      marketId={comparison.marketId}
                      productId={p.productId}
                      release={p.status === "left" ? comparison.from.release : comparison.to.release}
                    >
                      {p.name}
                    </ProductLink>
                  </span>
                  <div className="hint">{p.vendor}</div>
                </th>
                <td data-testid="changes-status" data-label="Status">
                  {p.status}
                </td>
                {AXES.map((axis) => (
                  <AxisCell key={axis} product={p} axis={axis} published={published} />
                ))}
                <td data-testid="changes-capaindex-rank" data-label="Capability Index rank">
                  {rankText(p.capabilityIndexRank)}
                </td>
                <td
                  data-testid="changes-max-rank"
                  data-label={`Max rank under ${country}`}
                  data-under
                  {...(p.max.available.to === true ? { "data-rank": p.max.rank.to ?? undefined } : {})}
                >
                  {maxRankText(p.max)}
                </td>
                <td data-testid="changes-availability" data-label={`Availability under ${country}`}>
                  {availabilityText(p.max)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {pagerEnd}
    </>
  );
}
