/** Whole-release exports: the manifest, one table, the ZIP archive and the citation (../operations/export-*.ts, citation.ts). */
import { DECLARATIONS } from "../7-procedures/operations";
import { proceduresOf } from "../7-procedures/procedure";
import { createRouter } from "../7-procedures/trpc";

export const exportsRouter = createRouter(proceduresOf(DECLARATIONS, "exports"));
