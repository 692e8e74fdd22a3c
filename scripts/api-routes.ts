/**
 * The API's paths and their handlers, for our HTTP server to answer straight from Node
 * (server/http-server/http-server.ts). The app/ route files call the same handlers under `next dev`.
 */

import type { Database } from "../db/client";
import { MCP_PATH } from "../server/http/paths";
import type { DirectRoute } from "../server/http-server/http-server";
import { serveMcpRequest } from "../server/mcp/handler";
import { refuseAtTheDoor } from "../server/rest/door";
import { handleOpenApiRequest, serveRestRequest } from "../server/rest/handler";
import { API_PREFIX } from "../server/rest/routes";
import { getDatabase } from "../server/startup/database";

let opened: Database | undefined;
const database = async () => {
  opened = (await getDatabase()).db;
  return opened;
};

export function apiRoutes(): DirectRoute[] {
  return [
    {
      matches: (path) => path === `${API_PREFIX}/openapi.json`,
      handle: async (request) => handleOpenApiRequest(request),
    },
    {
      matches: (path) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`),
      refuse: (request, path) => refuseAtTheDoor(request, path, opened),
      serve: (request, response, origin) => serveRestRequest(request, response, origin, database),
    },
    {
      matches: (path) => path === MCP_PATH,
      serve: (request, response, origin) => serveMcpRequest(request, response, origin, database),
    },
  ];
}
