"use client";
/**
 * The What if view: the sliders and what they move, under the country the frame shows (the URL's
 * `country`, as on every view); the weights also rescore that country's Max reading.
 */
import { useCountryInUrl } from "./country-in-url";
import { type WeightedAxis, WhatIfPanel } from "./what-if-panel";

export function WhatIfView({
  marketId,
  release,
  initialCountry,
  axes,
  initialWeights,
  initialOrder,
}: {
  marketId: string;
  release?: number;
  initialCountry: string;
  axes: readonly WeightedAxis[];
  initialWeights?: string;
  initialOrder?: string;
}) {
  const [country] = useCountryInUrl(initialCountry);
  return (
    <WhatIfPanel
      marketId={marketId}
      release={release}
      country={country}
      axes={axes}
      initialWeights={initialWeights}
      initialOrder={initialOrder}
    />
  );
}
