/**
 * The one guard for "a parsed JSON value that is an object" (not null, not an array): what every
 * reader of a client's or a provider's JSON body checks before it looks at a member.
 */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
