/**
 * The ways in, wherever someone signs in (the sign-in page, an invitation opened signed out): an
 * e-mail link to an address (filled in when the page knows it), then GitHub or Google when the
 * operator set them up. An address whose organization signs its people in through its own identity
 * provider is sent to that instead; an address (or a network) that asked for too many links is
 * told so, and when to try again, instead of "we sent you a link" with nothing sent.
 */
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { CHECK_EMAIL_PATH, SIGN_IN_PATH } from "@/server/2-http/paths";
import { ssoProviderForEmail } from "@/server/4-identity/sso";
import { getDatabase } from "@/server/5-database/app-database";
import { oauthProviders, signIn, signInThrottled } from "@/server/6-auth/config";

/** The sign-in page's address for a refused link: when to try again, and the address kept. */
function throttledPath(returnTo: string, email: string, retryAfterSeconds: number): string {
  const query = new URLSearchParams({
    callbackUrl: returnTo,
    email,
    retry_at: String(Math.ceil(Date.now() / 1000) + retryAfterSeconds),
  });
  return `${SIGN_IN_PATH}?${query}`;
}

/** Sends the link, unless the throttles would refuse it: then back to say so. */
async function sendOrSayThrottled(email: string, returnTo: string): Promise<never> {
  const verdict = await signInThrottled(email, await headers());
  if (!verdict.allowed) redirect(throttledPath(returnTo, email, verdict.retryAfterSeconds));
  // No redirect through /api/auth: the router would follow it as a page and stall there.
  await signIn("email", { email, redirectTo: returnTo, redirect: false });
  redirect(CHECK_EMAIL_PATH);
}

export function SignInForms({
  returnTo,
  email,
  companySignInOffered = false,
}: {
  returnTo: string;
  /** The address to fill in (an invitation's, or one the page was given). */
  email?: string | null;
  /** The company sign-in was offered for this address already: an e-mail link is what is asked for. */
  companySignInOffered?: boolean;
}) {
  async function sendLink(formData: FormData) {
    "use server";
    const address = String(formData.get("email") ?? "").trim();
    // People of a verified domain with an IdP are offered their company sign-in instead.
    if (!companySignInOffered && (await ssoProviderForEmail((await getDatabase()).db, address)))
      redirect(`${SIGN_IN_PATH}?sso=${encodeURIComponent(address)}&callbackUrl=${encodeURIComponent(returnTo)}`);
    await sendOrSayThrottled(address, returnTo);
  }
  return (
    <>
      <form action={sendLink} className="stack">
        <label>
          E-mail address
          <input
            type="email"
            name="email"
            required
            autoComplete="email"
            placeholder="you@example.com"
            defaultValue={email ?? undefined}
          />
        </label>
        <button type="submit">E-mail me a sign-in link</button>
      </form>
      {oauthProviders().map((provider) => (
        <form
          key={provider.id}
          action={async () => {
            "use server";
            await signIn(provider.id, { redirectTo: returnTo });
          }}
        >
          <button type="submit" className="secondary">
            Continue with {provider.name}
          </button>
        </form>
      ))}
    </>
  );
}

/**
 * The moment a throttled address may ask again, from the sign-in page's `retry_at` (seconds since
 * the epoch): only a moment ahead, within a day; anything else (past, forged, not a number) is none.
 */
export function retryMoment(value: unknown, now = Date.now()): Date | null {
  if (typeof value !== "string" || !/^\d{1,12}$/.test(value)) return null;
  const at = Number(value) * 1000;
  return at > now && at - now <= 86_400_000 ? new Date(at) : null;
}

/** "No link was sent … Try again after 14:05 UTC (in about 7 minutes)." */
export function ThrottledNotice({ until, now = Date.now() }: { until: Date; now?: number }) {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now) / 60_000));
  return (
    <p role="alert" className="error" data-testid="signin-throttled">
      No link was sent: too many sign-in links were asked for this address, or from your network, in the last few
      minutes. Try again after <time dateTime={until.toISOString()}>{until.toISOString().slice(11, 16)} UTC</time> (in
      about {minutes} minute{minutes === 1 ? "" : "s"}). A link sent earlier still works for 15 minutes after it was
      sent.
    </p>
  );
}
