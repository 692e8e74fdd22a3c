/** The caller's account: organization, usage and ledger (../operations/account-*.ts). */
import { DECLARATIONS } from "../procedures/operations";
import { proceduresOf } from "../procedures/procedure";
import { createRouter } from "../procedures/trpc";

export const accountRouter = createRouter(proceduresOf(DECLARATIONS, "account"));
