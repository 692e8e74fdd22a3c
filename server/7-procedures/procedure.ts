/**
 * The tRPC procedure of a declaration (./declaration.ts): the one implementation of how an
 * operation is served, whatever surface calls it. Its metadata (scope, price, REST route) comes
 * from the declaration; its answer is named, cached and validated as the declaration's caching
 * says, so ETags, conditional requests and validate-once cannot drift from what is declared.
 */
import type { z } from "zod";
import { ChangeAwareCache } from "../../db/change-feed";
import { DEPRECATIONS, deprecationOf } from "../1-domain/deprecations";
import { invalidRequest } from "../1-errors/api-error";
import { type Narrowing, NarrowingError, narrow, selectFields } from "../2-readings/narrowing";
import { readyDownload } from "./built-download";
import type { ApiContext } from "./context";
import {
  type AnyDeclaration,
  answerSchema,
  type Group,
  hasEtag,
  type LiveDeclaration,
  operationOf,
  type ReadingDeclaration,
} from "./declaration";
import { cacheReading } from "./http-cache";
import { computeReading } from "./off-loop";
import { resolveScope } from "./reading-scope";
import { apiProcedure, operationMeta } from "./trpc";
import { deepFreeze, validatedOnce } from "./validated-once";

/** The OpenAPI tag of each group. */
export const GROUP_TAGS: Record<Group, string> = {
  markets: "Markets",
  readings: "Readings",
  exports: "Exports",
  geographies: "Geographies",
  account: "Account",
};

/** Inputs that pick the release(s) or the market: they name an answer through the resolved scope. */
const SCOPE_INPUTS = new Set(["marketId", "release", "from", "to", "country"]);

/** Inputs that narrow a computed reading (server/2-readings/narrowing.ts): they name the answer, not what is kept. */
const NARROWING_INPUTS = new Set(["limit", "cursor", "productIds", "countries", "fields"]);

/**
 * The inputs that name a reading besides its market, releases and country: every other input of
 * its schema, in the schema's order, except those declared not to change the bytes — and, for the
 * reading kept in memory, except those that narrow it (one reading kept, narrowed per call).
 */
function namingInputs(
  declaration: ReadingDeclaration<z.ZodObject, z.ZodType>,
  input: Record<string, unknown>,
  kept: boolean,
) {
  const named: string[] = [];
  for (const key of namingKeys(declaration)[kept ? "kept" : "all"]) {
    const value = input[key];
    if (value !== undefined) named.push(NARROWING_INPUTS.has(key) ? `${key}=${String(value)}` : String(value));
  }
  return named;
}

/** Which inputs name a declaration's readings (see namingInputs), worked out once per declaration. */
const namingKeysOf = new WeakMap<object, { all: string[]; kept: string[] }>();

function namingKeys(declaration: ReadingDeclaration<z.ZodObject, z.ZodType>) {
  let keys = namingKeysOf.get(declaration);
  if (!keys) {
    const sameBytes = new Set<string>(declaration.sameBytes ?? []);
    const all = Object.keys(declaration.input.shape).filter((key) => !SCOPE_INPUTS.has(key) && !sameBytes.has(key));
    keys = { all, kept: all.filter((key) => !NARROWING_INPUTS.has(key)) };
    namingKeysOf.set(declaration, keys);
  }
  return keys;
}

/** What a narrowing gives; one it cannot do is the caller's invalid request. */
function asked<T>(narrowing: () => T): T {
  try {
    return narrowing();
  } catch (error) {
    if (error instanceof NarrowingError)
      throw invalidRequest(error.message, [{ path: error.parameter, message: error.message }]);
    throw error;
  }
}

/** The reading narrowed as its input asks. */
function narrowed(declaration: ReadingDeclaration<z.ZodObject, z.ZodType>, payload: unknown, input: Narrowing) {
  const spec = declaration.narrowing;
  if (!spec) return payload;
  return asked(() => narrow(payload as Record<string, unknown>, spec, input));
}

/** A computed answer frozen, whether it came at once or as a promise. */
function frozen<T>(value: T | Promise<T>): T | Promise<T> {
  return value instanceof Promise ? value.then(deepFreeze) : deepFreeze(value);
}

async function serveReading(
  declaration: ReadingDeclaration<z.ZodObject, z.ZodType>,
  ctx: ApiContext,
  input: Record<string, unknown> & { marketId: string },
): Promise<unknown> {
  const resolving = resolveScope(ctx, input, declaration);
  const resolved = resolving instanceof Promise ? await resolving : resolving;
  const { scope } = resolved;
  const country = scope.country === null ? [] : [scope.country];
  const origin = declaration.namedByOrigin ? [ctx.origin] : [];
  const computed =
    declaration.caching === "release"
      ? resolved.loaded.reading(
          [
            declaration.name,
            ...resolved.releases.slice(0, -1),
            ...namingInputs(declaration, input, true),
            ...country,
            ...origin,
          ].join(":"),
          () => frozen(computeReading(declaration, scope, input)),
        )
      : computeReading(declaration, scope, input);
  // Only a long computation is a promise: the common reading is answered without awaiting one.
  const payload = computed instanceof Promise ? await computed : computed;
  if (hasEtag(declaration.caching))
    cacheReading(
      ctx,
      [
        scope.release.marketId,
        ...resolved.releases,
        declaration.name,
        ...namingInputs(declaration, input, false),
        ...country,
        ...origin,
      ],
      resolved.pinned,
    );
  if (declaration.download && ctx.sendsFiles && !ctx.facts.notModified) {
    ctx.facts.download = await readyDownload(ctx, declaration.download.file(scope, input));
    // A pinned release's file never changes: a client may keep it for good.
    ctx.facts.immutable = resolved.pinned;
  }
  return narrowed(declaration, payload, input as Narrowing);
}

/** Live answers that follow the catalogue alone (`keep`), by operation and input; forgotten when it changes. */
const keptAnswers = new ChangeAwareCache<unknown>("catalogue", { name: "live-answers", limit: 1_000 });

async function serveKept(
  declaration: LiveDeclaration<z.ZodObject, z.ZodType>,
  ctx: ApiContext,
  input: Record<string, unknown>,
) {
  const key = `${declaration.group}.${declaration.name}:${JSON.stringify(input)}`;
  const kept = keptAnswers.get(ctx.db, key);
  if (kept !== undefined) return kept;
  const begun = keptAnswers.begin();
  const answer = deepFreeze(await declaration.answer(ctx, input));
  keptAnswers.set(ctx.db, key, answer, begun);
  return answer;
}

function serve(declaration: AnyDeclaration, ctx: ApiContext, input: Record<string, unknown> & { marketId: string }) {
  if (declaration.caching === "live") {
    ctx.facts.maxAgeSeconds = 0;
    const live = declaration as LiveDeclaration<z.ZodObject, z.ZodType>;
    return live.keep ? serveKept(live, ctx, input) : live.answer(ctx, input);
  }
  return serveReading(declaration as ReadingDeclaration<z.ZodObject, z.ZodType>, ctx, input);
}

/** The procedure a declaration describes. */
export function procedureOf<I extends z.ZodObject, O extends z.ZodType>(declaration: {
  group: Group;
  input: I;
  output: O;
  caching: AnyDeclaration["caching"];
}) {
  const full = declaration as unknown as AnyDeclaration;
  // What the procedure declares it answers: the output, or it or its sparse variant (`fields`). Its
  // callers in this code base (the dashboard, MCP) are typed with the complete answer: only REST
  // and MCP callers ask for `fields`, and the documents they read say the union.
  const answer = answerSchema(full) as O;
  // Only an answer kept and served as the same frozen object may skip validation the second time.
  // So may an answer a worker thread validated (./off-loop.ts): a reading whose work grows with the market.
  const output =
    declaration.caching === "release" ||
    (full.caching === "live" && full.keep) ||
    ("growsWithMarket" in full && full.growsWithMarket)
      ? validatedOnce(answer)
      : answer;
  const spec = "narrowing" in full ? full.narrowing : undefined;
  // Most operations retire nothing: their calls skip looking.
  const retiring = DEPRECATIONS.some((deprecation) => deprecation.operation === operationOf(full).name);
  return (
    apiProcedure
      .meta(operationMeta(operationOf(full), GROUP_TAGS[declaration.group]))
      .input(declaration.input)
      // Outside the output check: a sparse answer (`fields`) is the checked reading with fields left out.
      .use(async ({ ctx, input, next }) => {
        // Whatever the call touches that is being retired, said by every surface (REST headers, MCP _meta).
        if (retiring) {
          const used = Object.entries(input as Record<string, unknown>).flatMap(([key, value]) =>
            value === undefined ? [] : [key],
          );
          const deprecation = deprecationOf(operationOf(full).name, used, new Date());
          if (deprecation) ctx.facts.deprecation = deprecation;
        }
        const fields = (input as Narrowing).fields;
        if (!spec || fields === undefined) return next();
        const result = await next();
        if (!result.ok) return result;
        return { ...result, data: asked(() => selectFields(result.data as Record<string, unknown>, spec, fields)) };
      })
      .output(output)
      .query(({ ctx, input }) => serve(full, ctx, input as never) as never)
  );
}

type ProcedureOf<D extends AnyDeclaration> = ReturnType<typeof procedureOf<D["input"], D["output"]>>;

/** The procedures of one group's declarations, keyed by their names, typed from the declarations. */
export function proceduresOf<const Ds extends readonly AnyDeclaration[], G extends Group>(
  declarations: Ds,
  group: G,
): { [D in Extract<Ds[number], { group: G }> as D["name"]]: ProcedureOf<D> } {
  return Object.fromEntries(
    declarations.filter((d) => d.group === group).map((d) => [d.name, procedureOf(d)]),
  ) as never;
}
