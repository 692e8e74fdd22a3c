"use client";
/**
 * "Embed" beside a reading's figure: a small form that makes an embed of this reading (the market,
 * the country, this release pinned or the latest, the view, the theme, where it may be shown:
 * any site, or only the sites listed) and shows its URL, what it shows in words, and the frame to
 * paste. Paid at once for the release it shows: the reading's price, said before creating
 * (docs/embeds.md).
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { ProblemAlert } from "@/components/account/account-list";
import {
  type EmbedReading,
  type EmbedTheme,
  type EmbedView,
  READING_TITLES,
  READING_VIEWS,
} from "@/server/1-domain/embeds";
import { useTRPC } from "../trpc";

export function EmbedAction({
  marketId,
  reading,
  country,
  release,
  view,
}: {
  marketId: string;
  reading: EmbedReading;
  country?: string;
  /** The release the figure shows. */
  release: number;
  view?: EmbedView;
}) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [pinned, setPinned] = useState(true);
  const [chosenView, setChosenView] = useState<EmbedView>(view ?? (READING_VIEWS[reading][0] as EmbedView));
  const [theme, setTheme] = useState<EmbedTheme>("auto");
  const [anySite, setAnySite] = useState(true);
  const [origins, setOrigins] = useState("");
  const prices = useQuery({ ...trpc.embeds.prices.queryOptions(), enabled: open });
  const create = useMutation(trpc.embeds.create.mutationOptions());
  const price = prices.data?.[reading];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      marketId,
      reading,
      ...(country ? { country } : {}),
      release: pinned ? release : null,
      view: chosenView,
      theme,
      allowedOrigins: anySite
        ? []
        : origins
            .split(/[\s,]+/)
            .map((o) => o.trim())
            .filter(Boolean),
    });
  };
  const url = create.data?.url ?? null;
  return (
    <details className="embed-action" data-testid={`embed-${reading}`} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Embed</summary>
      <form onSubmit={submit} className="inline-form" aria-label={`Embed the ${READING_TITLES[reading]}`}>
        <label>
          Release
          <select value={pinned ? "pinned" : "latest"} onChange={(e) => setPinned(e.target.value === "pinned")}>
            <option value="pinned">Release {release} (pinned)</option>
            <option value="latest">Latest (follows new releases)</option>
          </select>
        </label>
        {READING_VIEWS[reading].length > 1 ? (
          <label>
            View
            <select value={chosenView} onChange={(e) => setChosenView(e.target.value as EmbedView)}>
              {READING_VIEWS[reading].map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label>
          Theme
          <select value={theme} onChange={(e) => setTheme(e.target.value as EmbedTheme)}>
            <option value="auto">Follows the reader&apos;s light or dark setting</option>
            <option value="light">Always light</option>
            <option value="dark">Always dark</option>
          </select>
        </label>
        <fieldset className="embed-where">
          <legend>Where it may be shown</legend>
          <label className="check">
            <input type="radio" name="where" checked={anySite} onChange={() => setAnySite(true)} />
            Any site: whoever pastes the frame shows it (the chart is public to anyone with its address).
          </label>
          <label className="check">
            <input type="radio" name="where" checked={!anySite} onChange={() => setAnySite(false)} />
            Only these sites: any other page that frames it shows an empty frame (the address still opens on its own).
          </label>
          <label>
            Sites allowed to frame it
            <input
              value={origins}
              onChange={(e) => setOrigins(e.target.value)}
              placeholder="https://reports.example.com"
              name="origins"
              disabled={anySite}
            />
          </label>
        </fieldset>
        <p className="hint">
          {price === undefined
            ? "Costs the reading's price per release it shows."
            : `Costs ${price} credit${price === 1 ? "" : "s"} per release it shows, now for this one; views are free.`}
        </p>
        <button type="submit" disabled={create.isPending}>
          Create embed
        </button>
      </form>
      <ProblemAlert errors={[create.error]} />
      {create.data && url ? (
        <div role="status" data-testid="embed-created">
          <p data-testid="embed-summary">
            Embed created: <strong>{create.data.summary}</strong>.{" "}
            {create.data.anySite
              ? "Any site may show it."
              : "Only the sites listed may show it; elsewhere the frame stays empty."}
          </p>
          <p>
            <a href={url}>{url}</a> · <a href={`${url}.svg`}>SVG</a> · <a href={`${url}.csv`}>Data (CSV)</a> ·{" "}
            <a href={`${url}/methodology`}>Methodology</a>. Listed on <Link href="/embeds">Embeds</Link>.
          </p>
          <label>
            Paste into your page
            <textarea readOnly rows={3} value={frameSnippet(url, create.data.summary)} />
          </label>
        </div>
      ) : null}
    </details>
  );
}

/** Text as an HTML attribute's value reads it literally (a market's name is someone else's text). */
const attribute = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/**
 * The frame to paste: as wide as its column up to the chart's natural width (the page draws the
 * narrow chart in a narrower frame), titled with what it shows, and a link to it for a reader
 * whose page shows no frames.
 */
export function frameSnippet(url: string, summary: string): string {
  return `<iframe src="${attribute(url)}" title="${attribute(summary)}" width="100%" height="640" style="border:0;max-width:736px" loading="lazy" referrerpolicy="no-referrer"></iframe>\n<p><a href="${attribute(url)}">${attribute(summary)}</a></p>`;
}
