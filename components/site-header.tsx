/**
 * The header of every page: where you are, who you act for, what it has left to spend. One row at
 * 1280 px and in view while scrolling; on a phone the links fold into a menu (a plain <details>,
 * so it works without JavaScript). The organization switcher shows only when there is a choice.
 */
import Link from "next/link";
import { Suspense } from "react";
import { isLowBalance } from "@/server/1-domain/low-balance";
import { can, type Permission, type Role } from "@/server/1-domain/roles";
import {
  API_DOCS_PATH,
  AUDIT_PATH,
  CONNECT_PATH,
  CREDITS_PATH,
  EMBEDS_PATH,
  GEOGRAPHIES_PATH,
  IDENTITY_PROVIDER_PATH,
  MARKETS_PATH,
  MEMBERS_PATH,
  NOTIFICATIONS_PATH,
  ONBOARDING_PATH,
  SIGN_IN_PATH,
  TOKENS_PATH,
  WEBHOOKS_PATH,
} from "@/server/2-http/paths";
import { signOut } from "@/server/6-auth/config";
import { headerState } from "@/server/8-dashboard/guards";
import { OrganizationSwitcher } from "./account/organization-switcher";
import { count, credits } from "./format";
import { ReadingLink } from "./reading-link";

async function signOutAction() {
  "use server";
  await signOut({ redirectTo: SIGN_IN_PATH });
}

/** A bell drawn as SVG: an emoji renders as an empty box where the font lacks it. */
function BellIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" className="bell-icon">
      <path
        d="M12 3a6 6 0 0 0-6 6v3.6L4.3 15.4A1 1 0 0 0 5.1 17h13.8a1 1 0 0 0 .8-1.6L18 12.6V9a6 6 0 0 0-6-6Zm-2.5 15.5a2.5 2.5 0 0 0 5 0"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function BellContent({ unread }: { unread: number }) {
  return (
    <>
      <BellIcon />
      {unread > 0 ? (
        <span className="count" data-testid="unread-count">
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </>
  );
}

/** The bell before the page's country is known (a prerendered page): to the notifications as they are. */
function Bell({ href, unread }: { href: string; unread: number }) {
  return (
    <Link href={href} className="bell" data-testid="notification-bell" aria-label={`Notifications: ${unread} unread`}>
      <BellContent unread={unread} />
    </Link>
  );
}

/**
 * The active organization's balance, linking to the credits page. At or below the threshold the
 * organization set it turns into a warning, "Low: 40 credits" (on a phone "Low: 40"), whose
 * accessible name starts with what it shows and says what it means.
 */
function Balance({
  organization,
  className,
  testId,
}: {
  organization: { creditBalance: number; lowBalanceThreshold: number };
  className?: string;
  testId?: string;
}) {
  const { creditBalance, lowBalanceThreshold } = organization;
  if (!isLowBalance(creditBalance, lowBalanceThreshold))
    return (
      <Link href={CREDITS_PATH} className={className} data-testid={testId}>
        {credits(creditBalance)}
      </Link>
    );
  return (
    <Link
      href={CREDITS_PATH}
      className={`${className ?? ""} low`.trim()}
      data-testid={testId}
      data-low="true"
      aria-label={`Low: ${credits(creditBalance)}, at or below the warning threshold of ${credits(lowBalanceThreshold)}`}
    >
      <span aria-hidden="true" className="warning-mark">
        !
      </span>
      Low: {count(creditBalance)}
      <span className="balance-unit"> credit{creditBalance === 1 ? "" : "s"}</span>
    </Link>
  );
}

/**
 * The header's links. Account pages the active role cannot use (server/1-domain/roles.ts) are not
 * offered; without an organization yet every page is, and sends to onboarding. Members, Embeds
 * and the audit trail are in the Account menu: the row has no room left at 1280 px beside a long
 * name and a low balance. Signed in, Markets is the list under a country (with how many products
 * each market has usable there), keeping the country of the page it is clicked on.
 */
function MainLinks({ signedIn, role }: { signedIn: boolean; role: Role | null }) {
  const offers = (permission: Permission) => signedIn && (role === null || can(role, permission));
  return (
    <>
      {signedIn ? (
        <Suspense fallback={<Link href={MARKETS_PATH}>Markets</Link>}>
          <ReadingLink destination={{ to: "markets" }}>Markets</ReadingLink>
        </Suspense>
      ) : (
        <Link href="/">Markets</Link>
      )}
      {signedIn ? <Link href={GEOGRAPHIES_PATH}>Geographies</Link> : null}
      {offers("tokens.own") ? <Link href={TOKENS_PATH}>API tokens</Link> : null}
      {offers("credits.read") ? <Link href={CREDITS_PATH}>Credits</Link> : null}
      {offers("webhooks.manage") ? <Link href={WEBHOOKS_PATH}>Webhooks</Link> : null}
      {signedIn ? <Link href={CONNECT_PATH}>Connect MCP</Link> : null}
      <Link href={API_DOCS_PATH}>Docs</Link>
    </>
  );
}

export async function SiteHeader() {
  const state = await headerState();
  return (
    <header className="site-header">
      {/* Its name is what it shows: the long name, or on a phone the short one (WCAG 2.5.3). */}
      <Link href="/" className="brand">
        <span className="brand-long">Market Positioning</span>
        <abbr className="brand-short" title="Market Positioning Service">
          MPS
        </abbr>
      </Link>
      <nav aria-label="Main" className="main-nav">
        <MainLinks signedIn={state !== null} role={state?.active?.role ?? null} />
      </nav>
      <details className="menu">
        <summary>Menu</summary>
        <nav aria-label="Main (menu)">
          <MainLinks signedIn={state !== null} role={state?.active?.role ?? null} />
        </nav>
      </details>
      <div className="account">
        {state?.active ? (
          <>
            {state.organizations.length > 1 ? (
              <OrganizationSwitcher organizations={state.organizations} activeId={state.active.id} />
            ) : (
              <span className="org-name" data-testid="organization-name">
                {state.active.name}
              </span>
            )}
            <Balance organization={state.active} className="balance" testId="header-balance" />
          </>
        ) : state ? (
          <Link href={ONBOARDING_PATH}>Create an organization</Link>
        ) : null}
        {state ? (
          <Suspense fallback={<Bell href={NOTIFICATIONS_PATH} unread={state.unread} />}>
            <ReadingLink
              destination={{ to: "notifications" }}
              className="bell"
              data-testid="notification-bell"
              aria-label={`Notifications: ${state.unread} unread`}
            >
              <BellContent unread={state.unread} />
            </ReadingLink>
          </Suspense>
        ) : null}
        {state ? (
          <details className="user-menu">
            <summary aria-label={`Account: ${state.user.email}`}>Account</summary>
            <form action={signOutAction}>
              <span className="who">{state.user.email}</span>
              {state.active ? (
                <Link href={MEMBERS_PATH} data-testid="members-link">
                  Members of {state.active.name}
                </Link>
              ) : null}
              {/* On a phone the header has no room for these: they live here. */}
              {state.active ? (
                <span className="menu-only">
                  <Balance organization={state.active} />
                  {state.organizations.length > 1 ? (
                    <OrganizationSwitcher
                      organizations={state.organizations}
                      activeId={state.active.id}
                      testId="organization-switcher-menu"
                    />
                  ) : (
                    <span>{state.active.name}</span>
                  )}
                </span>
              ) : null}
              {/* The organization's embedded charts and audit trail: account matters, not pages of the main navigation. */}
              {state.active ? (
                <Link href={EMBEDS_PATH} data-testid="embeds-link">
                  Embeds
                </Link>
              ) : null}
              {state.active ? (
                <Link href={AUDIT_PATH} data-testid="audit-link">
                  Audit trail
                </Link>
              ) : null}
              {state.active && can(state.active.role, "sso.manage") ? (
                <Link href={IDENTITY_PROVIDER_PATH} data-testid="identity-provider-link">
                  Identity provider
                </Link>
              ) : null}
              <button type="submit" className="link-button">
                Sign out
              </button>
            </form>
          </details>
        ) : (
          <Link href={SIGN_IN_PATH}>Sign in</Link>
        )}
      </div>
    </header>
  );
}
