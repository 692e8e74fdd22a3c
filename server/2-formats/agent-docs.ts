/**
 * The docs as an agent reads them: `/llms.txt` (llmstxt.org) lists every public document, and each
 * docs page is also served as Markdown — the public guides of docs/ at `/docs/{name}.md`, the
 * error codes at `/docs/errors.md`. Only the guides listed here are public: the rest of docs/
 * (development, tests, operations, security, performance) is for whoever runs or builds the
 * service and is never served. Pure: the guides' text is read by the caller (server/8-rest/agent-docs.ts).
 */
import { ERROR_CODE_LIST, ERROR_CODES } from "../1-errors/codes";
import { API_DOCS_PATH, DOCS_PATH, MCP_PATH } from "../2-http/paths";

export interface PublicGuide {
  /** Its file in docs/ without `.md`, and its name in `/docs/{name}.md`. */
  name: string;
  title: string;
  /** What it holds, for llms.txt. */
  about: string;
  /** Its section in llms.txt. */
  section: "API and MCP" | "Accounts and billing" | "Readings" | "Optional";
}

/** The guides of docs/ written for the service's users and integrators, in the order llms.txt lists them. */
export const PUBLIC_GUIDES: readonly PublicGuide[] = [
  {
    name: "interface",
    title: "The interface",
    about: "the contract: every REST path and MCP tool, payload, error, price and scope",
    section: "API and MCP",
  },
  {
    name: "api",
    title: "The REST API",
    about: "the readings in brief, parameters, narrowing, caching and errors",
    section: "API and MCP",
  },
  {
    name: "mcp",
    title: "The MCP server",
    about: "its tools, what a result holds, token budgets, protocol revisions, OAuth for MCP clients",
    section: "API and MCP",
  },
  {
    name: "enterprise-mcp",
    title: "MCP clients through your identity provider (ID-JAG)",
    about: "an organization's IdP deciding which AI clients reach /mcp",
    section: "API and MCP",
  },
  {
    name: "webhooks",
    title: "Webhooks",
    about: "signed events of followed markets, retries, a receiver",
    section: "API and MCP",
  },
  {
    name: "methodology",
    title: "How scores are computed",
    about: "scores, bands, sovereign offerings and how sure each score and rank is",
    section: "Readings",
  },
  {
    name: "sovereignty",
    title: "Sovereignty",
    about: "the EU Cloud Sovereignty Framework profile, SEAL levels and the gates",
    section: "Readings",
  },
  {
    name: "embeds",
    title: "Embeds",
    about: "a reading's chart to put in a report: iframe, SVG, PNG, oEmbed",
    section: "Readings",
  },
  {
    name: "accounts",
    title: "Accounts",
    about: "sign-in, organizations, API tokens, credits and the ledger, rate limits, the audit trail",
    section: "Accounts and billing",
  },
  {
    name: "billing",
    title: "Buying credits",
    about: "credit packs by card, automatic top-up, refunds and disputes",
    section: "Accounts and billing",
  },
  {
    name: "enterprise",
    title: "Your organization's own identity provider",
    about: "SSO sign-in, verified domains, de-provisioning",
    section: "Accounts and billing",
  },
  {
    name: "dashboard",
    title: "The dashboard",
    about: "its pages and charts",
    section: "Optional",
  },
  {
    name: "notifications",
    title: "Following markets",
    about: "notifications, release e-mails and the weekly summary",
    section: "Optional",
  },
];

/** The public guide called `name`, or undefined: what is not listed is never served. */
export const publicGuide = (name: string): PublicGuide | undefined => PUBLIC_GUIDES.find((g) => g.name === name);

/** The name of the generated errors page among the Markdown docs: `/docs/errors.md`. */
export const ERRORS_MARKDOWN = "errors";

/** Where a guide (or the errors page) is served as Markdown. */
export const markdownPath = (name: string) => `${DOCS_PATH}/${name}.md`;

/** A Markdown link's target, `target` or `target#anchor`, relative to docs/. */
const RELATIVE_DOC = /^([a-z0-9-]+)\.md(#[A-Za-z0-9_-]*)?$/;

/**
 * A guide as served: links to another public guide point at its Markdown (`/docs/{name}.md`);
 * links to files that are not served (source files, internal guides, the README) keep their words
 * and lose their target, so no served link leads nowhere and none names an internal file's path as
 * a link. Absolute links and the site's own paths stay as they are.
 */
export function servedGuide(markdown: string): string {
  return markdown.replace(/(!?)\[([^\]\n]*)\]\(([^)\s]+)\)/g, (whole, bang: string, words: string, target: string) => {
    if (bang || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#") || target.startsWith("/")) return whole;
    const relative = RELATIVE_DOC.exec(target);
    if (relative && publicGuide(relative[1] as string))
      return `[${words}](${markdownPath(relative[1] as string)}${relative[2] ?? ""})`;
    return words;
  });
}

/** A table cell's text: a pipe would end the cell, a line break the row. */
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");

/** `/docs/errors` as Markdown: every error code, its status, what it means and what to do, in the page's order. */
export function errorsMarkdown(): string {
  return [
    "# API errors",
    "",
    "Every failure on `/v1` answers `application/problem+json` (RFC 9457) with `type`, `title`, `status`, a stable `code`, `detail` and `requestId` (also in the `X-Request-Id` header); `invalid_request` adds `issues`, each with the `path` of the parameter and a `message`. A failed call costs no credits. Match on `code`, never on `detail` or `title`. An MCP tool's failure is a tool error (`isError: true`) whose text is the same problem.",
    "",
    "| Code | Status | Meaning | What to do |",
    "| ---- | ------ | ------- | ---------- |",
    ...ERROR_CODE_LIST.map((code) => {
      const { status, description, action } = ERROR_CODES[code];
      return `| \`${code}\` | ${status} | ${cell(description)} | ${cell(action)} |`;
    }),
    "",
    `The full interface: [the interface](${markdownPath("interface")}); the OpenAPI document: [/v1/openapi.json](/v1/openapi.json).`,
    "",
  ].join("\n");
}

const SECTIONS: readonly PublicGuide["section"][] = ["API and MCP", "Readings", "Accounts and billing", "Optional"];

/** `/llms.txt` for a service at `origin` (llmstxt.org: a title, a summary, sections of links). */
export function llmsTxt(origin: string): string {
  const link = (title: string, path: string, about: string) => `- [${title}](${origin}${path}): ${about}`;
  const guides = (section: PublicGuide["section"]) =>
    PUBLIC_GUIDES.filter((g) => g.section === section).map((g) => link(g.title, markdownPath(g.name), g.about));
  return [
    "# Market Positioning Service",
    "",
    "> Read-only market data: each technology market's products scored on three separate 0–100 axes (Innovation, Control, Scale) relative to the market's field, and what each product keeps and loses under a country's sovereign controls. A REST API at /v1 and an MCP server at /mcp, paid per call in credits; it never recommends a vendor.",
    "",
    `Connect an MCP client to ${origin}${MCP_PATH} (Streamable HTTP). Clients that speak MCP authorization sign in through the browser (OAuth 2.1, discovered from ${origin}/.well-known/oauth-protected-resource/mcp); any other sends \`Authorization: Bearer <API token>\`, a token created on the dashboard's Tokens page with the scope Market.Read.All. REST takes the same header. Readings cost credits, stated in each operation's description; the account tools and paths are free.`,
    "",
    "## API and MCP",
    "",
    link(
      "OpenAPI document",
      "/v1/openapi.json",
      "every REST path, parameter, payload, error and price (OpenAPI 3.1, JSON)",
    ),
    link("API reference", API_DOCS_PATH, "the same document, interactive (HTML)"),
    link("API errors", markdownPath(ERRORS_MARKDOWN), "every error code, its status and what to do"),
    ...guides("API and MCP"),
    ...SECTIONS.slice(1).flatMap((section) => ["", `## ${section}`, "", ...guides(section)]),
    "",
  ].join("\n");
}

/** `/docs/errors.md`: the errors page's Markdown twin (its `rel="alternate"`). */
export const ERRORS_MARKDOWN_PATH = markdownPath(ERRORS_MARKDOWN);
