/**
 * The answers of `/llms.txt` and `/docs/{name}.md` (server/2-formats/agent-docs.ts says what they
 * hold): public, free, the same for everyone until the next deployment. A name that is not a
 * public guide — an internal one, a source file, `..` in any spelling — is a 404 before any file
 * is touched: the only files read are docs/{name}.md of the names listed, each once.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ERRORS_MARKDOWN, errorsMarkdown, llmsTxt, publicGuide, servedGuide } from "../2-formats/agent-docs";
import { publicOrigin } from "../2-http/origin";

const DOCS_FOLDER = path.join(/*turbopackIgnore: true*/ process.cwd(), "docs");

/** Each guide's served text, read once per process (the files change only with a deployment). */
const guides = new Map<string, Promise<string>>();

function guideText(name: string): Promise<string> {
  let text = guides.get(name);
  if (!text) {
    text = readFile(path.join(DOCS_FOLDER, `${name}.md`), "utf8").then(servedGuide);
    text.catch(() => guides.delete(name));
    guides.set(name, text);
  }
  return text;
}

const HEADERS = {
  "Cache-Control": "public, max-age=3600",
  "X-Content-Type-Options": "nosniff",
};

const notFound = () =>
  new Response("No such document. /llms.txt lists every one.\n", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

/** GET /llms.txt */
export function llmsTxtResponse(request: Request): Response {
  return new Response(llmsTxt(publicOrigin(request)), {
    headers: { ...HEADERS, "Content-Type": "text/markdown; charset=utf-8" },
  });
}

/** GET /docs/{document}: `document` as the route decoded it, e.g. "errors.md", "mcp.md". */
export async function markdownDocResponse(document: string): Promise<Response> {
  const match = /^([a-z0-9-]{1,40})\.md$/.exec(document);
  const name = match?.[1];
  if (name === undefined) return notFound();
  const text = name === ERRORS_MARKDOWN ? errorsMarkdown() : publicGuide(name) ? await guideText(name) : undefined;
  if (text === undefined) return notFound();
  return new Response(text, { headers: { ...HEADERS, "Content-Type": "text/markdown; charset=utf-8" } });
}
