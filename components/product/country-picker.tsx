/**
 * Picks the country whose controls the product page engages: a plain GET form (no script needed)
 * that keeps the page's release. "None" shows the published breakdown only, the default.
 */
import { controlsCount } from "@/components/controls-count";

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
      <label>
        Country whose controls are engaged
        <select name="country" defaultValue={current ?? ""} data-testid="product-country">
          <option value="">None: the published breakdown only</option>
          {countries.map((g) => (
            <option key={g.country} value={g.country}>
              {g.name} ({g.country}) — {controlsCount(g.controls.length)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" data-testid="product-country-submit">
        Show
      </button>
    </form>
  );
}
