/** Whole-release exports: the manifest, one table, the ZIP archive and the citation (../operations/export-*.ts, citation.ts). */
import { DECLARATIONS } from "../operations";
import { proceduresOf } from "../procedure";
import { createRouter } from "../trpc";

export const exportsRouter = createRouter(proceduresOf(DECLARATIONS, "exports"));
