import { handleRestRequest } from "@/server/rest/handler";
import { getDatabase } from "@/server/startup/database";

export const dynamic = "force-dynamic";

const handle = (request: Request) => handleRestRequest(request, async () => (await getDatabase()).db);

export {
  handle as DELETE,
  handle as GET,
  handle as HEAD,
  handle as OPTIONS,
  handle as PATCH,
  handle as POST,
  handle as PUT,
};
