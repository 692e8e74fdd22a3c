/** The header of every page: where you are, who you act for, what it has left to spend. */
import Link from "next/link";
import { signOut } from "@/server/auth/config";
import { headerState } from "@/server/dashboard/guards";
import {
  CONNECT_PATH,
  CREDITS_PATH,
  GEOGRAPHIES_PATH,
  NOTIFICATIONS_PATH,
  ONBOARDING_PATH,
  SIGN_IN_PATH,
  TOKENS_PATH,
} from "@/server/http/paths";
import { OrganizationSwitcher } from "./organization-switcher";

async function signOutAction() {
  "use server";
  await signOut({ redirectTo: SIGN_IN_PATH });
}

export async function SiteHeader() {
  const state = await headerState();
  return (
    <header className="site-header">
      <Link href="/" className="brand">
        Market Positioning
      </Link>
      <nav aria-label="Main">
        <Link href="/">Markets</Link>
        {state ? <Link href={GEOGRAPHIES_PATH}>Geographies</Link> : null}
        {state ? <Link href={TOKENS_PATH}>API tokens</Link> : null}
        {state ? <Link href={CREDITS_PATH}>Credits</Link> : null}
        {state ? <Link href={CONNECT_PATH}>Connect MCP</Link> : null}
      </nav>
      <div className="account">
        {state?.active ? (
          <>
            <OrganizationSwitcher organizations={state.organizations} activeId={state.active.id} />
            <Link href={CREDITS_PATH} className="balance" data-testid="header-balance">
              {state.active.creditBalance.toLocaleString("en")} credits
            </Link>
          </>
        ) : state ? (
          <Link href={ONBOARDING_PATH}>Create an organization</Link>
        ) : null}
        {state ? (
          <Link
            href={NOTIFICATIONS_PATH}
            className="bell"
            data-testid="notification-bell"
            aria-label={`Notifications: ${state.unread} unread`}
          >
            <span aria-hidden="true">🔔</span>
            {state.unread > 0 ? (
              <span className="count" data-testid="unread-count">
                {state.unread > 99 ? "99+" : state.unread}
              </span>
            ) : null}
          </Link>
        ) : null}
        {state ? (
          <form action={signOutAction}>
            <span className="who">{state.user.email}</span>
            <button type="submit" className="link-button">
              Sign out
            </button>
          </form>
        ) : (
          <Link href={SIGN_IN_PATH}>Sign in</Link>
        )}
      </div>
    </header>
  );
}
