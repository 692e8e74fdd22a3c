/**
 * Credit packs bought by card (docs/billing.md), for the dashboard's credits page: the packs on
 * sale, beginning a checkout (credits.manage: owners and billing; others 403), the purchases, and
 * how the return from Checkout went. Dashboard only: no operation metadata, so never on REST or MCP
 * (GET /v1/purchases is its own declaration).
 */
import { z } from "zod";
import { can, rolesThatMay } from "../1-domain/roles";
import { invalidRequest } from "../1-errors/api-error";
import { mailLinkOrigin } from "../2-http/origin";
import { purchaseCap, setPurchaseCap } from "../4-billing/cap";
import { type PreparedCheckout, prepareCheckout, recordCheckout, stripeSettingsOf } from "../4-billing/checkout";
import { howToGetCredits, pricePerThousand, processBillingConfig } from "../4-billing/config";
import { customerPortalUrl } from "../4-billing/portal";
import { purchaseBySession, purchasesPage } from "../4-billing/purchases";
import { prepareCardSetup } from "../4-billing/top-up";
import { saveTopUpSettings, TOP_UP_MAX_PER_MONTH, TOP_UP_THRESHOLD_MAX, topUpView } from "../4-billing/top-up-settings";
import { createRouter, permittedProcedure } from "../7-procedures/trpc";

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

const TOP_UP_INPUT = z
  .object({
    enabled: z.boolean(),
    threshold: z.number().int().min(0).max(TOP_UP_THRESHOLD_MAX),
    pack: z.string().min(1).max(64),
    maxPerMonth: z.number().int().min(1).max(TOP_UP_MAX_PER_MONTH),
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

  /** Automatic top-up: the settings, the saved card, whether it is armed or paused, this month's attempts. */
  topUp: permittedProcedure("credits.read").query(async ({ ctx }) => {
    const config = processBillingConfig();
    return {
      available: config.stripe !== null,
      canManage: config.stripe !== null && can(ctx.role, "credits.manage"),
      ...(await topUpView(ctx.db, ctx.organization.id)),
    };
  }),

  /** Saves the settings: failures in a row and a pause are forgotten, and it is armed when it can be. */
  setTopUp: permittedProcedure("credits.manage")
    .meta({
      audit: {
        action: "credits.top_up_changed",
        target: () => ({ type: "top_up_settings", id: null }),
        details: (
          _: unknown,
          out: { enabled: boolean; threshold: number; packId: string; maxPerMonth: number; armed: boolean },
        ) => out,
      },
    })
    .input(TOP_UP_INPUT)
    .mutation(async ({ ctx, input }) => {
      const config = processBillingConfig();
      stripeSettingsOf(config);
      if (!config.packs.some((pack) => pack.id === input.pack)) {
        const message = `no pack "${input.pack.slice(0, 40)}": choose one of ${config.packs.map((p) => p.id).join(", ")}`;
        throw invalidRequest(message, [{ path: "pack", message }]);
      }
      const choice = {
        enabled: input.enabled,
        threshold: input.threshold,
        packId: input.pack,
        maxPerMonth: input.maxPerMonth,
      };
      const armed = await saveTopUpSettings(ctx.db, ctx.organization.id, choice);
      return { ...choice, armed: armed !== null };
    }),

  /** "Save a card": a Checkout Session in setup mode; the card is kept when Stripe says it was saved. */
  saveCard: permittedProcedure("credits.manage")
    .meta({
      audit: {
        action: "credits.card_setup",
        target: (_: unknown, out: { checkoutSessionId: string }) => ({
          type: "checkout_session",
          id: out.checkoutSessionId,
        }),
        // Stripe's customer and session are made before the transaction: no connection waits on Stripe.
        prepare: async (_raw, { db, organizationId }) =>
          organizationId
            ? prepareCardSetup(db, processBillingConfig(), { organizationId, origin: mailLinkOrigin() })
            : null,
      },
    })
    .mutation(({ ctx }) => {
      const prepared = ctx.prepared as Awaited<ReturnType<typeof prepareCardSetup>> | null;
      if (!prepared) throw new Error("the card setup was not prepared");
      return prepared;
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
