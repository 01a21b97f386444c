/**
 * One GET to the service, with the policy every call shares: a per-attempt timeout,
 * retries with exponential backoff and full jitter for 5xx and network failures, and one
 * request budget across all calls (RequestPacer: concurrency, a pace learned from the
 * service's refusals, wallets in turn); a request refused for the rate is asked again at
 * the slower pace (honouring Retry-After, capped) rather than failed. A body is read as a
 * stream and never past its endpoint's cap (`maxBodyBytes` in endpoints.ts; 64 KiB of an error
 * body): a larger one fails unread and is not asked for again.
 */

import { ACCESS_KEY_PARAM, ENDPOINTS, type EndpointName } from '../../../shared/service/endpoints.ts';
import { AuthError, CancelledError, NetworkError, RateLimitedError, RequestError, ResponseTooLargeError, ServerError, ServiceError } from './errors.ts';
import type { RequestPacer } from './pacer.ts';
import { redactorFor, redactText, redactUrl } from './redact.ts';
import { abortableSleep } from '../../../shared/sleep.ts';

export interface HttpPolicy {
  /** Per attempt, from sending to the last byte of the body. */
  timeoutMs: number;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** A Retry-After longer than this is not waited for: the call fails as rate-limited. */
  maxRetryAfterMs: number;
  /**
   * How long the service may refuse every request for the rate (nothing served between), each
   * pause longer than the last, before requests fail: then they fail without being sent for as
   * long again (RequestPacer.giveUp).
   */
  maxRateLimitedMs: number;
}

export const DEFAULT_POLICY: HttpPolicy = {
  timeoutMs: 20_000,
  maxAttempts: 4,
  backoffBaseMs: 300,
  backoffMaxMs: 8_000,
  maxRetryAfterMs: 60_000,
  maxRateLimitedMs: 600_000,
};

export interface RetryInfo {
  endpoint: EndpointName;
  attempt: number;
  delayMs: number;
  error: ServiceError;
}

export interface HttpDeps {
  baseUrl: string;
  /** Read on every request, so a key changed in the keychain applies to the next call. */
  accessKey: () => string | null | Promise<string | null>;
  policy: HttpPolicy;
  limiter: RequestPacer;
  fetch?: typeof globalThis.fetch;
  random?: () => number;
  onRetry?: (info: RetryInfo) => void;
}

export interface HttpResponse {
  body: string;
  /** The request URL with the key redacted. */
  url: string;
  fetchedAt: string;
  /** The service's clock when it answered (its HTTP Date header, whole seconds), or null without one. */
  serviceTimeMs: number | null;
  attempts: number;
  /** Removes the key this request was sent with from any text (service-provided text included). */
  redact: (text: string) => string;
}

export type QueryParams = Record<string, string | number | undefined | null>;

/** Backoff before attempt `attempt + 1`: full jitter under a doubling ceiling. */
export function backoffMs(policy: HttpPolicy, attempt: number, random: () => number): number {
  return Math.round(random() * Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** (attempt - 1)));
}

export async function getWithRetry(deps: HttpDeps, endpoint: EndpointName, params: QueryParams, signal?: AbortSignal): Promise<HttpResponse> {
  const key = await deps.accessKey();
  const url = buildUrl(deps.baseUrl, endpoint, params, key);
  const shown = redactUrl(url);
  const random = deps.random ?? Math.random;
  // Requests of one wallet share a lane of the pacer: wallets take turns (see RequestPacer).
  const lane = String(params['wallet'] ?? params['txn_hash'] ?? '');
  const paced = async (sentAt: number): Promise<{ body: string; serviceTimeMs: number | null }> => {
    // The service refused everything for too long: nothing more is sent to it for now.
    if (deps.limiter.givenUp) throw new RateLimitedError(shown, null, deps.policy.maxRateLimitedMs);
    try {
      const answer = await attemptOnce(deps, endpoint, url, shown, key, signal);
      deps.limiter.served();
      return answer;
    } catch (err) {
      // A wait longer than the policy takes fails this request at once (below): it does not
      // hold every other request to the service for that long (an hour, a date in 2099).
      if (err instanceof RateLimitedError)
        deps.limiter.refused(sentAt, err.retryAfterMs !== null && err.retryAfterMs > deps.policy.maxRetryAfterMs ? null : err.retryAfterMs);
      // Once the service has shown a quota, its 503s are read as "slower" too (many gateways
      // answer so); before that a 503 says nothing of a pace. Either way it counts as a failed
      // attempt below.
      else if (err instanceof ServerError && err.status === 503 && deps.limiter.state.rate !== null) deps.limiter.refused(sentAt, null);
      // Any other answer of the service's (a 400, a 500, a body it could not read) went through
      // its quota, and is counted when the quota is read.
      else if (err instanceof RequestError || err instanceof ServerError || err instanceof AuthError) deps.limiter.letThrough();
      throw err;
    }
  };
  let refusals = 0;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw new CancelledError(shown);
    try {
      const { body, serviceTimeMs } = await deps.limiter.run(paced, lane, signal).catch((err: unknown) => {
        throw signal?.aborted && !(err instanceof ServiceError) ? new CancelledError(shown) : err;
      });
      return { body, url: shown, fetchedAt: new Date().toISOString(), serviceTimeMs, attempts: attempt + refusals, redact: redactorFor(key) };
    } catch (err) {
      if (!(err instanceof ServiceError) || !err.retryable) throw err;
      if (err instanceof RateLimitedError) {
        // Refused for the rate: the pacer has slowed every request to the service, so this one
        // is asked again at the slower pace, without counting as a failed attempt. It fails
        // only when the service asks for a longer wait than the policy allows, or has refused
        // every request for longer than the policy's limit (shared by every request to it, so
        // the work under way ends rather than each request waiting that long in turn).
        if (err.retryAfterMs !== null && err.retryAfterMs > deps.policy.maxRetryAfterMs) throw err;
        if (err.gaveUpAfterMs !== null) throw err;
        if (deps.limiter.refusingForMs() > deps.policy.maxRateLimitedMs) {
          deps.limiter.giveUp(deps.policy.maxRateLimitedMs);
          throw new RateLimitedError(shown, null, deps.policy.maxRateLimitedMs);
        }
        refusals++;
        attempt--;
        deps.onRetry?.({ endpoint, attempt: attempt + refusals, delayMs: Math.max(err.retryAfterMs ?? 0, deps.limiter.waitMs()), error: err });
        continue;
      }
      if (attempt >= deps.policy.maxAttempts) throw err;
      const delayMs = backoffMs(deps.policy, attempt, random);
      deps.onRetry?.({ endpoint, attempt, delayMs, error: err });
      await sleep(delayMs, signal, shown);
    }
  }
}

/**
 * What is read of an error (non-2xx) body: only its `message` and `parameter` are used, and
 * the first 64 KiB hold them in any error body a service really sends. The rest is not read.
 */
export const ERROR_BODY_CAP = 64 * 1024;

async function attemptOnce(
  deps: HttpDeps,
  endpoint: EndpointName,
  url: URL,
  shown: string,
  key: string | null,
  signal?: AbortSignal,
): Promise<{ body: string; serviceTimeMs: number | null }> {
  const timeout = AbortSignal.timeout(deps.policy.timeoutMs);
  // Aborted when the body is not to be read further: the connection is dropped, not drained.
  const stop = new AbortController();
  const combined = AbortSignal.any(signal ? [signal, timeout, stop.signal] : [timeout, stop.signal]);
  const doFetch = deps.fetch ?? globalThis.fetch;
  const cap = ENDPOINTS[endpoint].maxBodyBytes;
  let res: Response;
  let body: string;
  let cut = false;
  try {
    // The timeout covers the body too: `combined` aborts its reading.
    res = await doFetch(url, { method: 'GET', signal: combined, headers: { Accept: 'application/json' }, redirect: 'error' });
    if (res.ok) {
      // Announced too large: refused before a byte of the body is read. (With a Content-Encoding
      // this is the encoded length, which the decoded body is never much smaller than.)
      const announced = contentLength(res.headers);
      if (announced !== null && announced > cap) {
        stop.abort();
        throw new ResponseTooLargeError(shown, cap, announced);
      }
      const read = await readUpTo(res, cap, stop, false);
      if (read.over) throw new ResponseTooLargeError(shown, cap, null);
      body = read.text;
    } else {
      const read = await readUpTo(res, ERROR_BODY_CAP, stop, true);
      body = read.text;
      cut = read.over;
    }
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    if (signal?.aborted) throw new CancelledError(shown);
    if (timeout.aborted) throw new NetworkError(shown, true, 'timeout');
    throw new NetworkError(shown, false, describe(err, key));
  }
  if (res.ok) return { body, serviceTimeMs: httpDateMs(res.headers.get('date')) };
  const { message, parameter } = errorBody(body, key, cut);
  if (res.status === 401 || res.status === 403) throw new AuthError(shown, res.status, message);
  if (res.status === 429) throw new RateLimitedError(shown, retryAfterMs(res.headers.get('retry-after')));
  if (res.status >= 500) throw new ServerError(shown, res.status, message);
  throw new RequestError(shown, res.status, message, parameter);
}

/** A Content-Length header as a number of bytes; null when absent or not a plain count. */
function contentLength(headers: Headers): number | null {
  const value = headers.get('content-length')?.trim();
  return value && /^\d+$/.test(value) ? Number(value) : null;
}

/**
 * The body as text, read as a stream and counted in decoded bytes (what a Content-Encoding
 * expands to, whatever the headers say), at most `cap` of them. Past the cap nothing more is
 * read: the fetch is aborted (the connection dropped) and `over` is set, with the text up to
 * the cap when `keepCut` (else none). The bytes are kept as they arrive (outside the JS heap,
 * never copied by its collector) and decoded once at the end, as `Response.text()` does
 * (UTF-8, a leading BOM dropped, bad bytes as U+FFFD).
 */
async function readUpTo(res: Response, cap: number, stop: AbortController, keepCut: boolean): Promise<{ text: string; over: boolean }> {
  if (!res.body) return { text: '', over: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return { text: decode(chunks, bytes), over: false };
      }
      if (bytes + value.byteLength > cap) {
        if (!keepCut) return { text: '', over: true };
        chunks.push(value.subarray(0, cap - bytes));
        return { text: decode(chunks, cap), over: true };
      }
      bytes += value.byteLength;
      chunks.push(value);
    }
  } finally {
    if (!finished) {
      stop.abort();
      reader.cancel().catch(() => undefined);
    }
  }
}

function decode(chunks: Uint8Array[], bytes: number): string {
  const whole = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes);
  chunks.length = 0;
  return new TextDecoder().decode(whole);
}

export function buildUrl(baseUrl: string, endpoint: EndpointName, params: QueryParams, key: string | null): URL {
  let url: URL;
  try {
    url = new URL(baseUrl.replace(/\/+$/, '') + ENDPOINTS[endpoint].path);
  } catch {
    throw new NetworkError('(invalid base URL)', false, 'the base URL is not a valid http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetworkError(redactUrl(url), false, 'the base URL must start with http:// or https://');
  }
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
  }
  if (key) url.searchParams.set(ACCESS_KEY_PARAM, key);
  return url;
}

/** An HTTP Date header in milliseconds; null when absent or unreadable. */
export function httpDateMs(header: string | null): number | null {
  if (!header) return null;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : at;
}

/** Retry-After as seconds or an HTTP date, in milliseconds; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * The service's error body is not specified: read `message` and `parameter` when it is JSON.
 * Of a body cut at ERROR_BODY_CAP (no longer JSON), the first of each string member is read.
 */
function errorBody(body: string, key: string | null, cut = false): { message: string; parameter: string | null } {
  try {
    const parsed = (cut ? membersOfCut(body) : JSON.parse(body)) as { message?: unknown; parameter?: unknown };
    // The key is removed from the whole text before it is cut: a cut through the key would
    // leave its first characters, which no redaction recognises.
    const message = typeof parsed.message === 'string' ? redactText(parsed.message, key).slice(0, 300) : '';
    return { message, parameter: typeof parsed.parameter === 'string' ? redactText(parsed.parameter, key).slice(0, 100) : null };
  } catch {
    return { message: '', parameter: null };
  }
}

/** `message` and `parameter` of the start of a JSON object, where each is a string complete in it. */
const CUT_MEMBER = { message: /"message"\s*:\s*("(?:[^"\\]|\\.)*")/, parameter: /"parameter"\s*:\s*("(?:[^"\\]|\\.)*")/ };
function membersOfCut(text: string): { message?: unknown; parameter?: unknown } {
  const member = (pattern: RegExp): unknown => {
    const m = pattern.exec(text);
    return m ? JSON.parse(m[1]!) : undefined;
  };
  return { message: member(CUT_MEMBER.message), parameter: member(CUT_MEMBER.parameter) };
}

function describe(err: unknown, key: string | null): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  const detail = e.cause?.code ?? e.cause?.message ?? e.message ?? 'unknown error';
  return redactText(String(detail), key).slice(0, 200);
}

export function sleep(ms: number, signal: AbortSignal | undefined, shown: string): Promise<void> {
  return abortableSleep(ms, signal, () => new CancelledError(shown));
}
