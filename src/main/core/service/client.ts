import type { z } from 'zod';
import { type EndpointName, MAX_BODY_DEPTH, requestIdFromMessage, SUCCESS_STATUS } from '../../../shared/service/endpoints.ts';
import { BadResponseError, ServiceStatusError } from './errors.ts';
import { backoffMs, DEFAULT_POLICY, getWithRetry, sleep, type HttpDeps, type HttpPolicy, type QueryParams, type RetryInfo } from './http.ts';
import { RequestPacer } from './pacer.ts';
import { jsonHoldsSecret, type Redactor, scrubJson, SecretInDataError } from './redact.ts';
import {
  DATA_MEMBERS,
  envelope,
  liquiditySnapshot,
  type LiquiditySnapshot,
  positionSnapshot,
  type PositionSnapshot,
  transactionHistory,
  type TransactionHistory,
  transactionLogs,
  type TransactionLogs,
  underlyingSnapshot,
  type UnderlyingSnapshot,
  BAD_VALUE,
  recoverBadValues,
  type ValueFlag,
} from '../../../shared/service/schemas.ts';
import { nestsDeeperThan, parseJsonLenient } from '../../../shared/service/normalize.ts';

/** Position endpoints store what is valid of a body with bad values (nulled and flagged); the others refuse it. */
const FLAGS_BAD_VALUES: ReadonlySet<EndpointName> = new Set(['allPositions', 'positionsByUnderlying', 'liquidityAnalysis']);

/** A validated, normalised response, with what the cache keeps of where it came from. */
export interface ServiceResponse<T> {
  endpoint: EndpointName;
  data: T[];
  message: string;
  requestId: string | null;
  /** Present for logs_by_txn_hash. */
  total: number | null;
  /** The body as received, for the immutable raw snapshot (unknown members included). */
  body: string;
  url: string;
  fetchedAt: string;
  attempts: number;
  /** Values the service sent that could not be read: nulled in `data` and listed here (absent = none). */
  flags?: ValueFlag[];
}

export interface PositionsQuery {
  wallet: string;
  chain: string;
  /** YYYY-MM-DD; omitted asks for the service's latest snapshot. */
  date?: string;
}

export interface TransactionsQuery {
  wallet: string;
  chain: string;
  /** Unix seconds. */
  startTime?: number;
  endTime?: number;
  page?: number;
  pageSize?: number;
}

export interface LogsQuery {
  txnHash: string;
  chain: string;
  page?: number;
  pageSize?: number;
}

export interface ClientOptions {
  baseUrl: string;
  accessKey: string | null | (() => string | null | Promise<string | null>);
  policy?: Partial<HttpPolicy>;
  /** Requests in flight at once across the whole client (default 4). */
  concurrency?: number;
  /** Share one request budget between clients (of one service). */
  limiter?: RequestPacer;
  fetch?: typeof globalThis.fetch;
  random?: () => number;
  onRetry?: (info: RetryInfo) => void;
}

export type ServiceClient = ReturnType<typeof createServiceClient>;

export function createServiceClient(options: ClientOptions) {
  const key = options.accessKey;
  const deps: HttpDeps = {
    baseUrl: options.baseUrl,
    accessKey: typeof key === 'function' ? key : () => key,
    policy: { ...DEFAULT_POLICY, ...options.policy },
    limiter: options.limiter ?? new RequestPacer({ concurrency: options.concurrency ?? 4 }),
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.random && { random: options.random }),
    ...(options.onRetry && { onRetry: options.onRetry }),
  };

  // How far the service's clock is from this computer's, from the Date header of its last
  // answer (whole seconds): a sync takes "now" from the service, so a computer's clock set
  // wrong never decides what time a range of transactions is complete to.
  let clockOffsetMs: number | null = null;

  async function call<S extends z.ZodType>(endpoint: EndpointName, item: S, params: QueryParams, signal?: AbortSignal): Promise<ServiceResponse<z.output<S>>> {
    // A 2xx whose status is not OK is often transient (an indexer timeout), and so is a body
    // that is not JSON at all (cut short by a proxy or a dropped connection that still ended
    // cleanly): asked again a bounded number of times, with the same backoff as other
    // retries, before the call fails. A body that parses but breaks the schema is not.
    let attempts = 0;
    for (let round = 1; ; round++) {
      const res = await getWithRetry(deps, endpoint, params, signal);
      attempts += res.attempts;
      if (res.serviceTimeMs !== null) clockOffsetMs = res.serviceTimeMs - Date.parse(res.fetchedAt);
      try {
        return parseEnvelope(endpoint, item, res.body, res.url, res.fetchedAt, attempts, res.redact);
      } catch (err) {
        const transient = err instanceof ServiceStatusError || (err instanceof BadResponseError && err.notJson);
        if (!transient || round >= deps.policy.maxAttempts) throw err;
        const delayMs = backoffMs(deps.policy, round, deps.random ?? Math.random);
        deps.onRetry?.({ endpoint, attempt: round, delayMs, error: err });
        await sleep(delayMs, signal, res.url);
      }
    }
  }

  const positionsParams = (q: PositionsQuery): QueryParams => ({ wallet: q.wallet, chains: q.chain, date: q.date });

  return {
    limiter: deps.limiter,
    /** The service's clock now, as its last answer showed it; null before any answer with a Date header. */
    serviceNowMs: (): number | null => (clockOffsetMs === null ? null : Date.now() + clockOffsetMs),
    allPositions: (q: PositionsQuery, signal?: AbortSignal): Promise<ServiceResponse<PositionSnapshot>> =>
      call('allPositions', positionSnapshot, positionsParams(q), signal),
    positionsByUnderlying: (q: PositionsQuery, signal?: AbortSignal): Promise<ServiceResponse<UnderlyingSnapshot>> =>
      call('positionsByUnderlying', underlyingSnapshot, positionsParams(q), signal),
    liquidityAnalysis: (q: PositionsQuery & { assetType?: string }, signal?: AbortSignal): Promise<ServiceResponse<LiquiditySnapshot>> =>
      call('liquidityAnalysis', liquiditySnapshot, { ...positionsParams(q), asset_type: q.assetType }, signal),
    transactionsByWallet: (q: TransactionsQuery, signal?: AbortSignal): Promise<ServiceResponse<TransactionHistory>> =>
      call(
        'transactionsByWallet',
        transactionHistory,
        {
          wallet: q.wallet,
          chains: q.chain,
          start_time: q.startTime,
          end_time: q.endTime,
          page: q.page,
          pageSize: q.pageSize,
        },
        signal,
      ),
    // The logs operation names its chain parameter `chain_id`, not `chains`.
    logsByTxnHash: (q: LogsQuery, signal?: AbortSignal): Promise<ServiceResponse<TransactionLogs>> =>
      call('logsByTxnHash', transactionLogs, { txn_hash: q.txnHash, chain_id: q.chain, page: q.page, pageSize: q.pageSize }, signal),
  };
}

export function parseEnvelope<S extends z.ZodType>(
  endpoint: EndpointName,
  item: S,
  body: string,
  url: string,
  fetchedAt: string,
  attempts: number,
  redact: (text: string) => string = (text) => text,
): ServiceResponse<z.output<S>> {
  let json: unknown;
  // Whatever the service echoes (the key included) is scrubbed before anything reads it:
  // errors, events, the stored raw body and the parsed data all come from this.
  const redacted = redact(body);
  // A body without escapes decodes to substrings of itself, so when the text holds no form
  // of the key, no string parsed from it does either, and the parsed value needs no walk.
  // The walk copied every object and scanned every string of a 1,000-row page: most of the
  // main thread's parsing time and garbage during a whale sync (bench/RESULTS.md).
  // A key a JSON number can print as (digits, maybe a dot or an exponent) can hide in a number
  // spelled otherwise in the text (`1.23456789012e11`): such a key always takes the walk.
  const clean = redacted === body && !body.includes('\\') && !(redact as Partial<Redactor>).numeric;
  // Refused before it is parsed: JSON.parse reads any depth, but the walks of its value
  // (the scrub below, JSON.stringify into the cache, the service check) recurse.
  if (nestsDeeperThan(body, MAX_BODY_DEPTH)) {
    throw new BadResponseError(
      url,
      '',
      `the response nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels (the service's data nests 9); nothing of it was kept`,
    );
  }
  try {
    json = JSON.parse(body);
  } catch {
    // Bare NaN/Infinity (Python's encoder writes them) are bad values, not a bad body.
    json = FLAGS_BAD_VALUES.has(endpoint) ? parseJsonLenient(body) : undefined;
    if (json === undefined) throw new BadResponseError(url, '', `not valid JSON (${body.length} bytes; cut short or garbled on the way)`, true);
  }
  // Only a value that holds the key is copied to scrub it (most bodies with escapes do not).
  // The key is removed from free text only: a data value (an id, a hash, an address, a number)
  // that holds it is never rewritten, and nothing of the response is kept.
  let held = false;
  if (!clean) {
    let scrubbed: unknown;
    try {
      scrubbed = scrubJson(json, redact, isDataPath);
    } catch (err) {
      if (!(err instanceof SecretInDataError)) throw err;
      throw new BadResponseError(
        url,
        formatPath(err.path).slice(0, 200),
        'this value holds the access key. Folioscope never rewrites a data value, so nothing of this response was kept; if it recurs, the key may be part of ordinary data there: ask the service for another key.',
      );
    }
    held = scrubbed !== json;
    json = scrubbed;
    // The text held a spelling of the key that no single value or member name holds: it spans
    // the JSON's own structure, which no scrub of values could keep readable.
    if (!held && redacted !== body) throw new BadResponseError(url, '', 'the access key appears in it across values; nothing of this response was kept');
  }
  // When the scrubbed text still decodes to the key (a spelling split over escapes the text
  // scrub cannot see whole), the stored raw body is the scrubbed parse instead: the key never
  // reaches SQLite.
  body = held && bodyHidesSecret(redacted, redact) ? JSON.stringify(json) : redacted;
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new BadResponseError(url, '', 'expected a JSON object with status, data and message');
  }
  const status = (json as { status?: unknown }).status;
  if (typeof status !== 'string') throw new BadResponseError(url, 'status', 'missing or not a string');
  if (status !== SUCCESS_STATUS) {
    const message = (json as { message?: unknown }).message;
    // Cut only once the key is gone: a cut through it would leave its first characters.
    throw new ServiceStatusError(url, redact(status).slice(0, 100), typeof message === 'string' ? redact(message).slice(0, 300) : '');
  }
  let parsed = envelope(item).safeParse(json);
  let flags: ValueFlag[] = [];
  if (!parsed.success && FLAGS_BAD_VALUES.has(endpoint)) {
    const recovered = recoverBadValues(json, parsed.error.issues);
    if (recovered) {
      flags = recovered;
      parsed = envelope(item).safeParse(json);
    }
  }
  if (!parsed.success) {
    // Name what made the body unusable: a wrong shape before a (recoverable) bad value.
    const issues = parsed.error.issues;
    const issue = issues.find((i) => !(i.code === 'custom' && i.params?.[BAD_VALUE] !== undefined)) ?? issues[0]!;
    throw new BadResponseError(url, formatPath(issue.path).slice(0, 200), issue.message.slice(0, 300));
  }
  const message = parsed.data.message ?? '';
  return {
    endpoint,
    data: parsed.data.data as Array<z.output<S>>,
    message,
    requestId: requestIdFromMessage(message),
    total: parsed.data.total ?? null,
    body,
    url,
    fetchedAt,
    attempts,
    flags,
  };
}

/** Whether a string at this path is data (see DATA_MEMBERS): the envelope's own status and message are free text. */
function isDataPath(path: ReadonlyArray<string | number>): boolean {
  if (path.length === 1 && (path[0] === 'status' || path[0] === 'message')) return false;
  const member = path.findLast((p) => typeof p === 'string');
  return member !== undefined && DATA_MEMBERS.has(member);
}

function bodyHidesSecret(text: string, redact: (text: string) => string): boolean {
  // The scrubbed text may nest otherwise than the body checked (a key spelled with quotes):
  // too deep to walk, it is not stored as it is.
  if (nestsDeeperThan(text, MAX_BODY_DEPTH)) return true;
  let again: unknown;
  try {
    again = JSON.parse(text);
  } catch {
    again = parseJsonLenient(text);
    if (again === undefined) return true;
  }
  return jsonHoldsSecret(again, redact);
}

/** `["data", 0, "positions", 3, "nav"]` → `data[0].positions[3].nav`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), '');
}
