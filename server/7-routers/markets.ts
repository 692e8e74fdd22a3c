/** Markets: the list, one market, and its changelog (../operations/), and the dashboard's home list. */
import { DECLARATIONS } from "../7-procedures/operations";
import { listedMarkets, marketsSchema } from "../7-procedures/operations/markets-list";
import { proceduresOf } from "../7-procedures/procedure";
import { createRouter, publicProcedure } from "../7-procedures/trpc";

export const marketsRouter = createRouter({
  ...proceduresOf(DECLARATIONS, "markets"),
  /** The same list for the dashboard's home page, which anyone may read (never on REST or MCP). */
  browse: publicProcedure.output(marketsSchema).query(({ ctx }) => listedMarkets(ctx.db)),
});
