/** The docs for agents (llmstxt.org): server/rest/agent-docs.ts. */
import { llmsTxtResponse } from "@/server/rest/agent-docs";

export function GET(request: Request) {
  return llmsTxtResponse(request);
}
