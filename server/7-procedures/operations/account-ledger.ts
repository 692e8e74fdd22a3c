import { z } from "zod";
import { ledgerPage } from "../../4-credits/credits";
import { cursorInput, decodeCursor, encodeCursor } from "../cursor";
import { declareLive } from "../declaration";
import { credits, timestamp, wholeNumber } from "../schemas";

export const ledgerInput = z.object({
  limit: wholeNumber("limit", 1, 100).default(25).meta({ description: "Entries per page, newest first." }),
  cursor: cursorInput,
});

export const ledgerSchema = z
  .object({
    entries: z.array(
      z.object({
        id: z.number().int().positive(),
        kind: z.enum(["grant", "debit", "adjustment", "purchase", "refund", "dispute"]).meta({
          description:
            "grant and purchase (a credit pack paid by card) add; debit, refund and dispute (a purchase paid back or contested) take away; adjustment either.",
        }),
        amount: credits.meta({ description: "Signed: positive for grants and purchases, negative for debits." }),
        balanceAfter: credits,
        operation: z.string().nullable().meta({ description: "The operation a debit paid for." }),
        tokenId: z.string().nullable().meta({ description: "The token or OAuth grant that made the call." }),
        requestId: z.string().nullable(),
        note: z.string().nullable(),
        createdAt: timestamp,
      }),
    ),
    nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last." }),
  })
  .meta({ id: "Ledger", description: "The organization's credits ledger, newest first." });

/** A ledger cursor is the id of the last entry of the previous page, opaque to callers. */
const cursorOf = (id: number) => encodeCursor("l", String(id));
const idOf = (cursor: string) => Number(decodeCursor("l", cursor, /^(\d{1,15})$/)[0]);

export const accountLedger = declareLive({
  group: "account",
  name: "ledger",
  scope: null,
  credits: 0,
  path: "/ledger",
  summary: "Credits ledger",
  description:
    "Every change of the organization's balance, newest first: grants, purchases, refunds, disputes, and each metered call's debit with its operation, token and request id. Pages with `cursor`. Any valid token may call it, whatever its scopes.",
  input: ledgerInput,
  output: ledgerSchema,
  example: { limit: 10 },
  caching: "live",
  answer: async (ctx, input) => {
    const organization = ctx.caller?.organization;
    if (!organization) return { entries: [], nextCursor: null };
    const before = input.cursor === undefined ? undefined : idOf(input.cursor);
    const page = await ledgerPage(ctx.db, organization.id, { before, limit: input.limit });
    return {
      entries: page.entries.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() })),
      nextCursor: page.nextBefore === null ? null : cursorOf(page.nextBefore),
    };
  },
});
