/**
 * The MCP server: the SDK's server (through mcp-handler) with our tools, the chart view and the
 * reading resources registered, for every message the edge (edge.ts) does not answer itself as a
 * plain tool call. Its tools run `runTool` (results.ts), as the edge does; a reading link's pages
 * are read here.
 */
import { RESOURCE_MIME_TYPE, registerAppResource, registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import {
  type AuthInfo,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  UriTemplate,
} from "@modelcontextprotocol/server";
import { createMcpHandler } from "mcp-handler";
import type { z } from "zod";
import { priceSentence } from "../1-domain/operations";
import type { Problem } from "../2-http/problem";
import { NarrowingError, type NarrowingSpec, narrow, type Page } from "../2-readings/narrowing";
import { snapshot } from "../7-procedures/operations/snapshot";
import { SNAPSHOT_RESOURCE_TEMPLATE, snapshotArgumentsOf } from "../7-procedures/operations/snapshot-html";
import { withinBudget } from "./budget";
import type { McpCall } from "./call";
import { RESULT_SERVER_INFO, SERVER_INFO } from "./identity";
import { MCP_INSTRUCTIONS } from "./instructions";
import { pageUri, parseReadingUri, READING_TEMPLATE, readingUri } from "./reading-resources";
import { checkReceipt } from "./receipt";
import { asSent, runProcedure, runTool } from "./results";
import { compactInput, outlineSchema } from "./schema-outline";
import { convertedOnce } from "./tool-schemas";
import { type EmbeddedResource, TOOLS, type ToolDefinition, toolOfDeclaration } from "./tools";
import { CHARTS_RESOURCE_URI, chartsViewHtml } from "./views";

/**
 * Cache hints of the 2026-07-28 revision. The lists and the discovery answer are the same for
 * every caller and change only with a deployment: public, an hour. resources/read stays the
 * SDK's default (private, 0): the snapshot is metered and follows each publish.
 */
const HOUR_MS = 3_600_000;
const CACHE_HINTS = {
  "tools/list": { ttlMs: HOUR_MS, cacheScope: "public" },
  "resources/list": { ttlMs: HOUR_MS, cacheScope: "public" },
  "resources/templates/list": { ttlMs: HOUR_MS, cacheScope: "public" },
  "server/discover": { ttlMs: HOUR_MS, cacheScope: "public" },
} as const;

/** The tools whose readings a link can name: those of every product. */
const READING_TOOLS = new Map(TOOLS.filter((tool) => tool.narrowing).map((tool) => [tool.name, tool]));

/** A reading link's arguments as its tool takes them: a URI's text, numbers where the tool wants one. */
function toolArguments(definition: ToolDefinition, args: Record<string, string>): Record<string, unknown> {
  const shape = definition.input.shape as Record<string, z.ZodType>;
  const unknown = Object.keys(args).filter((key) => !(key in shape));
  if (unknown.length)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${definition.name} takes no argument ${unknown.map((key) => `"${key}"`).join(", ")}; it takes ${Object.keys(shape).join(", ")}.`,
    );
  return Object.fromEntries(
    Object.entries(args).map(([key, text]) => {
      const field = shape[key] as z.ZodType;
      if (field.safeParse(text).success || text.trim() === "") return [key, text];
      const number = Number(text);
      return [key, Number.isFinite(number) && field.safeParse(number).success ? number : text];
    }),
  );
}

/** The JSON-RPC error of a problem: the caller's mistake is invalid params, the rest an internal error; `data` is the problem. */
const protocolErrorOf = (problem: Problem) =>
  new ProtocolError(
    problem.status < 500 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError,
    problem.detail,
    problem,
  );

/**
 * resources/read of a reading link (reading-resources.ts): the page its cursor starts (the first
 * without one) of the whole reading, within the token budget, and the next page's URI.
 */
async function readReadingPage(uri: URL, call: McpCall) {
  const address = parseReadingUri(uri.href);
  const definition = address ? READING_TOOLS.get(address.tool) : undefined;
  if (!address || !definition)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${uri.href} names no reading: a reading link is ${READING_TEMPLATE} for one of ${[...READING_TOOLS.keys()].join(", ")}; tool results that hold part of a reading give theirs.`,
    );
  const args = toolArguments(definition, address.arguments);
  let prepaid = false;
  if (address.receipt !== undefined) {
    const check = checkReceipt(
      address.receipt,
      call.caller.organization?.id ?? "",
      readingUri(address.tool, address.arguments),
    );
    if (!check.ok)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        check.reason === "expired"
          ? `This link's receipt expired at ${check.expiredAt?.toISOString()}: call ${definition.name} again for a new link, or read the link without its receipt at the tool's price.`
          : `This link's receipt is not this organization's for this reading: use the link a tool result gave as it is.`,
      );
    prepaid = true;
  }
  // The whole reading (the one kept in memory, validated and parsed once), then the page its cursor starts.
  const outcome = await runProcedure(definition, args, call, prepaid);
  if (!outcome.ok) throw protocolErrorOf(outcome.problem);
  const spec = definition.narrowing as NarrowingSpec;
  let whole = asSent(outcome.output);
  try {
    whole = narrow(whole, spec, { cursor: address.cursor });
  } catch (error) {
    if (error instanceof NarrowingError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
    throw error;
  }
  const pageAt = (payload: Record<string, unknown>) => {
    const next = (payload.page as Page | undefined)?.nextCursor ?? null;
    return {
      contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(payload) }],
      _meta: {
        ...outcome.meta,
        nextUri: next === null ? null : pageUri({ ...address, cursor: next }),
      },
    };
  };
  return withinBudget(whole, spec, pageAt).result;
}

/** Each tool's schemas, converted to JSON Schema once for every server built (tool-schemas.ts), outputs outlined (schema-outline.ts). */
const TOOL_SCHEMAS = new Map(
  TOOLS.map((definition) => [
    definition,
    {
      input: convertedOnce(definition.input, compactInput, "tool"),
      output: convertedOnce(definition.output, outlineSchema),
    },
  ]),
);

/** Matches every reading link, whatever arguments it carries in whatever order (the SDK's matcher wants them all, in order). */
class ReadingTemplate extends UriTemplate {
  override match(uri: string) {
    const address = parseReadingUri(uri);
    return address ? { tool: address.tool } : null;
  }
}

/** Matches every page of the snapshot's HTML, its arguments in any order (the SDK's matcher wants them in order). */
class SnapshotTemplate extends UriTemplate {
  override match(uri: string) {
    const args = snapshotArgumentsOf(uri);
    return args ? { marketId: String(args.marketId) } : null;
  }
}

/** The SDK's answer to one message (a Fetch Request carrying the edge's AuthInfo). */
export const mcpHandler = createMcpHandler(
  (server) => {
    // Results identify the server without its icon (identity.ts): the SDK stamps what the first
    // gives on every result but one that names itself; server/discover, the 2026-07-28 client's
    // first call, names the server with its icon, once.
    const inner = server.server as unknown as { _ondiscover: () => Record<string, unknown> };
    const discover = inner._ondiscover.bind(inner);
    Object.assign(inner, {
      _outboundServerInfo: () => RESULT_SERVER_INFO,
      _ondiscover: () => ({ ...discover(), _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } }),
    });
    for (const definition of TOOLS) {
      const schemas = TOOL_SCHEMAS.get(definition) as { input: z.ZodObject; output: z.ZodType };
      const config = {
        title: definition.title,
        description: definition.description,
        inputSchema: schemas.input,
        outputSchema: schemas.output,
        // destructiveHint and idempotentHint mean something only when readOnlyHint is false (the spec): left out.
        annotations: { readOnlyHint: true, openWorldHint: false },
      };
      const run = async (input: unknown, ctx: { http?: { authInfo?: AuthInfo } }) =>
        runTool(definition, input, ctx.http?.authInfo?.extra as unknown as McpCall);
      if (definition.chart)
        registerAppTool(
          server,
          definition.name,
          { ...config, _meta: { ui: { resourceUri: CHARTS_RESOURCE_URI } } },
          run,
        );
      else server.registerTool(definition.name, config, run);
    }
    // The chart view: static, data-free HTML (the data comes with each tool result); free to read.
    registerAppResource(
      server,
      "charts",
      CHARTS_RESOURCE_URI,
      { title: "Market charts", description: "Interactive delta map and ranking bars.", mimeType: RESOURCE_MIME_TYPE },
      // The same page for everyone until the next deployment: public, an hour (2026-07-28 cache hints).
      async () => ({
        contents: [{ uri: CHARTS_RESOURCE_URI, mimeType: RESOURCE_MIME_TYPE, text: chartsViewHtml() }],
        ttlMs: HOUR_MS,
        cacheScope: "public" as const,
      }),
    );
    // The whole of a reading a tool result answered part of, page by page (reading-resources.ts).
    server.registerResource(
      "reading",
      new ResourceTemplate(new ReadingTemplate(READING_TEMPLATE), { list: undefined }),
      {
        title: "A whole reading, in pages",
        description:
          "Every product of a reading a tool answered part of, as its resource_link gives it: each page a JSON document of the REST payload within the token budget, its _meta.nextUri the next page. Free with the link's receipt for an hour after the call that gave it; without it, the tool's price per page.",
        mimeType: "application/json",
      },
      async (uri, _variables, ctx) => readReadingPage(uri, ctx.http?.authInfo?.extra as unknown as McpCall),
    );
    // Reading the HTML snapshot directly is the snapshot: same procedure, same price.
    server.registerResource(
      "snapshot-html",
      new ResourceTemplate(new SnapshotTemplate(SNAPSHOT_RESOURCE_TEMPLATE), { list: undefined }),
      {
        title: "Market snapshot (HTML)",
        description: `The snapshot of one market as a readable HTML table with bands and methodology: a page of it, as its URI names it (the snapshot tool's arguments release, productIds, cursor and limit); the latest release's first page without them. ${priceSentence(snapshot.credits)}`,
        mimeType: "text/html",
      },
      async (uri, _variables, ctx) => {
        const result = await runTool(
          toolOfDeclaration(snapshot),
          snapshotArgumentsOf(uri.href),
          ctx.http?.authInfo?.extra as unknown as McpCall,
        );
        const embedded = result.content.find((c): c is EmbeddedResource => c.type === "resource");
        if (result.isError || !embedded)
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, (result.content[0] as { text: string }).text);
        return { contents: [{ ...embedded.resource, uri: uri.href }], _meta: result._meta };
      },
    );
  },
  { serverInfo: SERVER_INFO, cacheHints: CACHE_HINTS, instructions: MCP_INSTRUCTIONS },
);
