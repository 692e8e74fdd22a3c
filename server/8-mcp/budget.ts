/**
 * Every tool result within a token budget, at any market size. A result's size is its bytes ÷ 4
 * (content, structuredContent and embedded HTML together, with room for the envelope); a widely
 * used client caps one result at 25,000 tokens, and some hand the model structuredContent rather
 * than the text, so both must be small. A reading of every product that would go over the budget
 * answers its first page instead (server/2-readings/narrowing.ts, fitPage), and its text says what
 * was left out and how to get it: the next page's cursor, or the parameters that narrow it.
 */
import { fitPage, type NarrowingSpec, type Page } from "../2-readings/narrowing";

/** The most a tool result may take by default, in tokens (bytes ÷ 4). */
export const RESULT_BUDGET_TOKENS = 8_000;

/** What the JSON-RPC envelope and `_meta` (request id, credits) add to a result. */
const ENVELOPE_BYTES = 600;

export const tokensOf = (result: unknown) =>
  Math.ceil((Buffer.byteLength(JSON.stringify(result)) + ENVELOPE_BYTES) / 4);

/** What a result's text adds when it holds part of a reading: what is shown, and how to get the rest. */
export function pageNote(tool: string, page: Page | undefined, columns: boolean): string {
  if (!page || (page.offset === 0 && page.nextCursor === null)) return "";
  const shown =
    page.returned === 0
      ? `No product shown: one product's answer alone is over the budget of ${RESULT_BUDGET_TOKENS.toLocaleString("en")} tokens${columns ? "; narrow with countries" : ""}.`
      : `Showing products ${page.offset + 1}–${page.offset + page.returned} of ${page.total}, in the reading's own order.`;
  const rest =
    page.nextCursor === null
      ? ""
      : ` For the next page call ${tool} again with the same arguments and cursor "${page.nextCursor}"; or narrow with limit, productIds or fields${columns ? " (and countries)" : ""}.`;
  return `\n\n${shown}${rest} The resource link below reads the whole reading page by page, free for an hour.`;
}

/**
 * The result as it is when it fits the budget; else made again from the reading's largest first
 * part that fits (`make` builds a result from a payload), its text saying so. `reservedBytes` are
 * kept free for what is added to the result afterwards (a link to the whole reading).
 */
export function withinBudget<P extends Record<string, unknown> & { page?: Page }, R>(
  payload: P,
  spec: NarrowingSpec,
  make: (payload: P) => R,
  reservedBytes = 0,
): { payload: P; result: R } {
  const fits = (candidate: P) => tokensOf(make(candidate)) + Math.ceil(reservedBytes / 4) <= RESULT_BUDGET_TOKENS;
  const fitted = fitPage(payload, spec, fits) ?? payload;
  return { payload: fitted, result: make(fitted) };
}
