/** The caller's account: organization, usage and ledger (../operations/account-*.ts). */
import { DECLARATIONS } from "../operations";
import { proceduresOf } from "../procedure";
import { createRouter } from "../trpc";

export const accountRouter = createRouter(proceduresOf(DECLARATIONS, "account"));
