import { accountRouter } from "./routers/account";
import { auditRouter } from "./routers/audit";
import { billingRouter } from "./routers/billing";
import { connectionsRouter } from "./routers/connections";
import { creditsRouter } from "./routers/credits";
import { embedsRouter } from "./routers/embeds";
import { exportsRouter } from "./routers/exports";
import { followingRouter } from "./routers/following";
import { geographiesRouter } from "./routers/geographies";
import { identityProviderRouter } from "./routers/identity-provider";
import { marketsRouter } from "./routers/markets";
import { membersRouter } from "./routers/members";
import { notificationsRouter } from "./routers/notifications";
import { organizationsRouter } from "./routers/organizations";
import { readingsRouter } from "./routers/readings";
import { tokensRouter } from "./routers/tokens";
import { webhooksRouter } from "./routers/webhooks";
import { type ApiMeta, createCallerFactory, createRouter } from "./trpc";

/** The one API: REST, MCP and the dashboard all call these procedures. */
export const appRouter = createRouter({
  markets: marketsRouter,
  geographies: geographiesRouter,
  readings: readingsRouter,
  exports: exportsRouter,
  account: accountRouter,
  // The dashboard's own procedures (signed-in people; not on REST or MCP).
  organizations: organizationsRouter,
  members: membersRouter,
  tokens: tokensRouter,
  credits: creditsRouter,
  billing: billingRouter,
  connections: connectionsRouter,
  following: followingRouter,
  notifications: notificationsRouter,
  webhooks: webhooksRouter,
  audit: auditRouter,
  embeds: embedsRouter,
  identityProvider: identityProviderRouter,
});

export type AppRouter = typeof appRouter;

/** The metadata every procedure declares: its operation and its REST route. */
export const procedureMetas: ApiMeta[] = Object.values(appRouter._def.procedures).map(
  (procedure) => (procedure as unknown as { _def: { meta?: ApiMeta } })._def.meta ?? {},
);

/** Server-side calls (MCP tools, server components) go through the same procedures. */
export const createCaller = createCallerFactory(appRouter);
