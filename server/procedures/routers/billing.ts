/**
 * Credit packs bought by card (docs/billing.md), for the dashboard's credits page: the packs on
 * sale, beginning a checkout (credits.manage: owners and billing; others 403), the purchases, and
 * how the return from Checkout went. Dashboard only: no operation metadata, so never on REST or MCP
 * (GET /v1/purchases is its own declaration).
 */
import { z } from "zod";
import { purchaseCap, setPurchaseCap } from "../../billing/cap";
import { type PreparedCheckout, prepareCheckout, recordCheckout } from "../../billing/checkout";
import { howToGetCredits, pricePerThousand, processBillingConfig } from "../../billing/config";
import { customerPortalUrl } from "../../billing/portal";
import { purchaseBySession, purchasesPage } from "../../billing/purchases";
import { can, rolesThatMay } from "../../domain/roles";
import { mailLinkOrigin } from "../../http/origin";
import { createRouter, permittedProcedure } from "../trpc";

const CHECKOUT_INPUT = z.object({ pack: z.string().min(1).max(64) }).strict();

const capMessage = "A whole number of credits a month from 0, or null for the operator's cap";
const CAP_INPUT = z
  .object({
    credits: z
      .number({ error: capMessage })
      .int({ error: capMessage })
      .min(0, { error: capMessage })
      .max(1_000_000_000, { error: capMessage })
      .nullable(),
  })
  .strict();

export const billingRouter = createRouter({
  /** The packs, their price per 1,000 credits, and whether this person may buy (and who may). */
  packs: permittedProcedure("credits.read").query(({ ctx }) => {
    const config = processBillingConfig();
    return {
      enabled: config.stripe !== null,
      canBuy: config.stripe !== null && can(ctx.role, "credits.manage"),
      buyers: rolesThatMay("credits.manage"),
      howToGetCredits: howToGetCredits(config, ctx.origin),
      packs: config.packs.map((pack) => ({ ...pack, pricePerThousand: pricePerThousand(pack) })),
    };
  }),

  checkout: permittedProcedure("credits.manage")
    .meta({
      audit: {
        action: "credits.checkout",
        target: (_: unknown, out: { purchaseId: string }) => ({ type: "purchase", id: out.purchaseId }),
        details: (_: unknown, out: { checkoutSessionId: string; pack: PreparedCheckout["pack"] }) => ({
          pack: out.pack.id,
          credits: out.pack.credits,
          amount: out.pack.amount,
          currency: out.pack.currency,
          checkoutSessionId: out.checkoutSessionId,
        }),
        // Stripe's customer and session are made before the transaction: no connection waits on Stripe.
        prepare: async (raw, { db, organizationId }) => {
          const parsed = CHECKOUT_INPUT.safeParse(raw);
          if (!parsed.success || !organizationId) return null; // the parser answers for it
          return prepareCheckout(db, processBillingConfig(), {
            organizationId,
            packId: parsed.data.pack,
            origin: mailLinkOrigin(),
          });
        },
      },
    })
    .input(CHECKOUT_INPUT)
    .mutation(async ({ ctx }) => {
      const prepared = ctx.prepared as PreparedCheckout | null;
      if (!prepared || prepared.organizationId !== ctx.organization.id)
        throw new Error("the checkout was not prepared");
      return recordCheckout(ctx.db, prepared);
    }),

  purchases: permittedProcedure("credits.read")
    .input(z.object({ limit: z.number().int().min(1).max(100).default(25) }))
    .query(async ({ ctx, input }) => {
      const page = await purchasesPage(ctx.db, ctx.organization.id, { limit: input.limit });
      return page.purchases;
    }),

  /** The monthly purchase cap in force, the operator's and the owner's, and what this month took. */
  cap: permittedProcedure("credits.read").query(async ({ ctx }) => ({
    ...(await purchaseCap(ctx.db, processBillingConfig(), ctx.organization.id)),
    canLower: can(ctx.role, "credits.cap"),
  })),

  /** An owner lowers the cap (never above the operator's), or gives the operator's back with null. */
  setCap: permittedProcedure("credits.cap")
    .meta({
      audit: {
        action: "credits.cap_change",
        details: (_: unknown, out: { before: number | null; after: number | null }) => ({
          before: out.before,
          after: out.after,
        }),
      },
    })
    .input(CAP_INPUT)
    .mutation(({ ctx, input }) => setPurchaseCap(ctx.db, processBillingConfig(), ctx.organization.id, input.credits)),

  /**
   * Stripe's customer portal for the saved card and the invoices. Not audited: opening it changes
   * nothing here (what changes at Stripe comes back as events).
   */
  portal: permittedProcedure("credits.manage")
    .input(z.object({}).strict().optional())
    .mutation(async ({ ctx }) => ({
      url: await customerPortalUrl(ctx.db, processBillingConfig(), ctx.organization.id, mailLinkOrigin()),
    })),

  /** How the return from Checkout went: the purchase of the session named in `?checkout=`. */
  returned: permittedProcedure("credits.read")
    .input(z.object({ session: z.string().min(1).max(255) }))
    .query(async ({ ctx, input }) => {
      if (input.session === "cancelled") return { state: "cancelled" as const };
      const purchase = await purchaseBySession(ctx.db, ctx.organization.id, input.session);
      if (!purchase) return { state: "unknown" as const };
      const state = purchase.state === "pending" ? "pending" : purchase.state === "failed" ? "failed" : "received";
      return { state, credits: purchase.credits } as const;
    }),
});
