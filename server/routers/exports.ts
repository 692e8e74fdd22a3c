/** Whole-release exports: the manifest, one table, the ZIP archive and the citation (../operations/export-*.ts, citation.ts). */
import { DECLARATIONS } from "../procedures/operations";
import { proceduresOf } from "../procedures/procedure";
import { createRouter } from "../procedures/trpc";

export const exportsRouter = createRouter(proceduresOf(DECLARATIONS, "exports"));
