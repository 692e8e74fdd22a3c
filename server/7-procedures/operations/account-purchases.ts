import { z } from "zod";
import { type PurchaseCursor, purchasesPage } from "../../4-billing/purchases";
import { cursorInput, decodeCursor, encodeCursor, invalidCursor } from "../cursor";
import { declareLive } from "../declaration";
import { credits, timestamp, wholeNumber } from "../schemas";

export const purchasesInput = z.object({
  limit: wholeNumber("limit", 1, 100).default(25).meta({ description: "Purchases per page, newest first." }),
  cursor: cursorInput,
});

export const purchasesSchema = z
  .object({
    purchases: z.array(
      z.object({
        id: z.string().meta({ description: "The purchase (pur_…); ledger entries of it name it." }),
        credits: credits.meta({ description: "The credits of the pack bought." }),
        amount: z.number().int().positive().meta({ description: "The price, in the currency's minor units (cents)." }),
        currency: z.string().meta({ description: "ISO 4217, lower case, e.g. eur." }),
        state: z.enum(["pending", "paid", "failed", "refunded", "partially_refunded", "disputed"]),
        creditsRemoved: credits.meta({ description: "Credits refunds and disputes took back." }),
        invoiceUrl: z.string().nullable().meta({ description: "Stripe's hosted invoice, once made." }),
        createdAt: timestamp,
        paidAt: timestamp.nullable(),
      }),
    ),
    nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last." }),
  })
  .meta({ id: "Purchases", description: "The organization's credit purchases by card, newest first." });

/** A purchases cursor names the last purchase of the previous page (its millisecond and id), opaque to callers. */
const cursorOf = (at: PurchaseCursor) => encodeCursor("p", `${at.createdAt.getTime()}:${at.id}`);

/** 9999-12-31T23:59:59.999Z: the last millisecond whose ISO text PostgreSQL reads. */
const LAST_CURSOR_MS = 253_402_300_799_999;

function cursorFrom(cursor: string): PurchaseCursor {
  const [ms, id] = decodeCursor("p", cursor, /^(\d{1,15}):(pur_[a-f0-9]{1,64})$/);
  // A forged time past the year 9999 is still a JavaScript date, but its ISO text ("+033658-…")
  // is not PostgreSQL's: without this bound the query failed, a 500 instead of this 400.
  if (Number(ms) > LAST_CURSOR_MS) throw invalidCursor();
  return { createdAt: new Date(Number(ms)), id: id as string };
}

export const accountPurchases = declareLive({
  group: "account",
  name: "purchases",
  scope: null,
  credits: 0,
  path: "/purchases",
  summary: "Credit purchases",
  description:
    "The organization's packs bought by card (docs/billing.md), newest first: how many, the price, state (pending, paid, failed, refunded, partially_refunded, disputed) and the invoice. Pages with `cursor`. Any valid token may call it, whatever its scopes.",
  input: purchasesInput,
  output: purchasesSchema,
  example: { limit: 10 },
  caching: "live",
  answer: async (ctx, input) => {
    const organization = ctx.caller?.organization;
    if (!organization) return { purchases: [], nextCursor: null };
    const before = input.cursor === undefined ? undefined : cursorFrom(input.cursor);
    const page = await purchasesPage(ctx.db, organization.id, { before, limit: input.limit });
    return {
      purchases: page.purchases.map((purchase) => ({
        id: purchase.id,
        credits: purchase.credits,
        amount: purchase.amount,
        currency: purchase.currency,
        state: purchase.state,
        creditsRemoved: purchase.creditsRemoved,
        invoiceUrl: purchase.invoiceUrl,
        createdAt: purchase.createdAt.toISOString(),
        paidAt: purchase.paidAt?.toISOString() ?? null,
      })),
      nextCursor: page.next === null ? null : cursorOf(page.next),
    };
  },
});
