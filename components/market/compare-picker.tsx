"use client";
/**
 * Picks the pair of releases "What changed" compares. A plain GET form, so it works without
 * JavaScript: the page's other query (release, country, view) rides along in hidden fields. With
 * it, the pair is set on the page's current URL, whose country and view the readings may have
 * changed since the page was rendered.
 */
import { useRouter } from "next/navigation";
import { utcDay } from "@/components/format";
import type { ReleaseOption } from "./release-picker";

function ReleaseSelect({
  name,
  label,
  releases,
  value,
}: {
  name: "from" | "to";
  label: string;
  releases: readonly ReleaseOption[];
  value: number;
}) {
  return (
    <label>
      {label}
      <select name={name} defaultValue={String(value)} data-testid={`changes-${name}`}>
        {releases.map((r) => (
          <option key={r.release} value={r.release}>
            {r.release} — {utcDay(r.lastUpdated)}
          </option>
        ))}
      </select>
    </label>
  );
}

export function ComparePicker({
  releases,
  from,
  to,
  keep,
}: {
  releases: readonly ReleaseOption[];
  from: number;
  to: number;
  /** The page's other query parameters, for the form without JavaScript. */
  keep: Readonly<Record<string, string>>;
}) {
  const router = useRouter();
  return (
    <form
      method="get"
      action="#changes"
      className="inline-form"
      data-testid="changes-form"
      onSubmit={(event) => {
        event.preventDefault();
        const chosen = new FormData(event.currentTarget);
        const url = new URL(window.location.href);
        for (const key of ["from", "to"]) url.searchParams.set(key, String(chosen.get(key)));
        router.push(`${url.pathname}${url.search}#changes`);
      }}
    >
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <ReleaseSelect name="from" label="From release" releases={releases} value={from} />
      <ReleaseSelect name="to" label="To release" releases={releases} value={to} />
      <button type="submit" data-testid="changes-compare">
        Compare
      </button>
    </form>
  );
}
