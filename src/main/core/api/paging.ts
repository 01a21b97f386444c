import { BadResponseError } from './errors.ts';
import type { LogsQuery, ServiceClient, ServiceResponse, TransactionsQuery } from './client.ts';
import type { Log, Transaction, TransactionHistory, TransactionLogs } from '../../../shared/service/schemas.ts';

/**
 * Pagination as DESIGN.md resolves it: pages are 1-based; transactions are read until a
 * page returns fewer than pageSize rows, logs until `total` is reached. A service that
 * ignores `page` (the same page twice) is a bad response, not an endless loop.
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

export async function* logPages(client: ServiceClient, query: Omit<LogsQuery, 'page'>, signal?: AbortSignal): AsyncGenerator<LogPage> {
  const pageSize = query.pageSize ?? DEFAULT_TXN_PAGE_SIZE;
  let seen = 0;
  for (let page = 1; ; page++) {
    const response = await client.logsByTxnHash({ ...query, page, pageSize }, signal);
    const logs = response.data.flatMap((d) => d.logs);
    const first = response.data[0];
    const header = first ? (({ logs: _logs, ...rest }) => rest)(first) : null;
    const total = response.total ?? logs.length;
    seen += logs.length;
    // An empty page ends the read even before `total`, so a wrong total cannot loop forever.
    const last = seen >= total || logs.length === 0;
    yield { page, header, logs, total, response, last };
    if (last) return;
  }
}

/** All logs of one transaction. */
export async function allLogs(client: ServiceClient, query: Omit<LogsQuery, 'page'>, signal?: AbortSignal) {
  const logs: Log[] = [];
  let header: LogPage['header'] = null;
  let total = 0;
  let requestId: string | null = null;
  for await (const page of logPages(client, query, signal)) {
    logs.push(...page.logs);
    header ??= page.header;
    requestId ??= page.response.requestId;
    total = page.total;
  }
  return { header, logs, total, requestId };
}
