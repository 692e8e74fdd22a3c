/** Every docs page as Markdown, `/docs/{name}.md` (server/8-rest/agent-docs.ts); anything else here is a 404. */
import { markdownDocResponse } from "@/server/8-rest/agent-docs";

export async function GET(_request: Request, { params }: { params: Promise<{ document: string }> }) {
  return markdownDocResponse((await params).document);
}
