/** Geographies: every country with the sovereign controls it engages (../operations/geographies-list.ts). */
import { DECLARATIONS } from "../procedures/operations";
import { proceduresOf } from "../procedures/procedure";
import { createRouter } from "../procedures/trpc";

export const geographiesRouter = createRouter(proceduresOf(DECLARATIONS, "geographies"));
