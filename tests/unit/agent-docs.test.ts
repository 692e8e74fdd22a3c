/**
 * The Markdown of the public guides (server/2-formats/agent-docs.ts): links to another public guide
 * point at its Markdown, links to what is not served keep their words only, absolute links stay.
 * Inputs and expected texts are written by hand.
 */
import { describe, expect, it } from "vitest";
import { llmsTxt, PUBLIC_GUIDES, servedGuide } from "@/server/2-formats/agent-docs";

describe("a public guide as served", () => {
  it("points links to public guides at their Markdown, keeping the anchor", () => {
    expect(servedGuide("See [the contract](interface.md#payloads) and [mcp.md](mcp.md).")).toBe(
      "See [the contract](/docs/interface.md#payloads) and [mcp.md](/docs/mcp.md).",
    );
  });

  it("keeps only the words of links to files that are not served", () => {
    expect(
      servedGuide(
        "Run [tests](testing.md), read [`server/8-mcp/tools.ts`](../server/8-mcp/tools.ts) and [the README](../README.md).",
      ),
    ).toBe("Run tests, read `server/8-mcp/tools.ts` and the README.");
  });

  it("leaves absolute links, the site's paths, anchors and images as they are", () => {
    const text =
      "[Stripe](https://docs.stripe.com/x) [errors](/docs/errors) [below](#tools) ![chart](chart.png) [mail](mailto:a@b.c)";
    expect(servedGuide(text)).toBe(text);
  });
});

describe("/llms.txt", () => {
  it("lists every public guide once, at the origin given, and no internal one", () => {
    const text = llmsTxt("https://mps.example");
    for (const guide of PUBLIC_GUIDES)
      expect(text.split(`(https://mps.example/docs/${guide.name}.md)`)).toHaveLength(2);
    for (const internal of ["development", "testing", "security", "operations", "performance", "catalogue"])
      expect(text).not.toContain(`/docs/${internal}.md`);
  });
});
