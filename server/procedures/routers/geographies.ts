/** Geographies: every country with the sovereign controls it engages (../operations/geographies-list.ts). */
import { DECLARATIONS } from "../operations";
import { proceduresOf } from "../procedure";
import { createRouter } from "../trpc";

export const geographiesRouter = createRouter(proceduresOf(DECLARATIONS, "geographies"));
