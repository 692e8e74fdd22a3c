/** Reading payloads as the dashboard receives them: the API's own output types. */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/7-routers/root";

type Readings = inferRouterOutputs<AppRouter>["readings"];
export type CapaindexReading = Readings["capaindex"];
export type ServicemaxReading = Readings["servicemax"];
export type DeltaReading = Readings["delta"];
export type WhatIfReading = Readings["whatif"];
/** A country as the dashboard reads it: its controls as objects (the list asked with detail=full). */
export type { GeographyWithControls as Geography } from "@/server/1-domain/geographies";
export type DeltaView = "map" | "bars";
