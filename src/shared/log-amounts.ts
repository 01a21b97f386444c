/**
 * An event log's integer amount in the token's units. The service's logs name no contract and no
 * decimals (service-spec 2.6: topics, data, log_index), so a raw amount is read against the
 * transaction's own transfers, which the service sends in token units: when the integer is one
 * transfer's quantity times 10^d for a d a token uses, it is that quantity of that token. Anything
 * else stays the integer it is: a guess at decimals would be a figure nobody sent.
 */
export interface TransferAmount {
  qty: number | null;
  symbol: string | null;
}

/** Decimals tried, the usual first (ERC-20's 18, USDC's 6, WBTC's 8, …), then every other up to 36. */
const DECIMALS = [18, 6, 8, 9, 12, ...Array.from({ length: 37 }, (_, d) => d).filter((d) => ![18, 6, 8, 9, 12].includes(d))];

/** `raw` (a non-negative integer in decimal digits) with `d` decimals, as plain digits: no float on the way. */
export function unitsText(raw: string, d: number): string {
  const digits = raw.replace(/^0+(?=\d)/, '');
  if (d === 0) return digits;
  const padded = digits.padStart(d + 1, '0');
  const whole = padded.slice(0, -d);
  const fraction = padded.slice(-d).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * The transfer a log's raw amount is, and the amount in its units; null when none matches. A match
 * is exact to a double's precision: the digits read as a number equal the transfer's quantity.
 */
export function logAmount(raw: string, transfers: readonly TransferAmount[]): { units: string; symbol: string | null; decimals: number } | null {
  if (!/^\d+$/.test(raw) || /^0+$/.test(raw)) return null;
  for (const d of DECIMALS) {
    const units = unitsText(raw, d);
    const n = Number(units);
    const hit = transfers.find((t) => typeof t.qty === 'number' && t.qty > 0 && Math.abs(t.qty) === n);
    if (hit) return { units, symbol: hit.symbol, decimals: d };
  }
  return null;
}
