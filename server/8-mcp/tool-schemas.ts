/**
 * Tool schemas as the MCP SDK reads them, with two costs paid once instead of on every POST.
 * A stateless MCP endpoint builds a new server for each request, and each server converted its
 * tools' zod schemas to JSON Schema again (the SDK memoises per server) and validated every
 * result's structuredContent against the output schema: in a CPU profile of snapshot tool calls,
 * zod took 11% of the time. Here each schema is converted once per direction and target, for the
 * life of the process, and a payload its procedure already validated against the same schema
 * (marked by runTool) is not validated again. Arguments from clients are always validated.
 */
import type { z } from "zod";

interface JsonSchemaConverter {
  input(options?: { target?: string }): Record<string, unknown>;
  output(options?: { target?: string }): Record<string, unknown>;
}

type Standard = {
  validate(value: unknown): unknown;
  jsonSchema?: JsonSchemaConverter;
} & Record<string, unknown>;

/** Payloads that passed their procedure's output schema: the tool's output schema is the same. */
const validatedPayloads = new WeakSet<object>();

export function markValidated<T extends object>(payload: T): T {
  validatedPayloads.add(payload);
  return payload;
}

/**
 * The schema, its JSON Schema converted once per direction and target (and, with `shape`, reshaped
 * once: an output schema is outlined for tools/list), its own payloads trusted.
 */
export function convertedOnce<S extends z.ZodType>(
  schema: S,
  shape: (json: Record<string, unknown>) => Record<string, unknown> = (json) => json,
  /**
   * `tool`: arguments reach the tool as they came, and the tool validates them itself, so that a
   * refusal is the problem every other tool error is (invalid_request with its issues), not the
   * SDK's plain "Input validation error" text.
   */
  validation: "here" | "tool" = "here",
): S {
  const standard = schema["~standard"] as unknown as Standard;
  const converter = standard.jsonSchema;
  if (!converter) throw new Error("zod ≥ 4.2 is needed: its schemas convert themselves to JSON Schema");
  const converted = new Map<string, Record<string, unknown>>();
  const once =
    (direction: "input" | "output") =>
    (options?: { target?: string }): Record<string, unknown> => {
      const key = `${direction} ${options?.target ?? ""}`;
      let json = converted.get(key);
      if (!json) {
        json = shape(converter[direction](options));
        converted.set(key, json);
      }
      return json;
    };
  const fast: Standard = {
    ...standard,
    validate: (value: unknown) =>
      validation === "tool" || (value !== null && typeof value === "object" && validatedPayloads.has(value))
        ? { value }
        : standard.validate(value),
    jsonSchema: { input: once("input"), output: once("output") },
  };
  return new Proxy(schema, {
    get: (target, key, receiver) => (key === "~standard" ? fast : Reflect.get(target, key, receiver)),
  });
}
