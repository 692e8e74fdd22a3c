"use client";
/**
 * "Embed" beside a reading's figure: a small form that makes an embed of this reading (the market,
 * the country, this release pinned or the latest, the view, the theme, the origins allowed to
 * frame it) and shows its URL and the frame to paste. Paid at once for the release it shows: the
 * reading's price, said before creating (docs/embeds.md).
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { ProblemAlert } from "@/components/account/account-list";
import { type EmbedReading, type EmbedView, READING_TITLES, READING_VIEWS } from "@/server/domain/embeds";
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
  const [theme, setTheme] = useState<"light" | "dark">("light");
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
      allowedOrigins: origins
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
          <select value={theme} onChange={(e) => setTheme(e.target.value as "light" | "dark")}>
            <option value="light">light</option>
            <option value="dark">dark</option>
          </select>
        </label>
        <label>
          Origins allowed to frame it
          <input
            value={origins}
            onChange={(e) => setOrigins(e.target.value)}
            placeholder="https://reports.example.com"
            name="origins"
          />
        </label>
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
          <p>
            Embed created: <a href={url}>{url}</a> (also <a href={`${url}.svg`}>SVG</a>). Listed on{" "}
            <Link href="/embeds">Embeds</Link>.
          </p>
          <label>
            Paste into your page
            <textarea
              readOnly
              rows={2}
              value={`<iframe src="${url}" width="736" height="600" style="border:0" title="${READING_TITLES[reading]}"></iframe>`}
            />
          </label>
        </div>
      ) : null}
    </details>
  );
}
