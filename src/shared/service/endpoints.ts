/**
 * The five operations of the Wallet Portfolio and Transaction Query Service, as
 * service-spec.md gives them: path (with its per-operation version segment) and
 * the subject used in the success message `Get <what> (ID: <request_id>) succeed.`
 * The simulator and the client both read this table, so they cannot drift apart.
 */
export const ENDPOINTS = {
  allPositions: { path: '/v2/portfolio/all_positions', what: 'Positions' },
  positionsByUnderlying: { path: '/v1/portfolio/positions_by_underlying', what: 'positions by underlying' },
  // "liqudity" is spelled as the service spells it.
  liquidityAnalysis: { path: '/v1/portfolio/port_liq_analysis', what: 'portfolio liqudity analysis' },
  transactionsByWallet: { path: '/v3/transactions/txn_by_wallet', what: 'transaction history' },
  logsByTxnHash: { path: '/v3/transactions/logs_by_txn_hash', what: 'logs' },
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
