import { listenFrom } from './listen.ts';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * A real HTTP server on loopback playing a service that writes back the access key it was
 * sent, in whatever spelling a test asks for. Each request is answered by `answer`, given the
 * key as the server decoded it, the key exactly as it was sent (the raw query value), and a
 * way to fetch the same request's answer from another service (the reference one), for a test
 * to alter a real body.
 */
export interface EchoRequest {
  path: string;
  /** The access_key parameter as the server decodes it. */
  key: string;
  /** The access_key parameter exactly as it arrived in the query string. */
  sent: string;
  /** The same request, answered by the upstream service (with the upstream's own key). */
  upstream: () => Promise<{ status: number; body: string }>;
}
export interface EchoAnswer {
  status: number;
  body: string;
}
export interface EchoService {
  url: string;
  /** Every request's path and query, as received. */
  seen: string[];
  answer: (req: EchoRequest) => EchoAnswer | Promise<EchoAnswer>;
  close(): Promise<void>;
}

/** Listens on the first free port from `port` up to 47199 (the range these tests use). */
export async function startEchoService(port: number, upstream?: { url: string; key: string }): Promise<EchoService> {
  const seen: string[] = [];
  const service = { seen, answer: () => ({ status: 500, body: '{}' }) } as unknown as EchoService;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? '/';
    seen.push(raw);
    const url = new URL(raw, 'http://x');
    const req2: EchoRequest = {
      path: url.pathname,
      key: url.searchParams.get('access_key') ?? '',
      sent: /[?&]access_key=([^&]*)/.exec(raw)?.[1] ?? '',
      upstream: async () => {
        if (!upstream) throw new Error('no upstream service');
        const there = new URL(url.pathname + url.search, upstream.url);
        there.searchParams.set('access_key', upstream.key);
        const r = await fetch(there);
        return { status: r.status, body: await r.text() };
      },
    };
    Promise.resolve()
      .then(() => service.answer(req2))
      .then(
        (a) => {
          res.writeHead(a.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(a.body) });
          res.end(a.body);
        },
        (err: unknown) => {
          res.writeHead(599);
          res.end(String(err));
        },
      );
  });
  service.url = `http://127.0.0.1:${await listenFrom(server, port, 47199)}`;
  service.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return service;
}

/** Text as it stands inside a JSON string literal. */
export const inJson = (text: string): string => JSON.stringify(text).slice(1, -1);

const pct = (bytes: Uint8Array, lower: boolean): string =>
  [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`[lower ? 'toLowerCase' : 'toUpperCase']()).join('');
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const lowerEscapes = (s: string): string => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const uEscape = (c: string, upper: boolean): string =>
  [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`).join('');
const htmlEntity = (c: string): string => (/[A-Za-z0-9]/.test(c) ? c : c === '&' ? '&amp;' : `&#x${c.codePointAt(0)!.toString(16).toUpperCase()};`);

/**
 * Every spelling of the key a server can write back, as raw text inside a JSON string (an
 * escape spelling stays an escape in the body; any other is JSON-escaped as a server would).
 * `sent` is the key as the client sent it in the query string.
 */
export function spellings(key: string, sent: string): Array<[name: string, raw: string]> {
  const chars = [...key];
  return [
    ['plain', inJson(key)],
    ['as sent (URLSearchParams)', inJson(sent)],
    ['as sent, lower-case escapes', inJson(lowerEscapes(sent))],
    ['encodeURIComponent', inJson(encodeURIComponent(key))],
    ['encodeURIComponent, lower-case escapes', inJson(lowerEscapes(encodeURIComponent(key)))],
    ['every byte percent-encoded, lower case', pct(utf8(key), true)],
    ['every other character percent-encoded', inJson(chars.map((c, i) => (i % 2 ? pct(utf8(c), false) : c)).join(''))],
    ['percent-encoded twice', inJson(encodeURIComponent(encodeURIComponent(key)))],
    ['as sent, percent-encoded again (lower case)', inJson(lowerEscapes(encodeURIComponent(sent)))],
    ['\\u escapes, upper-case hex', chars.map((c) => uEscape(c, true)).join('')],
    ['split across \\u escapes (every other character)', chars.map((c, i) => (i % 2 ? uEscape(c, false) : inJson(c))).join('')],
    ['with \\/ for /', inJson(key).replaceAll('/', '\\/')],
    ['quoted inside a JSON text', inJson(inJson(key))],
    ['HTML character references', inJson(chars.map(htmlEntity).join(''))],
    ['upper case', inJson(key.toUpperCase())],
  ];
}
