/**
 * What an operation is to the access middleware and every text that states a price: its ledger
 * name, scope, price, path and words. Each operation is declared once
 * (server/7-procedures/operations/); this row is derived from its declaration.
 */
export const MARKET_READ_SCOPE = "Market.Read.All";

export interface Operation {
  /** Stable name, used in the credits ledger, logs and metrics. */
  name: string;
  /** Scope the token must carry; null: any valid token. */
  scope: typeof MARKET_READ_SCOPE | null;
  /** Credits debited once per successful call. */
  credits: number;
  /** REST path under /v1 (GET). */
  path: `/${string}`;
  /** A few words: the OpenAPI summary and the MCP tool's title. */
  summary: string;
  /** What it answers, in sentences, without its price (see describeOperation). */
  description: string;
}

/** "Free." or "Costs N credits.": the one way a price is said. */
export const priceSentence = (credits: number) =>
  credits === 0 ? "Free." : `Costs ${credits} credit${credits === 1 ? "" : "s"}.`;

/**
 * "Needs Market.Read.All.", or nothing for an operation any valid token may call: a token without
 * the scope sees every tool in tools/list, so each says what it needs before it is called.
 */
export const scopeSentence = (scope: Operation["scope"]) => (scope ? `Needs ${scope}.` : "");

/**
 * An operation's description as every surface shows it: what it does, anything the surface adds,
 * the scope it needs and its price (last, where agents and tests find it).
 */
export const describeOperation = (operation: Operation, addendum?: string) =>
  [operation.description, addendum, scopeSentence(operation.scope), priceSentence(operation.credits)]
    .filter(Boolean)
    .join(" ");
