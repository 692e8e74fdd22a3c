/** Markets: the list, one market, and its changelog (../operations/), and the dashboard's home list. */
import { DECLARATIONS } from "../procedures/operations";
import { listedMarkets, marketsSchema } from "../procedures/operations/markets-list";
import { proceduresOf } from "../procedures/procedure";
import { createRouter, publicProcedure } from "../procedures/trpc";

export const marketsRouter = createRouter({
  ...proceduresOf(DECLARATIONS, "markets"),
  /** The same list for the dashboard's home page, which anyone may read (never on REST or MCP). */
  browse: publicProcedure.output(marketsSchema).query(({ ctx }) => listedMarkets(ctx.db)),
});
