import type { Metadata } from "next";
import { score } from "@/components/format";
import { bandSlug } from "@/components/market/band";
import { ProductFrame } from "@/components/product/product-frame";
import { RestatedHistory } from "@/components/product/restated-history";
import { OverallSeal } from "@/components/product/sovereignty-profile";
import { AXES, AXIS_LABELS } from "@/components/product/types";
import { UnderControlsSummary } from "@/components/product/under-controls";
import { ReadingLink } from "@/components/reading-link";
import { dashboardCaller } from "@/server/8-dashboard/caller";
import { loadProductView, type ProductViewPageProps } from "@/server/8-dashboard/product-page";

export const metadata: Metadata = { title: "Product" };
export const dynamic = "force-dynamic";

/** A product at a glance: its three scores and bands, what it has not demonstrated, a country's controls. */
export default async function ProductOverview({ params, searchParams }: ProductViewPageProps) {
  const { marketId, productId } = await params;
  const search = await searchParams;
  const loaded = await loadProductView(marketId, productId, "", search);
  const { product, controlNames, countryName } = loaded;
  const under = product.underControls;
  const gaps = AXES.flatMap((axis) => product.axes[axis].indicators.filter((i) => i.gap).map((i) => i.name));
  const api = await dashboardCaller();
  const pinned = loaded.release ? { release: loaded.release } : {};
  const [sovereignty, history] = await Promise.all([
    api.readings.sovereignty({ marketId, productId, ...pinned, ...(under ? { country: under.country } : {}) }),
    api.readings.history({ marketId, productId, ...pinned }),
  ]);
  return (
    <ProductFrame loaded={loaded} view="">
      <h2 id="scores" className="sr-only">
        Scores
      </h2>
      <div className="cards">
        {AXES.map((axis) => (
          <section key={axis} className="card" aria-labelledby={`score-${axis}-name`} data-testid={`score-${axis}`}>
            <h3 id={`score-${axis}-name`}>
              {AXIS_LABELS[axis]} <span className="figure-label">published</span>
            </h3>
            <span className="figure" data-testid={`score-${axis}-value`}>
              {score(product.scores[axis])}
            </span>
            <span>
              <span className={`badge band-${bandSlug(product.bands[axis])}`}>{product.bands[axis]}</span>
            </span>
            <ReadingLink
              destination={{ to: "product", marketId, productId, view: axis }}
              data-testid={`score-${axis}-link`}
            >
              {product.axes[axis].indicators.length} indicators
              <span className="sr-only"> of {AXIS_LABELS[axis]}</span>
            </ReadingLink>
          </section>
        ))}
      </div>
      <p className="hint" data-testid="product-gaps">
        {gaps.length ? `Not demonstrated (scored 0): ${gaps.join(", ")}.` : "Every indicator is demonstrated."}
      </p>
      <section aria-labelledby="seal-heading" className="seal-summary">
        <h2 id="seal-heading">Sovereignty under {countryName(sovereignty.country)}'s controls</h2>
        <OverallSeal profile={sovereignty} />
        <ReadingLink
          destination={{ to: "product", marketId, productId, view: "sovereignty" }}
          data-testid="sovereignty-link"
        >
          Each objective and the facts behind it
        </ReadingLink>
      </section>
      {history.releases.length > 1 ? (
        <RestatedHistory history={history} />
      ) : (
        <p className="hint" data-testid="history-single">
          {product.name} is in one release only: there is no history to restate yet.
        </p>
      )}
      {under ? (
        <section aria-labelledby="under-controls-heading">
          <h2 id="under-controls-heading">Under {countryName(under.country)}'s controls</h2>
          <UnderControlsSummary
            product={product}
            under={under}
            countryName={countryName(under.country)}
            controlNames={controlNames}
          />
        </section>
      ) : (
        <p className="notice" data-testid="no-country">
          Pick a country above to see what {product.name} keeps and loses under its sovereign controls.
        </p>
      )}
    </ProductFrame>
  );
}
