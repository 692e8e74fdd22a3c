/** The docs for agents (llmstxt.org): server/8-rest/agent-docs.ts. */
import { llmsTxtResponse } from "@/server/8-rest/agent-docs";

export function GET(request: Request) {
  return llmsTxtResponse(request);
}
