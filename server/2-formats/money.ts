/** Prices as people read them: pure, shared by the credit-purchase mail and the credits page. */

/** Currencies Stripe counts in whole units (its "zero-decimal currencies"): 500 jpy is ¥500. */
const ZERO_DECIMAL = new Set("bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf".split(" "));

/** An amount in minor units as people read it: 4900 eur → "49.00 EUR", 500 jpy → "500 JPY". */
export const moneyText = (amount: number, currency: string) =>
  `${ZERO_DECIMAL.has(currency.toLowerCase()) ? String(amount) : (amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
