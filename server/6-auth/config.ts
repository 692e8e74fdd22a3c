/**
 * next-auth v5: e-mail magic links (plus GitHub and Google when their env vars are set), with
 * database sessions through @auth/drizzle-adapter on our one database.
 */
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import NextAuth, { type NextAuthConfig } from "next-auth";
import type { Provider } from "next-auth/providers";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";
import { authAccounts, authSessions, authVerificationTokens, users } from "../../db/schema";
import { appSecret } from "../3-keys/app-secret";
import { ssoRequiredFor } from "../4-identity/sso";
import { getDatabase } from "../5-database/app-database";
import { deliverMail } from "../6-mail/mail";

/** How long a sign-in link works. */
const MAGIC_LINK_MAX_AGE = 15 * 60;

import { clientNetworkOf } from "../2-http/client-address";
import { CHECK_EMAIL_PATH, SIGN_IN_PATH } from "../2-http/paths";
import { THROTTLES, type ThrottleRule, throttle, throttled, throttleKey, type Verdict } from "../3-limits/throttles";
import { log } from "../3-observability/logger";
import { sessionMaxAge } from "./session-age";

/** Where the sign-in page sends someone whose organization requires its own sign-in (docs/enterprise.md). */
export const SSO_REQUIRED_PATH = `${SIGN_IN_PATH}?sso_error=required`;

/** What a sign-in mail counts against: its address, and the network asking (server/3-limits/throttles.ts). */
const signInThrottles = (address: string, headers: Pick<Headers, "get">): [ThrottleRule, string | null][] => [
  [THROTTLES.signInPerAddress, address],
  [THROTTLES.signInPerClient, clientNetworkOf(headers)],
];

/**
 * Whether a sign-in mail to this address, asked from these headers, would be refused now, and
 * for how long: the sign-in form says so instead of "we sent you a link". Counts nothing; the
 * mail's own request counts (above). A throttle that cannot answer refuses nothing.
 */
export function signInThrottled(address: string, headers: Pick<Headers, "get">): Promise<Verdict> {
  return getDatabase()
    .then(({ db }) => throttled(db, signInThrottles(address.trim(), headers)))
    .catch((): Verdict => ({ allowed: true }));
}

function providers(): Provider[] {
  const list: Provider[] = [
    {
      id: "email",
      type: "email",
      name: "E-mail",
      maxAge: MAGIC_LINK_MAX_AGE,
      async sendVerificationRequest({ identifier, url, request }) {
        const { db } = await getDatabase();
        // An address whose organization requires its IdP gets no link (the sign-in page says why).
        if (await ssoRequiredFor(db, identifier)) {
          log().info("sign-in mail not sent: the address's organization requires its identity provider");
          return;
        }
        // The requester sees the same page whether or not a mail goes out: nothing to enumerate.
        const verdict = await throttle(db, signInThrottles(identifier, request.headers)).catch((error: unknown) => {
          // A throttle that cannot count does not lock people out: the mail goes, the fault is logged.
          log().error({ error: String(error) }, "sign-in throttle failed");
          return { allowed: true } as const;
        });
        if (!verdict.allowed) {
          log().warn({ address: throttleKey(identifier) }, "sign-in mail throttled");
          return;
        }
        await deliverMail(db, {
          to: identifier,
          subject: "Sign in to Market Positioning",
          text: `Sign in to Market Positioning with this link (it works once, for ${MAGIC_LINK_MAX_AGE / 60} minutes):\n\n${url}\n\nIf you did not ask for it, ignore this mail.`,
          url,
        });
      },
    },
  ];
  return [...list, ...oauthProviders().map((p) => p.provider)];
}

async function config(): Promise<NextAuthConfig> {
  const { db } = await getDatabase();
  return {
    adapter: DrizzleAdapter(db, {
      usersTable: users,
      accountsTable: authAccounts,
      sessionsTable: authSessions,
      verificationTokensTable: authVerificationTokens,
    }),
    secret: appSecret(),
    // next-auth reads the origin from X-Forwarded-Host/-Proto; the route hands it a request whose
    // origin headers we wrote from the operator's origin (atPublicOrigin), never the client's.
    trustHost: true,
    session: { strategy: "database", maxAge: sessionMaxAge() },
    providers: providers(),
    pages: { signIn: SIGN_IN_PATH, verifyRequest: CHECK_EMAIL_PATH, error: SIGN_IN_PATH },
    callbacks: {
      // Required SSO: no e-mail link (an old one included) and no GitHub or Google for those addresses.
      async signIn({ user }) {
        if (await ssoRequiredFor(db, user.email)) return SSO_REQUIRED_PATH;
        return true;
      },
      // Only who and until when: the database session row (its token above all) stays on the server.
      session({ session, user }) {
        return {
          user: { id: user.id, name: user.name ?? null, email: user.email, image: user.image ?? null },
          expires: session.expires,
        } as typeof session;
      },
    },
    logger: {
      // Never log tokens or links: next-auth's default error logging may include request details.
      error: (error) => log().error({ error: `${error.name}: ${error.message}` }, "auth: error"),
      warn: (code) => log().warn({ code }, "auth: warning"),
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(config);

/** GitHub and Google appear only when both their env vars (AUTH_<NAME>_ID/_SECRET) are set. */
const OAUTH_PROVIDERS = [
  { id: "github", name: "GitHub", env: "AUTH_GITHUB", provider: GitHub },
  { id: "google", name: "Google", env: "AUTH_GOOGLE", provider: Google },
];

export const oauthProviders = (env: NodeJS.ProcessEnv = process.env) =>
  OAUTH_PROVIDERS.filter((p) => env[`${p.env}_ID`] && env[`${p.env}_SECRET`]);
