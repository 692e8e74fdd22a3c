"use client";
import { byCountryName } from "@/components/format";
/**
 * The country whose controls every number of a market or product view is read under, in the
 * frame of every view: shown, and changed in one step (the URL's `country`, kept by the tabs).
 * Without JavaScript it is a GET form with a button.
 */
import { controlsCount } from "@/components/market/controls-count";
import { useReadingContext } from "@/components/reading-link";
import { readingEntries } from "@/server/2-http/reading-context";
import { useCountryInUrl } from "./country-in-url";

export interface CountryChoice {
  country: string;
  name: string;
  controls: number;
}

export function CountryChooser({
  countries,
  current,
  home,
}: {
  countries: readonly CountryChoice[];
  current: string;
  home: string;
}) {
  const [country, choose] = useCountryInUrl(current);
  // Submitted without JavaScript, the form keeps the rest of the reading (release, gates, weights).
  const kept = readingEntries(useReadingContext()).filter(([name]) => name !== "country");
  const options = byCountryName(
    countries.some((c) => c.country === country) ? countries : [...countries, { country, name: country, controls: 0 }],
  );
  return (
    <form method="get" className="country-chooser" data-testid="country-chooser">
      {kept.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor="frame-country">Under the controls of</label>
      <select
        id="frame-country"
        name="country"
        value={country}
        onChange={(event) => choose(event.target.value)}
        data-testid="frame-country"
      >
        {options.map((g) => (
          <option key={g.country} value={g.country}>
            {g.name} ({g.country}){g.country === home ? ", home" : ""} — {controlsCount(g.controls)}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit">Show</button>
      </noscript>
    </form>
  );
}
