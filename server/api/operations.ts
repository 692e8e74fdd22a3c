/**
 * Who may call each operation and what it costs (DESIGN.md §4): the one table. Each procedure
 * declares its entry as metadata; the access middleware reads it (enforcement arrives with the
 * accounts issue), the OpenAPI document and the docs describe it.
 */
export const MARKET_READ_SCOPE = "Market.Read.All";

export interface Operation {
  /** Stable name, used in the credits ledger and logs. */
  name: string;
  /** Scope the token must carry; null: any valid token. */
  scope: typeof MARKET_READ_SCOPE | null;
  /** Credits debited once per successful call. */
  credits: number;
}

export const OPERATIONS = {
  marketsList: { name: "markets.list", scope: null, credits: 0 },
  marketGet: { name: "markets.get", scope: null, credits: 0 },
  marketChangelog: { name: "markets.changelog", scope: null, credits: 0 },
  geographiesList: { name: "geographies.list", scope: null, credits: 0 },
  snapshot: { name: "readings.snapshot", scope: MARKET_READ_SCOPE, credits: 5 },
  capaindex: { name: "readings.capaindex", scope: MARKET_READ_SCOPE, credits: 2 },
  servicemax: { name: "readings.servicemax", scope: MARKET_READ_SCOPE, credits: 3 },
  delta: { name: "readings.delta", scope: MARKET_READ_SCOPE, credits: 3 },
} as const satisfies Record<string, Operation>;
