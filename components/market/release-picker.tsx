"use client";
/**
 * Picks the release a market page shows. A plain GET form, so it works without JavaScript; with it,
 * the choice keeps the rest of the page's query (country, view) and applies as soon as it changes.
 */
import { useRouter } from "next/navigation";
import { utcDay } from "@/components/format";

export interface ReleaseOption {
  release: number;
  lastUpdated: string;
  material: boolean;
}

export function ReleasePicker({ releases, current }: { releases: readonly ReleaseOption[]; current: number }) {
  const router = useRouter();
  const go = (release: string) => {
    const url = new URL(window.location.href);
    url.searchParams.set("release", release);
    router.push(`${url.pathname}${url.search}`);
  };
  return (
    <form
      method="get"
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        go(String(new FormData(event.currentTarget).get("release")));
      }}
    >
      <label>
        Release
        <select
          name="release"
          defaultValue={String(current)}
          data-testid="release-picker"
          onChange={(event) => go(event.target.value)}
        >
          {releases.map((r) => (
            <option key={r.release} value={r.release}>
              {r.release} — {utcDay(r.lastUpdated)}
              {r.material ? " (material methodology change)" : ""}
            </option>
          ))}
        </select>
      </label>
      <noscript>
        <button type="submit">Show release</button>
      </noscript>
    </form>
  );
}
