/** The readings of a market release: every procedure built from its declaration (../operations/). */
import { DECLARATIONS } from "../procedures/operations";
import { proceduresOf } from "../procedures/procedure";
import { createRouter } from "../procedures/trpc";

export const readingsRouter = createRouter(proceduresOf(DECLARATIONS, "readings"));
