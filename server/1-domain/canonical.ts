import { createHash } from "node:crypto";

/** JSON with object keys sorted, so equal content always gives equal bytes (and hash). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
