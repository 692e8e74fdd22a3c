/**
 * What a dashboard page needs before it renders: a signed-in person (else the sign-in page, which
 * returns here) and, for most pages, an organization (else onboarding, which returns here).
 */
import "server-only";
import { redirect } from "next/navigation";
import { cache } from "react";
import { ONBOARDING_PATH, SIGN_IN_PATH } from "../2-http/paths";
import { unreadCount } from "../4-following/inbox";
import { activeOrganizationOf, type Membership, organizationsOf } from "../4-organizations/organizations";
import { getDatabase } from "../5-database/app-database";
import { type SignedIn, signedInPerson } from "../6-auth/session";

export type { SignedIn };

/** A relative path to return to, or null: never another origin (`//host`, `https:`…). */
export function safeReturnPath(value: unknown): string | null {
  return typeof value === "string" && value.startsWith("/") && !value.startsWith("//") && !value.includes("\\")
    ? value
    : null;
}

/**
 * The session's check (server/6-auth/session.ts), once per request: the header and the page both
 * ask, and only the first would see a de-provisioning happen (the session next-auth read is the
 * request's own).
 */
export const currentUser: () => Promise<SignedIn | null> = cache(() => signedInPerson());

export async function requireUser(returnTo: string): Promise<SignedIn> {
  const user = await currentUser();
  if (!user) redirect(`${SIGN_IN_PATH}?callbackUrl=${encodeURIComponent(returnTo)}`);
  return user;
}

export async function requireOrganization(returnTo: string): Promise<{ user: SignedIn; organization: Membership }> {
  const user = await requireUser(returnTo);
  const { db } = await getDatabase();
  const organization = await activeOrganizationOf(db, user.id);
  if (!organization) redirect(`${ONBOARDING_PATH}?returnTo=${encodeURIComponent(returnTo)}`);
  return { user, organization };
}

/** The header's view of the person: their organizations and the active one. */
export async function headerState(): Promise<{
  user: SignedIn;
  organizations: Membership[];
  active: Membership | null;
  unread: number;
} | null> {
  const user = await currentUser();
  if (!user) return null;
  const { db } = await getDatabase();
  const [organizations, active, unread] = await Promise.all([
    organizationsOf(db, user.id),
    activeOrganizationOf(db, user.id),
    unreadCount(db, user.id),
  ]);
  return { user, organizations, active, unread };
}
