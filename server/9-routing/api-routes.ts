/**
 * The routing table of the API: which path is whose, answered straight from Node by our HTTP
 * server (server/5-http-server/http-server.ts) under `npm run dev` and `npm start` alike. There are
 * no app/ route files for /v1, /mcp, the embeds or Stripe's webhook: this is the only door to them. Each surface has one Node
 * entry (`serve…Request`) around one core (`answer…Request`); docs/life-of-a-request.md follows a
 * call through them.
 */

import type { Database } from "../../db/client";
import { MCP_PATH, STRIPE_WEBHOOK_PATH } from "../2-http/paths";
import { serveStripeWebhook } from "../4-billing/webhook";
import { getDatabase } from "../5-database/app-database";
import type { ApiRoute } from "../5-http-server/http-server";
import { isEmbedRoute, serveEmbedRequest } from "../8-embeds/serve";
import { serveMcpRequest } from "../8-mcp/edge";
import { refuseAtTheDoor } from "../8-rest/door";
import { serveRestRequest } from "../8-rest/handler";
import { API_PREFIX } from "../8-rest/routes";

let opened: Database | undefined;
const database = async () => {
  opened = (await getDatabase()).db;
  return opened;
};

export function apiRoutes(): ApiRoute[] {
  return [
    {
      matches: (path) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`),
      refuse: (request, path) => refuseAtTheDoor(request, path, opened),
      serve: (request, response, origin) => serveRestRequest(request, response, origin, database),
    },
    {
      matches: (path) => path === MCP_PATH,
      serve: (request, response, origin) => serveMcpRequest(request, response, origin, database),
    },
    {
      // Public charts (docs/embeds.md): no session, no cookie, no Next.
      matches: isEmbedRoute,
      serve: (request, response) => serveEmbedRequest(request, response, database),
    },
    {
      // Stripe's events (docs/billing.md): signed, no session, no cookie, no Next; the raw body.
      matches: (path) => path === STRIPE_WEBHOOK_PATH,
      serve: (request, response) => serveStripeWebhook(request, response, database),
    },
  ];
}
