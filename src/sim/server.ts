/**
 * The reference service: the five endpoints of service-spec.md over real HTTP, with
 * deterministic data and switchable faults. Demo mode, the dev server and the tests
 * all run this same code.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isoDateToUtcMs } from '../shared/dates.ts';
import { ACCESS_KEY_PARAM, ENDPOINTS, type EndpointName, SUCCESS_STATUS, successMessage } from '../shared/service/endpoints.ts';
import { blockAt, CHAIN_IDS, chainById } from './chains.ts';
import { ASSET_TYPES } from './catalog.ts';
import { type Conventions, DEFAULT_CONVENTIONS, orderIndexes, pageOffset, secondsSelected } from './conventions.ts';
import { drift } from './drift.ts';
import { markBadValue, renderDatetime, restyleDatetimes, snapshotInstant, writeBadValue } from './readings.ts';
import { type FaultRule, FaultPlan } from './faults.ts';
import { DAY_MS, isoDay, positionsOn } from './positions.ts';
import { hexOf } from './random.ts';
import { LiveService, type LiveOptions } from './live.ts';
import { noSpamTruth, type SpamOptions, SpamWorld } from './spam.ts';
import { decodeTxnHash, historyOf, type HistoryConfig, historySource, logsOf } from './transactions.ts';
import { allPositionsView, byUnderlyingView, filterByAssetType, liquidityView } from './views.ts';

export interface SimulatorOptions {
  accessKey: string;
  seed?: number;
  port?: number;
  host?: string;
  txnsPerWallet?: number;
  latencyMs?: number;
  faults?: FaultRule[];
  /** Unix seconds spanned by transaction histories (defaults: 2024-01-01 to 2026-11-01). */
  historyStart?: number;
  historyEnd?: number;
  /** The simulator's clock: the latest snapshot date and the upper bound of dates. */
  now?: () => number;
  /** How the service reads the spec's open points (default: the client's first reading). */
  conventions?: Partial<Conventions>;
  /** A rate quota, as a live service keeps one (default: none). */
  quota?: Quota | null;
  /** Live modes: a history that changes while the client reads (live.ts; default: static). */
  live?: LiveOptions | null;
  /**
   * Spam, as real treasury wallets receive it (spam.ts): junk airdropped tokens, address
   * poisoning, one payment to a lookalike; its truth at `GET /_sim/spam-truth`. Default: off,
   * and every answer is what it was without it.
   */
  spam?: boolean | SpamOptions | null;
}

/**
 * At most `perSecond` requests served in any rolling second, counted across all callers;
 * beyond that a 429, with a Retry-After (whole seconds until a slot frees) or without.
 */
export interface Quota {
  perSecond: number;
  retryAfter: boolean;
}

export interface RequestRecord {
  endpoint: EndpointName | null;
  /** Query without the access key. */
  query: Record<string, string>;
  status: number;
  fault: string | null;
}

export interface Simulator {
  url: string;
  port: number;
  setFaults(rules: FaultRule[]): void;
  addFault(rule: FaultRule): void;
  setLatency(ms: number): void;
  /** Switches readings from the next request on (unset keys return to the defaults). */
  setConventions(c: Partial<Conventions>): void;
  /** Sets or lifts the rate quota from the next request on. */
  setQuota(q: Quota | null): void;
  readonly conventions: Readonly<Conventions>;
  /** The live indexer when live modes are on (its ground truth, `settle`), else null. */
  readonly live: LiveService | null;
  /** The world's spam when it is on (its plan and truth), else null. */
  readonly spam: SpamWorld | null;
  /** Requests seen so far (oldest first, the last 10,000). */
  requests: RequestRecord[];
  close(): Promise<void>;
}

export const DEFAULT_HISTORY_START = Date.UTC(2024, 0, 1) / 1000;
export const DEFAULT_HISTORY_END = Date.UTC(2026, 10, 1) / 1000;
const FIRST_DATE = Date.UTC(2020, 0, 1);
const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 100;

class ParamError extends Error {
  constructor(
    readonly parameter: string,
    reason: string,
  ) {
    super(`Invalid parameter '${parameter}': ${reason}`);
  }
}

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const seed = options.seed ?? 1;
  const now = options.now ?? Date.now;
  const history: HistoryConfig = {
    seed,
    txnsPerWallet: options.txnsPerWallet ?? 2000,
    historyStart: options.historyStart ?? DEFAULT_HISTORY_START,
    historyEnd: options.historyEnd ?? DEFAULT_HISTORY_END,
  };
  const spam = options.spam ? new SpamWorld(history, options.spam === true ? {} : options.spam) : null;
  // A live indexer serves the world's rows: with spam on, the history with the spam woven in.
  const live = options.live?.modes.length ? new LiveService(history, options.live, spam ? (h) => spam.source(h) : historySource) : null;
  const faults = new FaultPlan(seed);
  faults.set(options.faults ?? []);
  let latencyMs = options.latencyMs ?? 0;
  let conv: Conventions = { ...DEFAULT_CONVENTIONS, ...options.conventions };
  let requestNo = 0;
  let quota = options.quota ?? null;
  // When each request served in the last second arrived (oldest first).
  const served: number[] = [];
  const requests: RequestRecord[] = [];
  const sockets = new Set<Socket>();

  const routes = new Map<string, EndpointName>((Object.keys(ENDPOINTS) as EndpointName[]).map((name) => [ENDPOINTS[name].path, name]));

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { status: 'ERROR', code: 500, message: `Internal error: ${(err as Error).message}` });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The service's clock is its own: its answers are dated by it, as an HTTP server's are.
    res.setHeader('Date', new Date(now()).toUTCString());
    const url = new URL(req.url ?? '/', 'http://sim.invalid');
    // The simulator's own routes (its ground truth for tests): none of the service's endpoints,
    // so no key, fault, quota or latency, and not numbered or counted among the service's
    // requests (request ids and the live modes' orders stay what they would be without them).
    if (url.pathname.startsWith('/_sim/')) return simRoute(req, res, url);
    const no = ++requestNo;
    const endpoint = routes.get(url.pathname) ?? null;
    const query = Object.fromEntries([...url.searchParams].filter(([k]) => k !== ACCESS_KEY_PARAM));
    const record: RequestRecord = { endpoint, query, status: 0, fault: null };
    requests.push(record);
    if (requests.length > 10_000) requests.shift();
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      sendJson(res, status, body, headers);
    };

    if (req.method !== 'GET') return reply(405, { status: 'ERROR', code: 405, message: 'Only GET is supported' }, { Allow: 'GET' });
    if (!endpoint) return reply(404, { status: 'ERROR', code: 404, message: `No operation at ${url.pathname}` });
    if (quota) {
      // Counted on arrival, as a gateway in front of the service counts.
      const at = performance.now();
      while (served.length && served[0]! <= at - 1000) served.shift();
      if (served.length >= quota.perSecond) {
        record.fault = 'quota';
        const headers: Record<string, string> = quota.retryAfter ? { 'Retry-After': String(Math.max(1, Math.ceil((served[0]! + 1000 - at) / 1000))) } : {};
        return reply(429, { status: 'ERROR', code: 429, message: 'Rate limit exceeded' }, headers);
      }
      served.push(at);
    }
    if (latencyMs > 0) await sleep(latencyMs);

    // Transport faults come first, as a proxy or overloaded gateway answers before the service.
    const span = spanSeconds(endpoint, url.searchParams, conv);
    const limit = faults.fire('rate-limit', endpoint, span);
    if (limit) {
      record.fault = 'rate-limit';
      const retryAfter = String(limit.retryAfterSeconds ?? 1);
      return reply(429, { status: 'ERROR', code: 429, message: 'Too many requests' }, { 'Retry-After': retryAfter });
    }
    const serverError = faults.fire('server-error', endpoint, span);
    if (serverError) {
      record.fault = 'server-error';
      const status = faults.nextServerErrorStatus(serverError);
      return reply(status, { status: 'ERROR', code: status, message: 'Upstream indexer unavailable' });
    }
    if (faults.fire('hang', endpoint, span)) {
      record.fault = 'hang';
      return; // never answered; the socket closes when the client gives up or the simulator stops
    }

    const key = url.searchParams.get(ACCESS_KEY_PARAM);
    if (!key || key !== options.accessKey) {
      return reply(401, { status: 'ERROR', code: 401, message: key ? 'Invalid access_key' : 'Missing access_key' });
    }

    let data: unknown[];
    let total: number | undefined;
    try {
      ({ data, total } = answer(endpoint, url.searchParams, no));
    } catch (err) {
      if (err instanceof ParamError) return reply(400, { status: 'ERROR', code: 400, message: err.message, parameter: err.parameter });
      throw err;
    }

    const requestId = hexOf(16, seed, 'request', no);
    // The datetime and bad-value readings (readings.ts); the snapshot's own date is written in answer().
    restyleDatetimes(data, conv.datetime);
    const badValue =
      endpoint !== 'transactionsByWallet' && endpoint !== 'logsByTxnHash' && conv.badValue !== 'none' && markBadValue(data, conv.badField)
        ? conv.badValue
        : 'none';
    let body: Record<string, unknown> = { status: SUCCESS_STATUS, data, message: successMessage(endpoint, requestId) };
    if (total !== undefined) body['total'] = total;
    if (faults.fire('status-not-ok', endpoint, span)) {
      record.fault = 'status-not-ok';
      body = { status: 'FAILED', data: [], message: `Get ${ENDPOINTS[endpoint].what} (ID: ${requestId}) failed: indexer timeout.` };
    } else if (faults.fire('schema-drift', endpoint, span)) {
      record.fault = 'schema-drift';
      body = drift(body, seed, no) as Record<string, unknown>;
    }
    const text = writeBadValue(JSON.stringify(body), badValue);
    if (faults.fire('malformed-json', endpoint, span)) {
      record.fault = 'malformed-json';
      return sendRaw(res, record, 200, text.slice(0, Math.floor(text.length / 2)) + '<html>502</html>');
    }
    if (faults.fire('truncated', endpoint, span)) {
      record.fault = 'truncated';
      record.status = 200;
      const bytes = Buffer.from(text);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(bytes.length) });
      res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
      // Give the half a moment to leave, then drop the connection mid-body.
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    sendRaw(res, record, 200, text);
  }

  function answer(endpoint: EndpointName, q: URLSearchParams, no: number): { data: unknown[]; total?: number } {
    switch (endpoint) {
      case 'allPositions':
      case 'positionsByUnderlying':
      case 'liquidityAnalysis': {
        const wallet = walletParam(q.get('wallet'));
        const chain = chainParam('chains', q.get('chains'));
        const day = dateParam(q.get('date'), now());
        let positions = positionsOn(history, wallet, chain, day);
        // A live service's snapshot of today moves while the client reads its views (live.ts, mode `today`).
        if (live && day === Math.floor(now() / DAY_MS)) positions = live.positionsToday(wallet, chain, positions);
        // The junk the wallet has been sent by then, after its own positions (spam.ts).
        if (spam) positions = [...positions, ...spam.positionsOn(wallet, chain, day)];
        const snapshot = { wallet_id: wallet, date: renderDatetime(snapshotInstant(day * DAY_MS, conv.datetime), 'iso-utc') };
        if (endpoint === 'allPositions') return { data: [{ ...snapshot, positions: allPositionsView(chain.id, positions) }] };
        if (endpoint === 'positionsByUnderlying') return { data: [{ ...snapshot, positions: byUnderlyingView(chain.id, positions) }] };
        const assetType = q.get('asset_type');
        if (assetType !== null) {
          const unknown = assetType
            .split(',')
            .map((s) => s.trim())
            .filter((s) => !(ASSET_TYPES as readonly string[]).includes(s));
          if (unknown.length) throw new ParamError('asset_type', `unsupported asset type ${unknown.join(', ')}; supported: ${ASSET_TYPES.join(', ')}`);
          positions = filterByAssetType(positions, assetType);
        }
        return { data: [{ ...snapshot, positions: liquidityView(chain.id, positions) }] };
      }
      case 'transactionsByWallet': {
        const wallet = walletParam(q.get('wallet'));
        const chain = chainParam('chains', q.get('chains'));
        const h = historyOf(history, wallet, chain);
        const nowUnit = conv.timeUnit === 'ms' ? now() : Math.floor(now() / 1000);
        const start = intParam(q, 'start_time', 0, 0);
        const end = intParam(q, 'end_time', nowUnit, 0);
        const page = intParam(q, 'page', conv.pageBase, conv.pageBase);
        const pageSize = Math.min(intParam(q, 'pageSize', DEFAULT_PAGE_SIZE, 1, conv.pageSizeMax), conv.pageSizeCap ?? MAX_PAGE_SIZE);
        const [startS, endS] = secondsSelected(conv, start, end);
        // With the `incomplete` fault, the indexer has not reached the last days yet.
        const incomplete = faults.active('incomplete', 'transactionsByWallet');
        const indexHead = incomplete ? history.historyEnd - (incomplete.recentDays ?? 7) * 86_400 : Number.POSITIVE_INFINITY;
        const visibleEnd = Math.min(endS, indexHead);
        const rows = [];
        if (live) {
          // The live indexer's rows, newest first (live.ts), in the reading's order.
          const list = live.answer(wallet, chain, startS, visibleEnd, no, { offsetOf: (count) => pageOffset(conv, page, pageSize, count), pageSize });
          const count = list.length;
          const at =
            conv.order === 'oldest-first' ? (k: number) => count - 1 - k : conv.order === 'newest-first' ? (k: number) => k : orderIndexes(conv, 0, count);
          const offset = pageOffset(conv, page, pageSize, count);
          for (let k = offset; k < Math.min(count, offset + pageSize); k++) rows.push({ ...list[at(k)]! }); // a copy: the datetime reading rewrites rows in place
        } else {
          // The rows by position in time order: the history, or with spam on the history and its spam woven together.
          const source = spam ? spam.source(h) : historySource(h);
          const [from, to] = source.range(startS, visibleEnd);
          const count = Math.max(0, to - from);
          const at = orderIndexes(conv, from, to);
          const offset = pageOffset(conv, page, pageSize, count);
          for (let k = offset; k < Math.min(count, offset + pageSize); k++) rows.push(source.at(at(k)));
        }
        const indexed = endS > indexHead ? Math.max(0, Math.min(1, (indexHead - startS) / Math.max(1, endS - startS))) : 1;
        // A live indexer with a hole in the middle of the history says so for any range over it (live.ts, mode `gap`).
        const ratio = live ? Math.min(indexed, live.ratio(wallet, chain, startS, visibleEnd)) : indexed;
        return {
          data: [
            {
              transaction_history: rows,
              start_block: blockAt(chain, Math.max(startS, h.genesis)),
              end_block: blockAt(chain, Math.min(visibleEnd, Math.floor(now() / 1000))),
              completion_ratio: Math.round(ratio * 10_000) / 10_000,
            },
          ],
        };
      }
      case 'logsByTxnHash': {
        const hash = q.get('txn_hash');
        if (!hash || !/^0x[0-9a-fA-F]{64}$/.test(hash)) throw new ParamError('txn_hash', 'expected a 0x-prefixed 64-hex transaction hash');
        const chain = chainParam('chain_id', q.get('chain_id'));
        const page = intParam(q, 'page', conv.pageBase, conv.pageBase);
        const pageSize = Math.min(intParam(q, 'pageSize', DEFAULT_PAGE_SIZE, 1, conv.pageSizeMax), conv.logsPageCap ?? MAX_PAGE_SIZE);
        const found = decodeTxnHash(seed, hash);
        if (spam) {
          // Genuine or spam, as the world with spam has it (the payment to a lookalike names it).
          const got = found && found.chain.id === chain.id ? spam.logsAt(found.wallet, chain, found.index) : null;
          if (!got) return { data: [], total: 0 };
          const count = got.logs.length;
          const offset = pageOffset(conv, page, pageSize, count);
          let logs = got.logs.slice(offset, offset + pageSize);
          if (conv.logIndex === 'per-page') logs = logs.map((l) => ({ ...l, log_index: l.log_index - offset }));
          const total = conv.logsTotal === 'pages' ? Math.ceil(count / pageSize) : count;
          return { data: [{ ...got.item, logs }], total };
        }
        if (!found || found.chain.id !== chain.id || found.index >= history.txnsPerWallet) return { data: [], total: 0 };
        const h = historyOf(history, found.wallet, chain);
        const count = logsOf(h, found.index, 0, 0).total;
        const offset = pageOffset(conv, page, pageSize, count);
        const { item } = logsOf(h, found.index, offset, pageSize);
        if (conv.logIndex === 'per-page') item.logs = item.logs.map((l) => ({ ...l, log_index: l.log_index - offset }));
        const total = conv.logsTotal === 'pages' ? Math.ceil(count / pageSize) : count;
        return { data: [item], total };
      }
    }
  }

  /** `GET /_sim/spam-truth?wallet=&chains=&from=&to=`: the spam of a wallet and chain (dates YYYY-MM-DD, both optional and included). */
  function simRoute(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== 'GET') return sendJson(res, 405, { status: 'ERROR', code: 405, message: 'Only GET is supported' }, { Allow: 'GET' });
    if (url.pathname !== '/_sim/spam-truth') return sendJson(res, 404, { status: 'ERROR', code: 404, message: `No simulator route at ${url.pathname}` });
    try {
      const wallet = walletParam(url.searchParams.get('wallet'));
      const chain = chainParam('chains', url.searchParams.get('chains'));
      const range = { from: url.searchParams.get('from'), to: url.searchParams.get('to') };
      for (const [name, v] of Object.entries(range))
        if (v !== null && isoDateToUtcMs(v) === null) throw new ParamError(name, 'expected an ISO 8601 date YYYY-MM-DD');
      sendJson(res, 200, spam ? spam.truth(wallet, chain, range) : noSpamTruth(wallet, chain.id, range));
    } catch (err) {
      if (!(err instanceof ParamError)) throw err;
      sendJson(res, 400, { status: 'ERROR', code: 400, message: err.message, parameter: err.parameter });
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    requests,
    setFaults: (rules) => faults.set(rules),
    addFault: (rule) => faults.add(rule),
    setLatency: (ms) => {
      latencyMs = ms;
    },
    setConventions: (c) => {
      conv = { ...DEFAULT_CONVENTIONS, ...c };
    },
    setQuota: (q) => {
      quota = q;
      served.length = 0;
    },
    get conventions() {
      return conv;
    },
    live,
    spam,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A transactions request's time range in seconds (for faults aimed at narrow re-reads), when it states one. */
function spanSeconds(endpoint: EndpointName | null, q: URLSearchParams, conv: Conventions): number | undefined {
  if (endpoint !== 'transactionsByWallet') return undefined;
  const start = Number(q.get('start_time'));
  const end = Number(q.get('end_time'));
  if (!q.get('start_time') || !q.get('end_time') || !Number.isFinite(start) || !Number.isFinite(end)) return undefined;
  return (end - start) / (conv.timeUnit === 'ms' ? 1000 : 1);
}

function walletParam(v: string | null): string {
  if (!v) throw new ParamError('wallet', 'required');
  if (!/^0x[0-9a-fA-F]{40}$/.test(v)) throw new ParamError('wallet', 'expected a 0x-prefixed 40-hex address');
  return v.toLowerCase();
}

function chainParam(name: string, v: string | null) {
  if (!v) throw new ParamError(name, 'required');
  const chain = chainById(v);
  if (!chain) throw new ParamError(name, `unknown chain '${v}'; supported: ${CHAIN_IDS.join(', ')}`);
  return chain;
}

/** A snapshot date (YYYY-MM-DD) as a day number; today when omitted. */
function dateParam(v: string | null, nowMs: number): number {
  const today = Math.floor(nowMs / DAY_MS);
  if (v === null) return today;
  const ms = isoDateToUtcMs(v);
  if (ms === null) throw new ParamError('date', 'expected an ISO 8601 date YYYY-MM-DD');
  if (ms < FIRST_DATE || ms / DAY_MS > today) {
    throw new ParamError('date', `out of range: from ${isoDay(FIRST_DATE / DAY_MS)} to ${isoDay(today)}`);
  }
  return ms / DAY_MS;
}

function intParam(q: URLSearchParams, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = q.get(name);
  if (v === null || v === '') return fallback;
  if (!/^\d+$/.test(v)) throw new ParamError(name, 'expected an integer');
  const n = Number(v);
  if (n < min || n > max) throw new ParamError(name, `out of range: ${min} to ${max}`);
  return n;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

function sendRaw(res: ServerResponse, record: RequestRecord, status: number, text: string): void {
  record.status = status;
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(text);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
