/** The caller's account: organization, usage and ledger (../operations/account-*.ts). */
import { DECLARATIONS } from "../7-procedures/operations";
import { proceduresOf } from "../7-procedures/procedure";
import { createRouter } from "../7-procedures/trpc";

export const accountRouter = createRouter(proceduresOf(DECLARATIONS, "account"));
