/** The product breakdown as the dashboard receives it: the API's own output type. */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/7-routers/root";

export type ProductBreakdown = inferRouterOutputs<AppRouter>["readings"]["product"];
export type Axis = keyof ProductBreakdown["axes"];
export type AxisBreakdown = ProductBreakdown["axes"][Axis];
export type IndicatorContribution = AxisBreakdown["indicators"][number];
export type UnderControls = NonNullable<ProductBreakdown["underControls"]>;

export { AXES, AXIS_LABELS } from "@/server/1-domain/market-definition";
