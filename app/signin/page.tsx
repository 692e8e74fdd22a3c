import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { retryMoment, SignInForms, ThrottledNotice } from "@/components/sign-in-forms";
import { emailDomain } from "@/server/1-domain/identity-providers";
import { type SsoRefusalReason, ssoProviderForEmail } from "@/server/4-identity/sso";
import { getDatabase } from "@/server/5-database/app-database";
import { SSO_START_PATH } from "@/server/6-auth/sso";
import { currentUser, safeReturnPath } from "@/server/8-dashboard/guards";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

const ERRORS: Record<string, string> = {
  Verification: "That sign-in link has expired or was used already. Ask for a new one.",
  AccessDenied: "Sign-in was refused.",
};

/** Why a company sign-in (server/4-identity/sso.ts, SSO_REFUSALS) did not sign someone in. */
const SSO_ERRORS: Record<SsoRefusalReason | "required", string> = {
  required: "Your organization requires its company sign-in for your address: continue with your company sign-in.",
  not_configured: "No company sign-in is set up for that address. Ask for an e-mail link instead.",
  expired: "That company sign-in took too long or was started elsewhere. Start again.",
  denied: "Your company's identity provider did not sign you in.",
  invalid: "Your company's identity provider answered with something we cannot trust; nobody was signed in.",
  no_email: "Your company's identity provider gave no verified e-mail address for you.",
  domain:
    "Your company's identity provider signed you in with an address outside the domains your organization has verified.",
  subject:
    "Your company's identity provider signed you in as a different account than the one linked to this address. An owner of the organization must remove the old membership first.",
  unavailable: "Your company's identity provider cannot be reached right now. Try again in a moment.",
};

/** The page's words for a code from the query (own keys only: `toString` is no code). */
const messageOf = (table: Record<string, string>, code: string) =>
  Object.hasOwn(table, code) ? (table[code] as string) : "Sign-in failed; try again.";

export default async function SignInPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const returnTo = safeReturnPath(params.callbackUrl) ?? "/";
  const error =
    typeof params.sso_error === "string"
      ? messageOf(SSO_ERRORS, params.sso_error)
      : typeof params.error === "string"
        ? messageOf(ERRORS, params.error)
        : null;
  // An address whose organization signs its people in through its own IdP (docs/enterprise.md).
  const ssoEmail = typeof params.sso === "string" ? params.sso.slice(0, 254) : null;
  const sso = ssoEmail ? await ssoProviderForEmail((await getDatabase()).db, ssoEmail) : null;
  // An address filled in for the person (a refused link's, kept so they need not type it again).
  const givenEmail = typeof params.email === "string" ? params.email.slice(0, 254) : null;
  const throttledUntil = retryMoment(params.retry_at);
  // Someone signed in already has what this page would give: go where it would have returned to.
  if (await currentUser()) redirect(returnTo);

  return (
    <main className="narrow">
      <h1>Sign in</h1>
      <p data-testid="signin-why">
        {returnTo === "/"
          ? "Sign in to read every market under any country's controls, and to manage API tokens, credits and MCP connections."
          : "Sign in to continue to the page you asked for: market readings, API tokens, credits and MCP connections belong to your account and its organization."}{" "}
        No password: we e-mail you a link. New here? The same link creates your account.
      </p>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {sso && ssoEmail ? (
        <section aria-labelledby="company-sign-in" className="stack" data-testid="company-sign-in">
          <h2 id="company-sign-in">Company sign-in</h2>
          <p>
            Your organization signs in the people of <strong>{emailDomain(ssoEmail)}</strong> through its own identity
            provider.
            {sso.requireSso ? " It requires it: no e-mail link is sent to your address." : null}
          </p>
          <form method="post" action={SSO_START_PATH}>
            <input type="hidden" name="email" value={ssoEmail} />
            <input type="hidden" name="callbackUrl" value={returnTo} />
            <button type="submit">Continue with company sign-in</button>
          </form>
        </section>
      ) : null}
      {throttledUntil ? <ThrottledNotice until={throttledUntil} /> : null}
      {sso?.requireSso ? null : (
        <SignInForms returnTo={returnTo} email={ssoEmail ?? givenEmail} companySignInOffered={sso !== null} />
      )}
    </main>
  );
}
