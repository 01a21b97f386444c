/**
 * The five operations of the Wallet Portfolio and Transaction Query Service, as
 * service-spec.md gives them: path (with its per-operation version segment) and
 * the subject used in the success message `Get <what> (ID: <request_id>) succeed.`
 * The simulator and the client both read this table, so they cannot drift apart.
 *
 * `maxBodyBytes` is the most of a successful body the client reads (decoded bytes, after any
 * Content-Encoding): a body past it fails unread, as a service misbehaving (a gzip bomb, an
 * endless stream), before it can take the process's memory. Each cap is over ten times the
 * largest plausible body, built from the schemas with every member at a long realistic length
 * (a page of 1,000 multi-hop swaps, a page of 1,000 logs of four topics, a wallet holding
 * 5,000 tokens and 500 DeFi positions), which is itself well above what the reference service
 * sends (`npm run bench -- body-sizes`; bench/RESULTS.md, "How large a service's bodies get").
 * The positions views get the larger cap: one unpaged body for a whole wallet and chain. A
 * transaction's logs are bounded by its gas as well: at 8 gas a byte, a 30M-gas transaction
 * emits at most 3.75 MB of data, 7.5 MB as hex. With the client's 4 requests in flight, a
 * misbehaving service can hold at most four caps of memory.
 *
 * An error (non-2xx) body is read to its first 64 KiB only (ERROR_BODY_CAP in service/http.ts).
 */
const MB = 2 ** 20;

export const ENDPOINTS = {
  allPositions: { path: '/v2/portfolio/all_positions', what: 'Positions', maxBodyBytes: 64 * MB },
  positionsByUnderlying: { path: '/v1/portfolio/positions_by_underlying', what: 'positions by underlying', maxBodyBytes: 64 * MB },
  // "liqudity" is spelled as the service spells it.
  liquidityAnalysis: { path: '/v1/portfolio/port_liq_analysis', what: 'portfolio liqudity analysis', maxBodyBytes: 64 * MB },
  transactionsByWallet: { path: '/v3/transactions/txn_by_wallet', what: 'transaction history', maxBodyBytes: 32 * MB },
  logsByTxnHash: { path: '/v3/transactions/logs_by_txn_hash', what: 'logs', maxBodyBytes: 32 * MB },
} as const;

export type EndpointName = keyof typeof ENDPOINTS;

export const SUCCESS_STATUS = 'OK';

export function successMessage(endpoint: EndpointName, requestId: string): string {
  return `Get ${ENDPOINTS[endpoint].what} (ID: ${requestId}) succeed.`;
}

/** Extracts the request ID from a success message; null when the message has another shape. */
export function requestIdFromMessage(message: string): string | null {
  const m = /\(ID:\s*([^)]+?)\s*\)/.exec(message);
  return m?.[1] ?? null;
}

/**
 * The deepest nesting of arrays and objects a body may have. The deepest member the spec
 * defines is at 9 levels (`data[].positions[].underlying[].details.debt_positions[]`); the
 * rest leaves room for members the spec does not list. A deeper body is refused before it is
 * parsed: every walk of a parsed body (the key scrub, the service check, JSON.stringify into
 * the cache) is recursive, and 100,000 levels overflowed the stack.
 */
export const MAX_BODY_DEPTH = 64;

/** The query parameter that carries the access key on every request (spec part 5). */
export const ACCESS_KEY_PARAM = 'access_key';
