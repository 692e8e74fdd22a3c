/**
 * What a product is under the country the page reads: said first, before any published number, so
 * a reader never takes a product the country excludes for one they can use. Unavailable: the
 * controls its offerings lack, by name. Usable: the offering engaged and the Innovation it keeps.
 */

import { score } from "@/components/format";
import type { LoadedProductView } from "@/server/8-dashboard/product-page";

export function UnderCountryVerdict({ loaded }: { loaded: LoadedProductView }) {
  const { product, controlNames, countryName } = loaded;
  const under = product.underControls;
  if (!under) return null;
  const name = countryName(under.country);
  if (!under.available)
    return (
      <p
        className="verdict verdict-unavailable"
        data-testid="under-country-verdict"
        data-unavailable-under={under.country}
      >
        <strong>Unavailable under {name}&apos;s controls.</strong> No offering of {product.name} meets{" "}
        {under.missingControls.map((id) => controlNames.get(id) ?? id).join("; ")}: it keeps nothing there. Its scores
        below are the published ones.
      </p>
    );
  if (under.controls.length === 0)
    return (
      <p className="verdict" data-testid="under-country-verdict">
        {name} engages no sovereign controls: {product.name} keeps its published scores there.
      </p>
    );
  return (
    <p className="verdict verdict-usable" data-testid="under-country-verdict">
      <strong>Usable under {name}&apos;s controls</strong> through <em>{under.offering?.name}</em>: it keeps{" "}
      <span data-under>{score(under.underControls.innovation)}</span> Innovation (published{" "}
      {score(product.scores.innovation)}).
    </p>
  );
}
