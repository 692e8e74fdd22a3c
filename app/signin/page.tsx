import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { oauthProviders, signIn } from "@/server/auth/config";
import { currentUser, safeReturnPath } from "@/server/dashboard/guards";
import { CHECK_EMAIL_PATH } from "@/server/http/paths";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

type Search = Promise<Record<string, string | string[] | undefined>>;

const ERRORS: Record<string, string> = {
  Verification: "That sign-in link has expired or was used already. Ask for a new one.",
  AccessDenied: "Sign-in was refused.",
};

export default async function SignInPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const returnTo = safeReturnPath(params.callbackUrl) ?? "/";
  const error = typeof params.error === "string" ? (ERRORS[params.error] ?? "Sign-in failed; try again.") : null;
  // Someone signed in already has what this page would give: go where it would have returned to.
  if (await currentUser()) redirect(returnTo);

  async function sendLink(formData: FormData) {
    "use server";
    // No redirect through /api/auth: the router would follow it as a page and stall there.
    await signIn("email", { email: String(formData.get("email") ?? ""), redirectTo: returnTo, redirect: false });
    redirect(CHECK_EMAIL_PATH);
  }

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
      <form action={sendLink} className="stack">
        <label>
          E-mail address
          <input type="email" name="email" required autoComplete="email" placeholder="you@example.com" />
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
    </main>
  );
}
