/**
 * The web shell: the built renderer and the contract over HTTP on 127.0.0.1, for machines
 * without a display or Electron. Everything lives under a random path, `/s/<random>/`
 * (security.ts says why): there POST api/<operation> runs one operation (the same dispatch
 * as IPC) and GET api/events streams the contract's events (server-sent events).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { EVENT_NAMES } from '../../shared/operations.ts';
import type { Core } from '../core/index.ts';
import { CONTENT_SECURITY_POLICY, contentType } from '../shell-policy/renderer-policy.ts';
import { sendDownload, webDownloads } from './downloads.ts';
import { allowedHosts, allowedOrigins, appPathOf, cookiePath, cookieValues, safeDecode, sameToken, tokenCookieName } from './security.ts';

export interface WebShell {
  /** The URL to print and open: the app's address with the token, traded for a cookie on the first load. */
  url: string;
  /** The app's address without the token (`http://127.0.0.1:<port>/s/<random>/`): API paths are relative to it. */
  appUrl: string;
  origin: string;
  token: string;
  port: number;
  /** Event streams open now (a client dropped for falling behind is no longer counted). */
  eventStreams(): number;
  close(): Promise<void>;
}

export const MAX_BODY = 1024 * 1024;
/** Bytes an event stream may hold unsent; a client that falls further behind is dropped. */
const MAX_EVENT_BACKLOG = 1024 * 1024;

export async function startWebShell(o: { core: Core; rendererDir: string; port?: number; token?: string; maxEventBacklog?: number }): Promise<WebShell> {
  const maxBacklog = o.maxEventBacklog ?? MAX_EVENT_BACKLOG;
  const token = o.token ?? randomBytes(24).toString('base64url');
  const root = resolve(o.rendererDir);
  if (!existsSync(join(root, 'index.html'))) {
    throw new Error(`The renderer is not built (${join(root, 'index.html')} is missing): run npm run build first.`);
  }
  // The app lives under a random path of its own: the token cookie is scoped to it, so a
  // browser never sends it to another server on this host (cookies ignore ports, not paths).
  const base = `/s/${randomBytes(16).toString('base64url')}/`;
  const streams = new Set<ServerResponse>();
  let port = 0;
  // Before the event streams subscribe: a download is known by the time its job's end is sent.
  const downloads = await webDownloads(o.core);

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'text/plain', 'Internal error');
      else res.destroy();
    });
  });

  function securityHeaders(res: ServerResponse): void {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    // Nothing is kept by the browser or a cache unless said otherwise: API answers, events,
    // the token exchange and refusals hold user data or the token. Only the renderer's
    // static files (hashed names) say they may be kept (serveFile).
    res.setHeader('Cache-Control', 'no-store');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    securityHeaders(res);
    // DNS rebinding: a page on another name that resolves here sends its own Host.
    if (!allowedHosts(port).has(req.headers.host ?? '')) return send(res, 421, 'text/plain', 'Host not allowed');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins(port).has(origin)) return send(res, 403, 'text/plain', 'Origin not allowed');
    const target = req.url ?? '/';
    // Origin-form only: an absolute or authority-form target names another server.
    if (!target.startsWith('/')) return send(res, 400, 'text/plain', 'Bad request target');
    // Parsed after this origin, so `//host/…` stays a path here and never becomes a host.
    const url = new URL(`http://127.0.0.1:${port}${target}`);
    const rest = appPathOf(url.pathname, base);
    const given = url.searchParams.get('token') ?? headerValue(req, 'x-folio-token');
    // The cookie counts only where the app lives: one sent elsewhere (an older version's,
    // at Path=/) is no way in.
    const allowed =
      given !== null ? sameToken(given, token) : rest !== null && cookieValues(req.headers.cookie, tokenCookieName(port)).some((v) => sameToken(v, token));
    if (!allowed) return send(res, 401, 'text/plain', 'Missing or wrong token: open the URL the server printed.');

    if (url.searchParams.has('token') && req.method === 'GET' && !rest?.startsWith('/api/')) {
      // Trade the token in the URL for a strict cookie scoped to the app's secret path (a
      // browser sends a cookie to every port of the host, but only under its Path), forget
      // any cookie an older version set at Path=/, and go to the app without the token.
      // Always to the app's own path: nothing of the request's path goes into the Location.
      res.setHeader('Set-Cookie', [
        `${tokenCookieName(port)}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=${cookiePath(base)}`,
        `${tokenCookieName(port)}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`,
      ]);
      res.setHeader('Location', base);
      return send(res, 303, 'text/plain', 'See Other');
    }
    if (rest === null) return send(res, 404, 'text/plain', 'Not found: the app is at the URL the server printed.');
    if (rest === '') {
      // `/s/<random>` without its slash: the page's relative addresses need the slash.
      res.setHeader('Location', base);
      return send(res, 303, 'text/plain', 'See Other');
    }

    const path = safeDecode(rest);
    if (path === null) return send(res, 400, 'text/plain', 'Malformed path: a % escape is not valid.');
    if (rest === '/api/events' && req.method === 'GET') return openStream(res);
    // The renderer asks who is signed in (a team server answers; src/main/team): here nobody, the token's one user.
    if (rest === '/api/session' && req.method === 'GET') {
      res.writeHead(204);
      return void res.end();
    }
    if (rest.startsWith('/api/download/') && req.method === 'GET') return download(path.slice('/api/download/'.length), res);
    if (rest.startsWith('/api/')) {
      if (req.method !== 'POST') return send(res, 405, 'text/plain', 'POST only');
      // A browser's cross-site POST carries an Origin; ours must carry this one.
      if (origin === undefined && !headerValue(req, 'x-folio-token')) return send(res, 403, 'text/plain', 'Origin required');
      const body = await readBody(req);
      if (body === null) return tooLarge(req, res);
      let input: unknown;
      try {
        input = body.length ? JSON.parse(body) : undefined;
      } catch {
        return send(
          res,
          400,
          'application/json',
          JSON.stringify({ ok: false, error: { kind: 'validation', message: 'The request body is not JSON.', retryable: false } }),
        );
      }
      // A page that stops wanting the answer aborts its request, and the connection closes:
      // the core's work stops where it checks (the contract's cancellation, core/app.ts).
      const controller = new AbortController();
      const gone = () => {
        if (!res.writableEnded) controller.abort();
      };
      res.on('close', gone);
      const result = await o.core.dispatch(path.slice('/api/'.length), input, { signal: controller.signal });
      res.off('close', gone);
      if (controller.signal.aborted) return; // nobody is there to answer
      // An edit made on a version someone has changed since is HTTP's conflict (store/versions.ts),
      // so a script over the API sees it without reading the body; the body says who and when.
      const status = !result.ok && result.error.kind === 'conflict' ? 409 : 200;
      return send(res, status, 'application/json', JSON.stringify(result));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only');
    return serveRendererFile(root, path, res);
  }

  /**
   * 413 sent whole before the connection closes: the rest of the body is read and dropped
   * (up to a bound) rather than reset, so the client sees the answer and not an error.
   */
  function tooLarge(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader('Connection', 'close');
    send(res, 413, 'text/plain', `Request too large (at most ${MAX_BODY} bytes).`);
    let drained = 0;
    req.on('data', (c: Buffer) => {
      drained += c.length;
      if (drained > 16 * MAX_BODY) req.destroy();
    });
    req.resume();
  }

  /** A finished export, once: streamed as an attachment, then deleted. */
  function download(id: string, res: ServerResponse): void {
    if (!sendDownload(downloads.take(id), res)) send(res, 404, 'text/plain', 'This export is no longer available: export again.');
  }

  function openStream(res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    res.write(': connected\n\n');
    streams.add(res);
    res.on('close', () => streams.delete(res));
  }

  /**
   * Writes to every stream; one whose unsent backlog passes the bound (a client that does
   * not read) is dropped, so a slow client costs bounded memory. EventSource reconnects,
   * and the renderer reloads what changed.
   */
  function broadcast(frame: string): void {
    for (const s of streams) {
      if (s.writableLength + frame.length > maxBacklog) {
        streams.delete(s);
        s.destroy();
      } else s.write(frame);
    }
  }

  const unsubscribers = EVENT_NAMES.map((name) => o.core.on(name, (payload) => broadcast(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`)));
  const heartbeat = setInterval(() => broadcast(': keep-alive\n\n'), 15_000);
  heartbeat.unref();

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolvePromise());
  });
  port = (server.address() as AddressInfo).port;
  const originUrl = `http://127.0.0.1:${port}`;
  return {
    url: `${originUrl}${base}?token=${token}`,
    appUrl: `${originUrl}${base}`,
    origin: originUrl,
    token,
    port,
    eventStreams: () => streams.size,
    close: () =>
      new Promise<void>((done) => {
        clearInterval(heartbeat);
        unsubscribers.forEach((u) => u());
        downloads.close();
        for (const s of streams) s.end();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function headerValue(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return typeof v === 'string' ? v : null;
}

/** The body as text, or null when it is larger than MAX_BODY (declared or as sent). The team server reads its bodies so too. */
export function readBody(req: IncomingMessage): Promise<string | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY) return Promise.resolve(null);
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        // Stop keeping it; the caller answers 413 and drains the rest.
        req.off('data', onData);
        chunks.length = 0;
        resolvePromise(null);
      } else chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => resolvePromise(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * A file of the built renderer under `root` (a decoded path, never outside it), for both shells:
 * a single-page app, so an unknown path without an extension gets the index; the hashed assets
 * may be kept a while, the index never.
 */
export function serveRendererFile(root: string, decodedPath: string, res: ServerResponse): void {
  const rel = decodedPath === '/' ? 'index.html' : decodedPath.replace(/^\/+/, '');
  const file = normalize(join(root, rel));
  const target = file.startsWith(root + sep) && existsSync(file) && statSync(file).isFile() ? file : extname(rel) ? null : join(root, 'index.html');
  if (!target) return send(res, 404, 'text/plain', 'Not found');
  res.writeHead(200, {
    'Content-Type': contentType(target),
    'Cache-Control': target.endsWith('index.html') ? 'no-store' : 'private, max-age=3600',
  });
  createReadStream(target).pipe(res);
}

/** A whole answer of `type`, its length said. */
export function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
