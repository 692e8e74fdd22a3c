/**
 * Output validation and serialisation once per immutable payload. A reading is computed once per
 * release (and country) and then served as the same object, so validating it against its schema
 * and writing it as JSON on every call redid the same work: for a 1,000-product × 60-country
 * availability matrix, 140 ms of zod and 60 ms of JSON.stringify per call. The first successful
 * validation of an object is kept (by identity, in a WeakMap) with its JSON text on the validated
 * copy, under a symbol; the surfaces write that text (`answerJson`), and REST its UTF-8 bytes,
 * encoded once per answer (`answerBytes`).
 *
 * Only for answers kept and served as the same object: procedures built from a declaration apply
 * it exactly to the readings declared `caching: "release"` (server/7-procedures/procedure.ts), whose
 * payloads, and the validated copies made of them, are frozen, so a mutation throws instead of
 * corrupting what every later caller is sent.
 */
import type { z } from "zod";

/** Where the JSON text of a validated payload is kept; the REST adapter writes it as the body. */
export const SERIALIZED_JSON = Symbol.for("market-positioning.serialized-json");

/** What each schema validated, by the object it was given: the validated copy. */
const validatedBy = new WeakMap<z.ZodType, WeakMap<object, unknown>>();

/**
 * An answer validated elsewhere against `schema` (a worker thread, server/7-procedures/off-loop.ts),
 * with its JSON text: kept as validated, so the event loop neither validates nor writes it again.
 */
export function rememberValidated<T extends object>(schema: z.ZodType, output: T, json: string): T {
  Object.defineProperty(output, SERIALIZED_JSON, { value: json, enumerable: false });
  deepFreeze(output);
  validatedBy.get(schema)?.set(output, output);
  return output;
}

/**
 * The schema itself, its `parseAsync` (what tRPC calls on an output) remembering what it
 * validated. The instance is kept, not cloned, so its OpenAPI component (its meta id) stays.
 */
export function validatedOnce<S extends z.ZodType>(schema: S): S {
  if (validatedBy.has(schema)) return schema;
  const validated = new WeakMap<object, unknown>();
  validatedBy.set(schema, validated);
  const parseAsync = schema.parseAsync.bind(schema);
  const validating = async (value: object, params?: Parameters<S["parseAsync"]>[1]) => {
    const output = await parseAsync(value, params);
    if (output !== null && typeof output === "object") {
      Object.defineProperty(output, SERIALIZED_JSON, { value: JSON.stringify(output), enumerable: false });
      deepFreeze(output);
    }
    validated.set(value, output);
    return output;
  };
  // What was validated is answered as it is (tRPC awaits it; no promise is made for it).
  const remembering = (value: unknown, params?: Parameters<S["parseAsync"]>[1]) => {
    if (value === null || typeof value !== "object") return parseAsync(value, params);
    if (validated.has(value)) return validated.get(value);
    return validating(value, params);
  };
  Object.assign(schema, { parseAsync: remembering });
  return schema;
}

/** Freezes a payload and everything it holds: a kept answer must never change under its callers. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}

/** An answer's JSON: the text kept with an answer validated once, or the answer written now. */
export function answerJson(data: unknown): string {
  const kept =
    data !== null && typeof data === "object" ? (data as Record<symbol, unknown>)[SERIALIZED_JSON] : undefined;
  return typeof kept === "string" ? kept : JSON.stringify(data);
}

/** The UTF-8 bytes of kept answers' JSON, by the answer: encoded once, not on every call that sends it. */
const bytesOf = new WeakMap<object, Buffer>();

/**
 * An answer's JSON as UTF-8 bytes: for an answer validated once, the same Buffer on every call
 * (never written to: Node sends it as it is); for any other answer, encoded now.
 */
export function answerBytes(data: unknown): Buffer {
  if (data === null || typeof data !== "object" || !(SERIALIZED_JSON in data)) return Buffer.from(answerJson(data));
  let bytes = bytesOf.get(data);
  if (!bytes) {
    bytes = Buffer.from(answerJson(data));
    bytesOf.set(data, bytes);
  }
  return bytes;
}
