import { geographiesRouter } from "./routers/geographies";
import { marketsRouter } from "./routers/markets";
import { readingsRouter } from "./routers/readings";
import { createCallerFactory, createRouter } from "./trpc";

/** The one API: REST, MCP and the dashboard all call these procedures. */
export const appRouter = createRouter({
  markets: marketsRouter,
  geographies: geographiesRouter,
  readings: readingsRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side calls (MCP tools, server components) go through the same procedures. */
export const createCaller = createCallerFactory(appRouter);
