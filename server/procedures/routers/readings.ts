/** The readings of a market release: every procedure built from its declaration (../operations/). */
import { DECLARATIONS } from "../operations";
import { proceduresOf } from "../procedure";
import { createRouter } from "../trpc";

export const readingsRouter = createRouter(proceduresOf(DECLARATIONS, "readings"));
