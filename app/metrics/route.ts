import { handleMetricsRequest } from "@/server/3-observability/endpoint";

export const dynamic = "force-dynamic";

const handle = (request: Request) => handleMetricsRequest(request);

// Every method reaches the handler: it refuses the ones it does not serve, after the access rule.
export {
  handle as DELETE,
  handle as GET,
  handle as HEAD,
  handle as OPTIONS,
  handle as PATCH,
  handle as POST,
  handle as PUT,
};
