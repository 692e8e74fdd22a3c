/** Markets: the list, one market, and its changelog (../operations/), and the dashboard's home list. */
import { DECLARATIONS } from "../operations";
import { listedMarkets, marketsSchema } from "../operations/markets-list";
import { proceduresOf } from "../procedure";
import { createRouter, publicProcedure } from "../trpc";

export const marketsRouter = createRouter({
  ...proceduresOf(DECLARATIONS, "markets"),
  /** The same list for the dashboard's home page, which anyone may read (never on REST or MCP). */
  browse: publicProcedure.output(marketsSchema).query(({ ctx }) => listedMarkets(ctx.db)),
});
