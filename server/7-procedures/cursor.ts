/**
 * The cursors of keyset-paged lists (/v1/ledger, /v1/audit-events, /v1/purchases): the previous
 * page's last row, tagged per list and base64url-encoded so callers treat it as opaque; a cursor
 * this service did not give is refused with the same 400 on every list.
 */
import { z } from "zod";
import { invalidRequest } from "../1-errors/api-error";

/** The `cursor` input of a paged list. */
export const cursorInput = z
  .string()
  .max(100, "cursor must be at most 100 characters")
  .optional()
  .meta({ description: "The previous page's `nextCursor`." });

/** `fields` under the list's `tag`, opaque. */
export const encodeCursor = (tag: string, fields: string): string =>
  Buffer.from(`${tag}:${fields}`).toString("base64url");

/** The 400 invalid_request of a cursor this service did not give. */
export function invalidCursor() {
  const message = "cursor is not one this service gave: pass `nextCursor` as it is";
  return invalidRequest(message, [{ path: "cursor", message }]);
}

/** The fields `pattern` captures from a cursor of `tag`'s list; 400 invalid_request for any other. */
export function decodeCursor(tag: string, cursor: string, pattern: RegExp): string[] {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const match = text.startsWith(`${tag}:`) ? pattern.exec(text.slice(tag.length + 1)) : null;
  if (!match) throw invalidCursor();
  return match.slice(1) as string[];
}
