"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc";
/**
 * The What if view: the country whose Max reading the weights also rescore (kept in the URL, as on
 * the readings view), then the sliders and what they move.
 */
import { fullGeographies } from "@/server/domain/geographies";
import { useCountryInUrl } from "./country-in-url";
import { CountrySelector } from "./readings-panel";
import { type WeightedAxis, WhatIfPanel } from "./what-if-panel";

export function WhatIfView({
  marketId,
  release,
  homeCountry,
  initialCountry,
  axes,
  initialWeights,
  initialOrder,
}: {
  marketId: string;
  release?: number;
  homeCountry: string;
  initialCountry: string;
  axes: readonly WeightedAxis[];
  initialWeights?: string;
  initialOrder?: string;
}) {
  const trpc = useTRPC();
  const [country, choose] = useCountryInUrl(initialCountry);
  const geographies = useQuery(
    trpc.geographies.list.queryOptions({}, { staleTime: 5 * 60_000, select: withControlObjects }),
  );
  return (
    <>
      <div className="reading-controls">
        <CountrySelector
          geographies={geographies.data?.geographies}
          country={country}
          homeCountry={homeCountry}
          onChange={choose}
        />
      </div>
      <WhatIfPanel
        marketId={marketId}
        release={release}
        country={country}
        axes={axes}
        initialWeights={initialWeights}
        initialOrder={initialOrder}
      />
    </>
  );
}

/** The geographies as the dashboard asks them (detail=full): every country's controls as objects. */
function withControlObjects<T extends { geographies: Parameters<typeof fullGeographies>[0] }>(data: T) {
  return { ...data, geographies: fullGeographies(data.geographies) };
}
