/**
 * The signed-in person's organizations: list, create (onboarding), switch the active one; and the
 * active organization's settings and deletion, for the roles the roles table lets.
 */
import { z } from "zod";
import { invalidRequest, notFound, quotaExceeded } from "../1-errors/api-error";
import { readGeographies } from "../3-catalog/store";
import { changeOrganizationSettings, deleteOrganization } from "../4-organizations/organization-settings";
import {
  createOrganization,
  newOrganizationTerms,
  OrganizationError,
  OrganizationLimitError,
  organizationsOf,
  switchOrganization,
} from "../4-organizations/organizations";
import { countryCode } from "../7-procedures/schemas";
import { createRouter, permittedProcedure, userProcedure } from "../7-procedures/trpc";

export const organizationsRouter = createRouter({
  list: userProcedure.query(async ({ ctx }) => ({
    activeId: ctx.caller.organization?.id ?? null,
    organizations: await organizationsOf(ctx.db, ctx.userId),
    /** What one more organization would start with, and how many more this person may create. */
    next: await newOrganizationTerms(ctx.db, ctx.userId),
  })),

  /** Countries an organization may call home (onboarding runs before any organization exists). */
  countries: userProcedure.query(async ({ ctx }) =>
    (await readGeographies(ctx.db)).map(({ country, name, controls }) => ({
      country,
      name,
      controlCount: controls.length,
    })),
  ),

  create: userProcedure
    .meta({
      audit: {
        action: "organization.create",
        // Not the active organization yet when the call began: the one it created.
        organization: (_: unknown, out: { id: string }) => out.id,
        target: (_: unknown, out: { id: string }) => ({ type: "organization", id: out.id }),
        details: (_: unknown, out: { name: string; homeCountry: string; creditBalance: number }) => ({
          name: out.name,
          homeCountry: out.homeCountry,
          startingCredits: out.creditBalance,
        }),
      },
    })
    .input(
      z.object({
        name: z.string().trim().min(1, "Name the organization").max(100, "At most 100 characters"),
        homeCountry: countryCode,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      try {
        return await createOrganization(ctx.db, { ...input, ownerUserId: ctx.userId, selfServe: true });
      } catch (error) {
        if (error instanceof OrganizationLimitError) throw quotaExceeded(error.message);
        if (error instanceof OrganizationError)
          throw invalidRequest(error.message, [{ path: "homeCountry", message: error.message }]);
        throw error;
      }
    }),

  switch: userProcedure.input(z.object({ organizationId: z.string().max(64) })).mutation(async ({ ctx, input }) => {
    if (!(await switchOrganization(ctx.db, ctx.userId, input.organizationId)))
      throw notFound("You do not belong to that organization.");
    return { activeId: input.organizationId };
  }),

  /** Renames the active organization or changes its home country; both recorded as they were and are. */
  updateSettings: permittedProcedure("organization.settings")
    .meta({
      audit: {
        action: "organization.settings_change",
        target: (_: unknown, out: { id: string }) => ({ type: "organization", id: out.id }),
        details: (_: unknown, out: { before: Record<string, string>; after: Record<string, string> }) =>
          Object.fromEntries(
            Object.keys(out.after)
              .filter((key) => out.before[key] !== out.after[key])
              .map((key) => [key, { from: out.before[key], to: out.after[key] }]),
          ),
      },
    })
    .input(
      z
        .object({
          name: z.string().trim().min(1, "Name the organization").max(100, "At most 100 characters").optional(),
          homeCountry: countryCode.optional(),
        })
        .refine(
          (change) => change.name !== undefined || change.homeCountry !== undefined,
          "Change the name or the home country",
        ),
    )
    .mutation(async ({ ctx, input }) => {
      try {
        return { id: ctx.organization.id, ...(await changeOrganizationSettings(ctx.db, ctx.organization.id, input)) };
      } catch (error) {
        if (error instanceof OrganizationError)
          throw invalidRequest(error.message, [
            { path: input.homeCountry ? "homeCountry" : "name", message: error.message },
          ]);
        throw error;
      }
    }),

  /** Deletes the active organization once its name is typed again; owners only (organization.delete). */
  delete: permittedProcedure("organization.delete")
    .meta({
      audit: {
        action: "organization.delete",
        target: (_: unknown, out: { id: string }) => ({ type: "organization", id: out.id }),
        details: (_: unknown, out: { name: string; balance: number; connections: number }) => ({
          name: out.name,
          creditsLost: out.balance,
          connectionsDeleted: out.connections,
        }),
      },
    })
    .input(z.object({ confirmName: z.string().max(200) }))
    .mutation(async ({ ctx, input }) => {
      try {
        return {
          id: ctx.organization.id,
          ...(await deleteOrganization(ctx.db, ctx.organization.id, input.confirmName)),
        };
      } catch (error) {
        if (error instanceof OrganizationError)
          throw invalidRequest(error.message, [{ path: "confirmName", message: error.message }]);
        throw error;
      }
    }),
});
