import { BadResponseError } from './errors.ts';
import type { LogsQuery, ServiceClient, ServiceResponse, TransactionsQuery } from './client.ts';
import type { Log, Transaction, TransactionHistory, TransactionLogs } from '../../../shared/service/schemas.ts';

/**
 * Pagination helpers. `transactionPages` is the simple reading (1-based pages, read until a
 * short page) used by tools and tests; the sync engine reads with learned conventions
 * (sync/reading.ts). Logs are read with what was learned of the logs endpoint.
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
 * in pages cannot cut it short.
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
  for (let n = 1; n <= (reading.maxPages ?? MAX_LOG_PAGES); n++) {
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
/** A transaction with more than this many pages of logs is not read whole (a runaway service). */
const MAX_LOG_PAGES = 10_000;

export interface LogsRead {
  header: LogPage['header'];
  logs: Log[];
  total: number;
  requestId: string | null;
  /** Non-empty pages read. */
  pages: number;
  /** Rows per non-empty page, in order (for learning the page cap). */
  pageSizes: number[];
  pageSize: number;
  /** Whether the read reached its proved end (false: stopped at `maxPages`). */
  ended: boolean;
}

/** All logs of one transaction, as read (see `judgeLogs` for whether they are complete). */
export async function allLogs(client: ServiceClient, query: Omit<LogsQuery, 'page'>, signal?: AbortSignal, reading: LogsReading = {}): Promise<LogsRead> {
  const logs: Log[] = [];
  let header: LogPage['header'] = null;
  let total = 0;
  let requestId: string | null = null;
  const pageSizes: number[] = [];
  let ended = false;
  for await (const page of logPages(client, query, signal, reading)) {
    ended = page.last;
    logs.push(...page.logs);
    if (page.logs.length) pageSizes.push(page.logs.length);
    header ??= page.header;
    requestId ??= page.response.requestId;
    total = page.total;
  }
  return { header, logs, total, requestId, pages: pageSizes.length, pageSizes, pageSize: query.pageSize ?? reading.logsPageCap ?? MAX_LOGS_PAGE_SIZE, ended };
}

export interface LogsVerdict {
  complete: boolean;
  note: string | null;
  /** What this read proved about the logs endpoint, if anything. */
  learned: { logsTotal?: 'logs' | 'pages'; logIndex?: 'global' | 'per-page'; logsPageCap?: number };
}

/** Whether a logs read is whole, from its count against `total`, and what it teaches. */
export function judgeLogs(read: LogsRead, known: LogsReading['logsTotal'] = 'unknown'): LogsVerdict {
  const learned: LogsVerdict['learned'] = {};
  const count = read.logs.length;
  const indexes = read.logs.map((l) => l.log_index);
  if (read.pages > 1) {
    const distinct = new Set(indexes).size === indexes.length;
    learned.logIndex = distinct ? 'global' : 'per-page';
  }
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
