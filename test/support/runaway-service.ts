import { listenFrom } from './listen.ts';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { successMessage } from '../../src/shared/service/endpoints.ts';

/**
 * A real HTTP server on loopback playing a hostile logs endpoint: every page of every
 * transaction is full (the `pageSize` asked, or `perPage`) and distinct from the last, and
 * `total` claims 1e12, for ever. What a page holds, how slow it is, and whether it answers at
 * all are the test's to set. Other endpoints answer 404.
 */
export interface RunawayService {
  url: string;
  /** Logs pages asked, in order (the page parameter). */
  pages: number[];
  /** Logs per page (default: the pageSize asked). */
  perPage: number | null;
  /** Characters of `data` per log (default 64 hex). */
  dataChars: number;
  /** Milliseconds before each page is answered. */
  delayMs: number;
  /** Pages from this one on (1-based) are never answered. */
  hangFrom: number;
  total: number;
  close(): Promise<void>;
}

export const RUNAWAY_TOTAL = 1e12;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0').slice(-width);

export async function startRunawayService(firstPort = 47200): Promise<RunawayService> {
  const service: RunawayService = {
    url: '',
    pages: [],
    perPage: null,
    dataChars: 64,
    delayMs: 0,
    hangFrom: Infinity,
    total: RUNAWAY_TOTAL,
    close: async () => undefined,
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/v3/transactions/logs_by_txn_hash') {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"status":"NOT_FOUND","message":"no such endpoint"}');
      return;
    }
    const page = Number(url.searchParams.get('page') ?? '1');
    const size = service.perPage ?? Number(url.searchParams.get('pageSize') ?? '100');
    const hash = url.searchParams.get('txn_hash') ?? '';
    service.pages.push(page);
    if (page >= service.hangFrom) return; // accepted, never answered
    const fill = '0'.repeat(Math.max(0, service.dataChars - 16));
    const logs = [];
    for (let i = 0; i < size; i++) {
      const n = (page - 1) * size + i;
      logs.push({ topics: [`0x${hex(n, 64)}`], data: `0x${fill}${hex(n, 16)}`, log_index: n });
    }
    const body = JSON.stringify({
      status: 'OK',
      message: successMessage('logsByTxnHash', hex(page, 16)),
      total: service.total,
      data: [{ txn_hash: hash, block: 1, from: '0x0000000000000000000000000000000000000001', chain_id: 'eth', date: '2025-06-01T00:00:00Z', logs }],
    });
    const send = () => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (service.delayMs > 0) setTimeout(send, service.delayMs);
    else send();
  });
  service.url = `http://127.0.0.1:${await listenFrom(server, firstPort, 47299)}`;
  service.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return service;
}
