/**
 * Picks the country whose controls the product page engages: a GET form that keeps the page's
 * release, applied as soon as the country changes (with a button for browsers without script). "None" shows the published breakdown only, the default.
 */
import { AutoSubmitSelect } from "@/components/auto-submit-select";
import { controlsCount } from "@/components/controls-count";
import { byCountryName } from "@/components/format";

export interface CountryOption {
  country: string;
  name: string;
  controls: readonly unknown[];
}

export function CountryPicker({
  countries,
  current,
  release,
}: {
  countries: readonly CountryOption[];
  current: string | undefined;
  /** The release the URL pins, kept by the form; undefined for the latest. */
  release: number | undefined;
}) {
  return (
    <form method="get" className="inline-form product-country" data-testid="product-country-form">
      {release !== undefined ? <input type="hidden" name="release" value={release} /> : null}
      <label htmlFor="product-country">
        Country whose controls are engaged
        <AutoSubmitSelect
          id="product-country"
          name="country"
          defaultValue={current ?? ""}
          data-testid="product-country"
        >
          <option value="">None: the published breakdown only</option>
          {byCountryName(countries).map((g) => (
            <option key={g.country} value={g.country}>
              {g.name} ({g.country}) — {controlsCount(g.controls.length)}
            </option>
          ))}
        </AutoSubmitSelect>
      </label>
      {/* With JavaScript the choice applies at once; without it, this button applies it. */}
      <noscript>
        <button type="submit" data-testid="product-country-submit">
          Show
        </button>
      </noscript>
    </form>
  );
}
