/**
 * The docs as an agent reads them, over real HTTP against the running app: /llms.txt (llmstxt.org)
 * lists the public documents and every link it gives answers 200; each docs page is also served as
 * Markdown (text/markdown), its links to other docs resolving too; internal guides, other files
 * and path traversal in any spelling are 404s that reveal nothing.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { ERROR_CODE_LIST } from "@/server/1-errors/codes";

const base = inject("appUrl");
const root = path.resolve(import.meta.dirname, "../..");

/** The targets of a Markdown text's inline links. */
const linksOf = (markdown: string) => [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);

describe("/llms.txt", () => {
  it("is llmstxt.org's shape: a title, a summary, sections of links, how to connect over MCP", async () => {
    const answer = await fetch(`${base}/llms.txt`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await answer.text();
    const lines = text.split("\n");
    expect(lines[0]).toBe("# Market Positioning Service");
    expect(lines.find((line) => line.startsWith("> "))).toBeTruthy();
    expect(text).toMatch(/^## /m);
    expect(text).toContain(`${new URL(base).origin}/mcp`);
    expect(text).toContain("Market.Read.All");
    for (const target of ["/v1/openapi.json", "/docs/api", "/docs/errors.md", "/docs/mcp.md", "/docs/interface.md"])
      expect(
        linksOf(text).some((link) => new URL(link).pathname === target),
        target,
      ).toBe(true);
  });

  it("links only to documents that answer 200, each Markdown one as text/markdown", async () => {
    const links = linksOf(await (await fetch(`${base}/llms.txt`)).text());
    expect(links.length).toBeGreaterThan(10);
    for (const link of links) {
      const at = new URL(link);
      const answer = await fetch(`${base}${at.pathname}`);
      expect(answer.status, link).toBe(200);
      if (at.pathname.endsWith(".md"))
        expect(answer.headers.get("content-type"), link).toBe("text/markdown; charset=utf-8");
      await answer.arrayBuffer();
    }
  });
});

describe("every docs page as Markdown", () => {
  it("serves /docs/errors.md with every error code, as the errors page lists them", async () => {
    const answer = await fetch(`${base}/docs/errors.md`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await answer.text();
    expect(text.split("\n")[0]).toBe("# API errors");
    const rows = text.split("\n").filter((line) => /^\| `[a-z_]+` \|/.test(line));
    expect(rows.map((row) => /`([a-z_]+)`/.exec(row)?.[1])).toEqual(ERROR_CODE_LIST);
    const page = await (await fetch(`${base}/docs/errors`)).text();
    expect(page).toContain('type="text/markdown" href="/docs/errors.md"');
  });

  it("serves a public guide as it is in docs/, its links to other guides pointing at their Markdown", async () => {
    const answer = await fetch(`${base}/docs/mcp.md`);
    expect(answer.status).toBe(200);
    const served = await answer.text();
    const source = readFileSync(path.join(root, "docs/mcp.md"), "utf8");
    expect(served.split("\n")[0]).toBe(source.split("\n")[0]);
    expect(served.length).toBeGreaterThan(source.length * 0.9);
    const relative = linksOf(served).filter((link) => link.startsWith("/"));
    expect(relative.length).toBeGreaterThan(0);
    for (const link of new Set(relative.map((l) => l.split("#")[0] as string))) {
      const linked = await fetch(`${base}${link}`);
      expect(linked.status, link).toBe(200);
      await linked.arrayBuffer();
    }
    // No link to a file that is not served (a source file, an internal guide).
    for (const link of linksOf(served)) expect(link, link).not.toMatch(/^(\.\.\/|[a-z-]+\.(ts|md|json))/);
  });

  it.each([
    "/docs/..%2fREADME.md",
    "/docs/..%2f..%2fpackage.json",
    "/docs/%2e%2e%2fREADME.md",
    "/docs/..%5cREADME.md",
    "/docs/development.md",
    "/docs/testing.md",
    "/docs/security.md",
    "/docs/operations.md",
    "/docs/fixed-names.json",
    "/docs/MCP.md",
    "/docs/mcp.md%00.txt",
    "/docs/mcp",
    "/docs/.md",
    `/docs/${"a".repeat(300)}.md`,
  ])("refuses %s with a 404 that reveals nothing", async (target) => {
    const answer = await fetch(`${base}${target}`);
    expect(answer.status).toBe(404);
    const body = await answer.text();
    expect(body).not.toContain("# Market Positioning Service");
    expect(body).not.toContain('"name": "market-positioning-service"');
    expect(body).not.toContain("# Development");
  });
});
