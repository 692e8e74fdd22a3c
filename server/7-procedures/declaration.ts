/**
 * One declaration per operation: everything REST, MCP, the OpenAPI document, the docs tables, the
 * credits page and the tests know of an operation is derived from it (server/7-procedures/operations/).
 * A declaration says what the operation is called, who may call it and what it costs, what it takes
 * and answers, how its answer may be cached, how it is computed and how an MCP tool shows it. The
 * procedure built from it (./procedure.ts) is the one implementation of the rules.
 */
import { z } from "zod";
import type { Download } from "../1-domain/download";
import { MARKET_READ_SCOPE, type Operation } from "../1-domain/operations";
import type { NarrowingSpec } from "../2-readings/narrowing";
import type { ApiContext } from "./context";
import type { ReadingScope } from "./reading-scope";
import { completeOrSparse, eitherAnswer } from "./sparse-schema";

/**
 * How an answer may be cached, which decides the ETag, conditional requests and validate-once:
 * - `live`: follows the catalogue (lists, changelog): revalidated every time, no ETag.
 * - `release`: fully named by its release(s) and resolved inputs, so it carries a strong ETag and
 *   answers `If-None-Match` with 304; computed once per release and inputs, kept in memory and
 *   served as the same frozen object, so its output is validated and serialised once.
 * - `per-call`: named like `release` (ETag, 304) but computed on each call (it touches one item).
 * - `none`: the caller's own computation (what-if weights): no ETag, nothing kept.
 */
export type Caching = "live" | "release" | "per-call" | "none";

/** Whether the answer carries an ETag and answers If-None-Match: derived, never declared apart. */
export const hasEtag = (caching: Caching) => caching === "release" || caching === "per-call";

/** Which router, ledger prefix and OpenAPI tag an operation belongs to. */
export type Group = "markets" | "geographies" | "readings" | "exports" | "account";

export interface EmbeddedResource {
  type: "resource";
  resource: { uri: string; mimeType: string; text: string };
  /** Who it is for (MCP annotations): a page for the person reads as noise to the model. */
  annotations?: { audience: ("user" | "assistant")[]; priority?: number };
}

/** How an MCP tool shows the operation's answer. */
export interface ToolDeclaration<Payload> {
  /** The tool's name (the published interface fixes some: docs/fixed-names.json). */
  name: string;
  /** The tool's title, when it should say more than the operation's summary. */
  title?: string;
  /** Words only the tool adds to the operation's description (before the price). */
  addendum?: string;
  /** A short plain-text rendering for the result's `content`. Payload text is hostile: no markup. */
  text(payload: Payload): string;
  /**
   * Resources embedded in the result besides the text, for the payload (or the page of it that
   * fits the token budget) and the tool's arguments, which may name it: a URI per page.
   */
  embed?(payload: Payload, args: Record<string, unknown>): EmbeddedResource[];
  /** Draws in the MCP Apps chart view, for hosts that render MCP Apps. */
  chart?: boolean;
  /**
   * Defaults the tool's arguments have where the operation's differ (a compact answer for a model's
   * first call, say): the tool's input schema states them, and its result is REST's for them.
   */
  defaults?: Record<string, unknown>;
  /** The output schema the tool declares, for an operation answering one of several shapes (MCP's must be an object). */
  output?: z.ZodType;
  /**
   * For an argument this tool does not take, the tool an agent meant (the Capability Index's
   * `country` is the Max's): its error for that argument names this one alone.
   */
  instead?: Record<string, string>;
  /**
   * For a tool that answers no reading of every product (no narrowing to page it), what a caller
   * whose answer is over the token budget should ask instead (a shorter period, say): the result is
   * then an error saying so rather than more than a client can take.
   */
  overBudget?: string;
}

/**
 * What every declaration says: its Operation row (scope, price, path, words; the row's ledger name
 * is `group.name`), then its schemas, an example and its MCP tool.
 */
interface Common<I extends z.ZodObject, O extends z.ZodType> extends Omit<Operation, "name"> {
  group: Group;
  /** The one name: the procedure, the second half of the ledger name (`readings.<name>`). */
  name: string;
  input: I;
  output: O;
  /** A valid call against the demo catalogue: checked by a test, shown in examples. */
  example: z.input<I>;
  /** The MCP tool serving it; none: REST only (the market and its changelog). */
  tool?: ToolDeclaration<z.output<O>>;
}

/** An operation answered from the live catalogue (lists, one market, the changelog, geographies). */
export interface LiveDeclaration<I extends z.ZodObject, O extends z.ZodType> extends Common<I, O> {
  caching: "live";
  answer(ctx: ApiContext, input: z.output<I>): Promise<z.output<O>>;
  /**
   * The answer follows the catalogue and the input alone, never the caller: it is computed once
   * per change of the catalogue (db/change-feed.ts) and input, kept and served as the same frozen
   * object, so its output is validated and serialised once. Still revalidated every time (no ETag).
   */
  keep?: true;
}

/**
 * A reading of a release. The procedure resolves the release (`release`, or the pair `from`/`to`)
 * and the country before `compute` runs, and names the answer for its ETag and cache from every
 * resolved input except those in `sameBytes`: an input cannot be left out of the ETag by mistake.
 */
export interface ReadingDeclaration<I extends z.ZodObject, O extends z.ZodType> extends Common<I, O> {
  caching: Exclude<Caching, "live">;
  /** One release (`release`), a pair (`from`, `to`: compared), or every release up to `release` (a history). */
  releases: "one" | "pair" | "history";
  /**
   * What an omitted `country` means: the organization's home country, or no country at all.
   * Only for inputs that have a `country`.
   */
  country?: "home" | "optional";
  /**
   * Where its product lists are, when it is a reading of every product: then its input takes the
   * narrowing parameters (schemas.ts, narrowingParams), applied to the reading once computed and
   * kept (server/2-readings/narrowing.ts), and MCP fits its answer to a token budget.
   */
  narrowing?: NarrowingSpec;
  /** Inputs that change how a client shows the answer, not its bytes: left out of its name. */
  sameBytes?: readonly (keyof z.output<I> & string)[];
  /**
   * The answer holds the service's public origin (links, a citation's URL): the origin names it
   * too (ETag, cache), and `scope.origin` gives it to `compute`.
   */
  namedByOrigin?: boolean;
  /**
   * Its work grows with the market's size (every product, every country): on a release of
   * WORKER_MIN_PRODUCTS products or more it is computed on a worker thread (./off-loop.ts), never
   * on the event loop that answers everyone else.
   */
  growsWithMarket?: true;
  /**
   * The answer; a promise for work long enough to hand the event loop back between its steps
   * (computed once all the same, when cached per release).
   */
  compute(scope: ReadingScope, input: z.output<I>): z.output<O> | Promise<z.output<O>>;
  /**
   * Answered as a file rather than as JSON (REST only: MCP results are held to a token budget):
   * the media types it may have, and the file itself, written as it is sent. The JSON `compute`
   * gives is then only what the procedure answers other callers: the file's name and type.
   */
  download?: {
    mediaTypes: readonly string[];
    file(scope: ReadingScope, input: z.output<I>): Download;
  };
}

/** Whether an operation answers a file (streamed, REST only) rather than JSON. */
export const isDownload = (declaration: AnyDeclaration) => "download" in declaration && Boolean(declaration.download);

/** Any declaration, whatever its schemas (lists of declarations). */
// biome-ignore lint/suspicious/noExplicitAny: a list holds declarations of many input and output types
export type AnyDeclaration = LiveDeclaration<any, any> | ReadingDeclaration<any, any>;

/** A live operation's declaration, its name and types kept (the router's procedures are typed from it). */
export const declareLive = <const G extends Group, const N extends string, I extends z.ZodObject, O extends z.ZodType>(
  declaration: LiveDeclaration<I, O> & { group: G; name: N },
) => declaration;

/** A reading's declaration, its name and types kept. */
export const declareReading = <
  const G extends Group,
  const N extends string,
  I extends z.ZodObject,
  O extends z.ZodType,
>(
  declaration: ReadingDeclaration<I, O> & { group: G; name: N },
) => declaration;

/** What a download's procedure answers callers other than REST, which streams the file itself. */
export const downloadSchema = z.object({ fileName: z.string(), mediaType: z.string() });

/**
 * A file's declaration, its name and types kept: a reading whose answer is the file (`download`);
 * its procedure's JSON output, the file's name and type, is derived.
 */
export const declareDownload = <const G extends Group, const N extends string, I extends z.ZodObject>(
  declaration: Omit<ReadingDeclaration<I, typeof downloadSchema>, "output" | "compute" | "download" | "tool"> & {
    group: G;
    name: N;
    download: NonNullable<ReadingDeclaration<I, typeof downloadSchema>["download"]>;
  },
): ReadingDeclaration<I, typeof downloadSchema> & { group: G; name: N } => {
  const { file } = declaration.download;
  return {
    ...declaration,
    output: downloadSchema,
    compute: (scope, input) => {
      const { fileName, mediaType } = file(scope, input);
      return { fileName, mediaType };
    },
  };
};

/** The declaration as the operation table's row: what the access middleware enforces and bills. */
export const operationOf = (declaration: AnyDeclaration): Operation => ({
  name: `${declaration.group}.${declaration.name}`,
  scope: declaration.scope,
  credits: declaration.credits,
  path: declaration.path,
  summary: declaration.summary,
  description: declaration.description,
});

export { MARKET_READ_SCOPE };

/**
 * What a declaration's procedure answers, as every surface declares it: its output, or for a
 * reading that takes `fields`, its output or that output's sparse variant (./sparse-schema.ts).
 * One instance per declaration, so its components are named once.
 */
export function answerSchema(declaration: AnyDeclaration): z.ZodType {
  const known = answerSchemas.get(declaration);
  if (known) return known;
  const spec = "narrowing" in declaration ? declaration.narrowing : undefined;
  const schema: z.ZodType =
    spec && "fields" in declaration.input.shape
      ? completeOrSparse(declaration.output as z.ZodObject<z.ZodRawShape>, spec)
      : declaration.output;
  answerSchemas.set(declaration, schema);
  return schema;
}
const answerSchemas = new WeakMap<AnyDeclaration, z.ZodType>();

/** The same as one object (MCP output schemas must be objects): products may lack any field but their identity. */
export function toolOutputSchema(declaration: AnyDeclaration): z.ZodType {
  if (declaration.tool?.output) return declaration.tool.output;
  const spec = "narrowing" in declaration ? declaration.narrowing : undefined;
  return spec && "fields" in declaration.input.shape
    ? eitherAnswer(declaration.output as z.ZodObject<z.ZodRawShape>, spec)
    : declaration.output;
}
