/**
 * The one check of the dashboard's session cookie, for every route that trusts it: the dashboard's
 * tRPC endpoint and server components, its pages, the consent page and the consent decision. A
 * session counts only while next-auth knows it and the person is still signed in as far as their
 * organization's identity provider goes (server/6-auth/sso.ts: a session made outside an IdP their
 * address must now use ends; a link due for a recheck is asked again, and a person the IdP
 * refuses is de-provisioned). A route that reads the session any other way would let a session
 * those checks ended act once more.
 */
import type { Database } from "../../db/client";
import { unauthorized } from "../1-errors/api-error";
import type { Authenticate } from "./caller";
import { auth } from "./config";
import { sessionCaller } from "./session-caller";
import { stillSignedIn } from "./sso";

export interface SignedIn {
  id: string;
  email: string | null;
}

/** The person this request's session cookie signs in, or null (none, expired, or ended by the checks above). */
export async function signedInPerson(database?: Database): Promise<SignedIn | null> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id || !(await stillSignedIn(id, database))) return null;
  return { id, email: session?.user?.email ?? null };
}

export function sessionAuthenticator(db: Database): Authenticate {
  return async () => {
    const person = await signedInPerson(db);
    if (!person) throw unauthorized("Sign in to use the dashboard.");
    return sessionCaller(db, person.id);
  };
}
