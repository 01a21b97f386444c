import { BadResponseError } from './errors.ts';
import type { LogsQuery, ServiceClient, ServiceResponse, TransactionsQuery } from './client.ts';
import type { Log, Transaction, TransactionHistory, TransactionLogs } from '../../../shared/service/schemas.ts';

/**
 * Pagination helpers. `transactionPages` is the simple reading (1-based pages, read until a
 * short page) used by tools and tests; the sync engine reads with learned conventions
 * (service/reading.ts). Logs are read with what was learned of the logs endpoint.
 */

export interface TransactionPage {
  page: number;
  rows: Transaction[];
  response: ServiceResponse<TransactionHistory>;
  completionRatio: number | null;
  startBlock: number | null;
  endBlock: number | null;
  last: boolean;
}

export const DEFAULT_TXN_PAGE_SIZE = 100;

export async function* transactionPages(
  client: ServiceClient,
  query: Omit<TransactionsQuery, 'page'> & { firstPage?: number },
  signal?: AbortSignal,
): AsyncGenerator<TransactionPage> {
  const pageSize = query.pageSize ?? DEFAULT_TXN_PAGE_SIZE;
  let previousFirst: string | undefined;
  for (let page = query.firstPage ?? 1; ; page++) {
    const response = await client.transactionsByWallet({ ...query, page, pageSize }, signal);
    const rows = response.data.flatMap((d) => d.transaction_history);
    const head = response.data[0];
    const first = rows[0]?.txn_hash;
    if (first !== undefined && first === previousFirst) {
      throw new BadResponseError(response.url, 'data[0].transaction_history', `page ${page} repeats page ${page - 1}: the service ignored paging`);
    }
    previousFirst = first;
    const last = rows.length < pageSize;
    yield {
      page,
      rows,
      response,
      completionRatio: head?.completion_ratio ?? null,
      startBlock: head?.start_block ?? null,
      endBlock: head?.end_block ?? null,
      last,
    };
    if (last) return;
  }
}

export interface LogPage {
  page: number;
  header: Omit<TransactionLogs, 'logs'> | null;
  logs: Log[];
  total: number;
  response: ServiceResponse<TransactionLogs>;
  last: boolean;
}

/** How the logs endpoint is read: what the client has learned of it (all optional). */
export interface LogsReading {
  pageBase?: 0 | 1;
  logsTotal?: 'logs' | 'pages' | 'unknown';
  logsPageCap?: number | null;
  /** Stop after this many pages (a probe); the read then reports `ended: false` if not finished. */
  maxPages?: number;
}

const sameLogs = (a: readonly Log[], b: readonly Log[]) =>
  a.length === b.length &&
  a.every((l, i) => l.log_index === b[i]!.log_index && l.data === b[i]!.data && JSON.stringify(l.topics) === JSON.stringify(b[i]!.topics));

/**
 * Logs pages until the read is proved finished: an empty page or a page repeating the
 * previous one always ends it; `total` ends it only when its meaning is learned (a count of
 * logs, or of pages). Until then the read goes on to the empty page, so a `total` counted
 * in pages cannot cut it short. At most `reading.maxPages` pages (default LOGS_BOUNDS.maxPages).
 */
export async function* logPages(
  client: ServiceClient,
  query: Omit<LogsQuery, 'page'>,
  signal?: AbortSignal,
  reading: LogsReading = {},
): AsyncGenerator<LogPage> {
  const pageSize = query.pageSize ?? reading.logsPageCap ?? MAX_LOGS_PAGE_SIZE;
  const base = reading.pageBase ?? 1;
  let seen = 0;
  let previous: Log[] | null = null;
  for (let n = 1; n <= (reading.maxPages ?? LOGS_BOUNDS.maxPages); n++) {
    const response = await client.logsByTxnHash({ ...query, page: base + n - 1, pageSize }, signal);
    const logs = response.data.flatMap((d) => d.logs);
    const first = response.data[0];
    const header = first ? (({ logs: _logs, ...rest }) => rest)(first) : null;
    const total = response.total ?? logs.length;
    if (previous && sameLogs(logs, previous)) {
      yield { page: n, header, logs: [], total, response, last: true };
      return;
    }
    previous = logs;
    seen += logs.length;
    const last = logs.length === 0 || (reading.logsTotal === 'logs' && seen >= total) || (reading.logsTotal === 'pages' && n >= total);
    yield { page: n, header, logs, total, response, last };
    if (last) return;
  }
}

export const MAX_LOGS_PAGE_SIZE = 1000;

/**
 * What one transaction's logs read may take, whatever the service sends (a hostile or broken
 * service can answer `total: 1e12` with full, distinct pages for ever). Generous for real
 * transactions: a transaction rarely has more than a few thousand logs, and even a whole
 * 36M-gas Ethereum block of ERC-20 `Transfer` events (about 1,750 gas each) holds about 20,000,
 * with about 4.5 MB of log data at most (8 gas a byte). A read that reaches a bound stops there,
 * keeps what it read, and is marked incomplete saying which bound stopped it (never complete).
 */
export interface LogsBounds {
  /** Logs kept (stored, returned) for one transaction. */
  maxLogs: number;
  /** Characters of log text (topics and data; hex, so bytes) kept for one transaction. */
  maxBytes: number;
  /** Pages asked for one transaction (a service that pages logs one at a time). */
  maxPages: number;
  /** Wall time of one transaction's logs read, retries and waits for the service's pace included. */
  maxMs: number;
}

export const LOGS_BOUNDS: Readonly<LogsBounds> = {
  maxLogs: 50_000,
  maxBytes: 32 * 1024 * 1024,
  maxPages: 10_000,
  maxMs: 120_000,
};

export interface LogsRead {
  header: LogPage['header'];
  total: number;
  requestId: string | null;
  /** Logs kept (handed to `onPage`, in read order). */
  count: number;
  /** Characters of log text kept (topics and data). */
  bytes: number;
  /** Non-empty pages read. */
  pages: number;
  /** Rows per non-empty page, in order (for learning the page cap). */
  pageSizes: number[];
  pageSize: number;
  /** Whether a log_index value came back twice among the logs kept. */
  logIndexRepeats: boolean;
  /** Whether the read reached its proved end (false: stopped by a bound or `maxPages`). */
  ended: boolean;
  /** Why a bound stopped the read before its proved end, for the user; null when it ended. */
  stopped: string | null;
}

export interface ReadLogsOptions {
  signal?: AbortSignal;
  reading?: LogsReading;
  /** Bounds of this read (default LOGS_BOUNDS); `reading.maxPages`, if lower, wins. */
  bounds?: Partial<LogsBounds>;
  /** When the time bound runs out (epoch ms); default: now + bounds.maxMs. */
  deadline?: number;
  /** Takes each page's logs as they come (`from`: the first one's position in the read). */
  onPage?: (logs: Log[], from: number) => void | Promise<void>;
}

const logText = (l: Log): number => (l.data?.length ?? 0) + l.topics.reduce((n, t) => n + t.length, 0);

/**
 * One transaction's logs, read page by page and handed to `onPage` as they come (nothing is
 * held here but the page in hand), within the bounds: a read that would pass one keeps what
 * fits and stops, saying why in `stopped`. Cancelling `signal` throws (CancelledError); the
 * time bound is not a failure: the read stops with what it has. See `judgeLogs` for whether a
 * read that ended is complete.
 */
export async function readLogs(client: ServiceClient, query: Omit<LogsQuery, 'page'>, o: ReadLogsOptions = {}): Promise<LogsRead> {
  const bounds = { ...LOGS_BOUNDS, ...o.bounds };
  const reading = o.reading ?? {};
  const maxPages = Math.min(reading.maxPages ?? Infinity, bounds.maxPages);
  const deadline = o.deadline ?? Date.now() + bounds.maxMs;
  const read: LogsRead = {
    header: null,
    total: 0,
    requestId: null,
    count: 0,
    bytes: 0,
    pages: 0,
    pageSizes: [],
    pageSize: query.pageSize ?? reading.logsPageCap ?? MAX_LOGS_PAGE_SIZE,
    logIndexRepeats: false,
    ended: false,
    stopped: null,
  };
  const indexes = new Set<number | null>();
  let asked = 0;
  // The time bound aborts a request in flight too (a service slow to answer, or retried).
  const timeUp = new AbortController();
  const timer = setTimeout(() => timeUp.abort(), Math.max(0, deadline - Date.now()));
  const signal = o.signal ? AbortSignal.any([o.signal, timeUp.signal]) : timeUp.signal;
  const stop = (after: string) =>
    `the logs read stopped after ${after}: the service kept sending pages (total says ${read.total}); the logs shown may be incomplete`;
  try {
    for await (const page of logPages(client, query, signal, { ...reading, maxPages })) {
      asked = page.page;
      read.header ??= page.header;
      read.requestId ??= page.response.requestId;
      read.total = page.total;
      // What of this page fits the bounds (in read order); the rest is not kept.
      let keep = page.logs.length;
      let cut: string | null = null;
      if (read.count + keep > bounds.maxLogs) {
        keep = Math.max(0, bounds.maxLogs - read.count);
        cut = `${bounds.maxLogs} logs (the most kept for one transaction)`;
      }
      let bytes = 0;
      for (let i = 0; i < keep; i++) {
        const b = logText(page.logs[i]!);
        if (read.bytes + bytes + b > bounds.maxBytes) {
          keep = i;
          cut = `${read.count + i} logs holding ${read.bytes + bytes} bytes of log data (at most ${bounds.maxBytes} are kept for one transaction)`;
          break;
        }
        bytes += b;
      }
      const kept = keep === page.logs.length ? page.logs : page.logs.slice(0, keep);
      if (kept.length) await o.onPage?.(kept, read.count);
      for (const l of kept) {
        if (indexes.has(l.log_index)) read.logIndexRepeats = true;
        else indexes.add(l.log_index);
      }
      read.count += kept.length;
      read.bytes += bytes;
      if (page.logs.length) {
        read.pages++;
        read.pageSizes.push(page.logs.length);
      }
      if (cut) {
        read.stopped = stop(cut);
        return read;
      }
      if (page.last) {
        read.ended = true;
        return read;
      }
      if (Date.now() >= deadline) break;
    }
  } catch (err) {
    // Cancelled, or failed: thrown as it came. Only the time bound ends the read here.
    if (!timeUp.signal.aborted || o.signal?.aborted) throw err;
  } finally {
    clearTimeout(timer);
  }
  read.stopped = stop(
    Date.now() >= deadline || timeUp.signal.aborted
      ? `${+(bounds.maxMs / 1000).toFixed(1)} s (the longest one transaction's logs are read for), with ${read.count} logs in ${read.pages} page(s)`
      : `${asked} pages (the most read for one transaction), with ${read.count} logs`,
  );
  return read;
}

/** All logs of one transaction, held in memory (the service check's probe, tools): within the same bounds. */
export async function allLogs(
  client: ServiceClient,
  query: Omit<LogsQuery, 'page'>,
  signal?: AbortSignal,
  reading: LogsReading = {},
  bounds?: Partial<LogsBounds>,
): Promise<LogsRead & { logs: Log[] }> {
  const logs: Log[] = [];
  const read = await readLogs(client, query, {
    ...(signal && { signal }),
    reading,
    ...(bounds && { bounds }),
    onPage: (page) => {
      logs.push(...page);
    },
  });
  return { ...read, logs };
}

export interface LogsVerdict {
  complete: boolean;
  note: string | null;
  /** What this read proved about the logs endpoint, if anything. */
  learned: { logsTotal?: 'logs' | 'pages'; logIndex?: 'global' | 'per-page'; logsPageCap?: number };
}

/** What `judgeLogs` reads of a read: how many logs, in how many pages, against which `total`. */
export type LogsCount = Pick<LogsRead, 'count' | 'total' | 'pages' | 'pageSizes' | 'pageSize' | 'logIndexRepeats'> & Partial<Pick<LogsRead, 'stopped'>>;

/**
 * Whether a logs read is whole, from its count against `total`, and what it teaches. A read a
 * bound stopped is never whole and teaches nothing (its count may equal `total` by chance, and
 * the service that made it run away is not one to learn from).
 */
export function judgeLogs(read: LogsCount, known: LogsReading['logsTotal'] = 'unknown'): LogsVerdict {
  if (read.stopped) return { complete: false, note: read.stopped, learned: {} };
  const learned: LogsVerdict['learned'] = {};
  const count = read.count;
  if (read.pages > 1) learned.logIndex = read.logIndexRepeats ? 'per-page' : 'global';
  // A page shorter than asked followed by another page: that short size is the cap.
  const firstShort = read.pageSizes.findIndex((n) => n < read.pageSize);
  if (firstShort >= 0 && firstShort < read.pageSizes.length - 1) learned.logsPageCap = read.pageSizes[firstShort]!;
  const asLogs = count === read.total;
  const asPages = read.pages === read.total;
  if (asLogs && asPages) return { complete: true, note: null, learned };
  if (asLogs && known !== 'pages') return { complete: true, note: null, learned: { ...learned, logsTotal: 'logs' } };
  if (asPages && known !== 'logs') return { complete: true, note: null, learned: { ...learned, logsTotal: 'pages' } };
  return {
    complete: false,
    note: `read ${count} logs in ${read.pages} page(s), but the service's total is ${read.total}${known === 'unknown' ? '' : ` (learned to count ${known})`}: some logs may be missing`,
    learned,
  };
}
