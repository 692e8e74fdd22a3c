/** Authenticates a dashboard request by its next-auth session cookie. */
import type { Database } from "../../db/client";
import { unauthorized } from "../errors/api-error";
import type { Authenticate } from "./caller";
import { auth } from "./config";
import { sessionCaller } from "./session-caller";
import { stillSignedIn } from "./sso";

export function sessionAuthenticator(db: Database): Authenticate {
  return async () => {
    const session = await auth();
    const userId = session?.user?.id;
    if (!userId || !(await stillSignedIn(userId, db))) throw unauthorized("Sign in to use the dashboard.");
    return sessionCaller(db, userId);
  };
}
