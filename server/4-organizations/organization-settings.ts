/**
 * An organization's own settings (name, home country) and its deletion: the changes only those the
 * roles table lets make (organization.settings, organization.delete: server/1-domain/roles.ts).
 */
import { eq } from "drizzle-orm";
import { announceChange } from "../../db/change-feed";
import type { Database } from "../../db/client";
import { geographies, organizations } from "../../db/schema";
import { deleteGrants, grantsOfOrganization } from "./connections";
import { OrganizationError } from "./organizations";

/** An organization's name and home country, as settings change them. */
export interface OrganizationSettings {
  name: string;
  homeCountry: string;
}

/**
 * Changes the organization's name and/or home country (the country readings engage when a call
 * names none): what they were and are now. The home country must be a known geography.
 */
export async function changeOrganizationSettings(
  db: Database,
  organizationId: string,
  change: Partial<OrganizationSettings>,
): Promise<{ before: OrganizationSettings; after: OrganizationSettings }> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ name: organizations.name, homeCountry: organizations.homeCountry })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .for("update");
    if (!before) throw new OrganizationError("no such organization");
    const after = {
      name: change.name?.trim() ?? before.name,
      homeCountry: change.homeCountry?.toUpperCase() ?? before.homeCountry,
    };
    if (after.name.length === 0 || after.name.length > 100)
      throw new OrganizationError("the name must have 1 to 100 characters");
    if (after.homeCountry !== before.homeCountry) {
      const [geography] = await tx
        .select({ country: geographies.country })
        .from(geographies)
        .where(eq(geographies.country, after.homeCountry));
      if (!geography) throw new OrganizationError(`"${after.homeCountry}" is not a known geography`);
    }
    await tx.update(organizations).set(after).where(eq(organizations.id, organizationId));
    return { before, after };
  });
}

/**
 * Deletes the organization and everything that is its own — memberships, API tokens, webhook
 * endpoints, invitations, its ledger and balance — once `confirmName` repeats its name exactly.
 * The MCP connections that acted for it are deleted first: a grant left unbound would act for its
 * person's active organization. Its audit trail stays (audit_events keeps no foreign key).
 */
export async function deleteOrganization(
  db: Database,
  organizationId: string,
  confirmName: string,
): Promise<{ name: string; balance: number; connections: number }> {
  const deleted = await db.transaction(async (tx) => {
    const [organization] = await tx
      .select({ name: organizations.name, balance: organizations.creditBalance })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .for("update");
    if (!organization) throw new OrganizationError("no such organization");
    if (confirmName !== organization.name)
      throw new OrganizationError("type the organization's name exactly to confirm deleting it");
    const grants = await grantsOfOrganization(tx, organizationId);
    await deleteGrants(tx, grants);
    await tx.delete(organizations).where(eq(organizations.id, organizationId));
    return { ...organization, connections: grants.length };
  });
  // Its tokens are gone: this instance forgets them at once, others on the api_tokens trigger's NOTIFY.
  announceChange("credentials");
  return deleted;
}
