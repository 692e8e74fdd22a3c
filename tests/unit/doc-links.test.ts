/**
 * Every relative link of README.md and docs/*.md leads somewhere: the file or folder exists, and a
 * `#anchor` names a heading of the Markdown file it points into (as GitHub makes heading anchors).
 * Links to other sites and to the app's own routes (`/docs/api`) are not followed.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const files = [
  "README.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2… */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const visible = (heading ?? "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const slug = visible
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id ?? "");
  return anchors;
}

/** The targets of the inline links and images of a Markdown text. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    ([, target]) => target ?? "",
  );
}

const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/");

describe("links in README.md and docs/", () => {
  it("finds the links and headings it checks", () => {
    expect(linkTargets("see [a](docs/a.md#b), `[not](x)` and ![i](i.svg)")).toEqual(["docs/a.md#b", "i.svg"]);
    expect([...headingAnchors("# One line per `/v1` call\n## Sovereign decisions\n## Sovereign decisions")]).toEqual([
      "one-line-per-v1-call",
      "sovereign-decisions",
      "sovereign-decisions-1",
    ]);
  });

  it.each(files)("%s: every relative link resolves to a file and, with #anchor, a heading in it", (file) => {
    const markdown = readFileSync(path.join(root, file), "utf8");
    const broken: string[] = [];
    for (const target of linkTargets(markdown)) {
      if (external(target)) continue;
      const [rawPath = "", anchor] = target.split("#", 2);
      const resolved =
        rawPath === "" ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), decodeURI(rawPath));
      if (!existsSync(resolved)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor && resolved.endsWith(".md") && !headingAnchors(readFileSync(resolved, "utf8")).has(anchor))
        broken.push(`${target}: no heading with that anchor`);
    }
    expect(broken, `${file}: broken links`).toEqual([]);
  });
});
