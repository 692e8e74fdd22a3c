/** The readings of a market release: every procedure built from its declaration (../operations/). */
import { DECLARATIONS } from "../7-procedures/operations";
import { proceduresOf } from "../7-procedures/procedure";
import { createRouter } from "../7-procedures/trpc";

export const readingsRouter = createRouter(proceduresOf(DECLARATIONS, "readings"));
