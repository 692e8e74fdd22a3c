/** Geographies: every country with the sovereign controls it engages (../operations/geographies-list.ts). */
import { DECLARATIONS } from "../7-procedures/operations";
import { proceduresOf } from "../7-procedures/procedure";
import { createRouter } from "../7-procedures/trpc";

export const geographiesRouter = createRouter(proceduresOf(DECLARATIONS, "geographies"));
