import { type ApiMeta, createCallerFactory, createRouter } from "../7-procedures/trpc";
import { accountRouter } from "./account";
import { auditRouter } from "./audit";
import { billingRouter } from "./billing";
import { connectionsRouter } from "./connections";
import { creditsRouter } from "./credits";
import { embedsRouter } from "./embeds";
import { exportsRouter } from "./exports";
import { followingRouter } from "./following";
import { geographiesRouter } from "./geographies";
import { identityProviderRouter } from "./identity-provider";
import { marketsRouter } from "./markets";
import { membersRouter } from "./members";
import { notificationsRouter } from "./notifications";
import { organizationsRouter } from "./organizations";
import { readingsRouter } from "./readings";
import { tokensRouter } from "./tokens";
import { webhooksRouter } from "./webhooks";

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
