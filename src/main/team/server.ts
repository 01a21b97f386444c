/**
 * The team server (docs/team.md): the same core and the same built renderer as the loopback web
 * shell, for many people. A person signs in with a name and password (the sign-in page, no
 * script); the session is an HttpOnly SameSite=Strict cookie (Secure over HTTPS); every POST from
 * a page carries the session's CSRF token in a header and this server's Origin. A script uses a
 * personal API token (`Authorization: Bearer fst_…`) instead. Every operation is dispatched with
 * the person and their role (`actor`): the core's one gate refuses what the role does not allow
 * (403) and the audit trail names them.
 *
 * With the team's OpenID Connect provider (oidc.ts), a person may sign in there instead: GET
 * /sign-in/oidc starts an attempt (PKCE, state, nonce; its id in a SameSite=Lax cookie) and sends
 * the browser to the provider, whose answer comes back to GET /sign-in/oidc/callback; the
 * person linked to the account it vouches for gets the same session a password gives.
 *
 * Routes: GET /sign-in, POST /sign-in, GET /sign-in.css, GET /sign-in/oidc, GET
 * /sign-in/oidc/callback; GET api/session (who, role, CSRF token);
 * POST api/sign-out, api/sign-out-everywhere; POST api/device-token (a desktop's name and
 * password for a personal token), api/revoke-token (that token ended); POST api/<operation>;
 * GET api/events (this session's stream); GET api/download/<id>; GET api/replica (the books as a
 * file for a desktop's offline copy); the renderer's files after sign-in.
 */
import { timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { roleAllows, type Actor } from '../../shared/roles.ts';
import { coded, type CoreSaid } from '../../shared/core-codes.ts';
import { EVENT_NAMES } from '../../shared/operations.ts';
import { MAX_TOKENS_PER_PERSON, TooManyTokensError, type Core, type ReplicaManifest, type SignIn } from '../core/index.ts';
import { CONTENT_SECURITY_POLICY } from '../shell-policy/renderer-policy.ts';
import { sendDownload, webDownloads } from '../web/downloads.ts';
import { cookieValues, safeDecode } from '../web/security.ts';
import { MAX_BODY, readBody, send, serveRendererFile } from '../web/server.ts';
import { requestLimiter, type RequestLimits } from './request-limits.ts';
import { OIDC_ATTEMPT_MS, OIDC_CALLBACK_PATH, OIDC_START_PATH, oidcAttempts, OidcRefusal, type OidcProvider } from './oidc.ts';
import {
  attemptCookie,
  attemptCookieName,
  bindProblem,
  clearedCookie,
  isLoopback,
  lockoutAddress,
  ownOrigin,
  type RequestView,
  sessionCookie,
  sessionCookieName,
  viewOf,
} from './security.ts';
import { SIGN_IN_CSP, SIGN_IN_CSS, signedInPage, signInPage } from './sign-in-page.ts';
import { signInWords, type SignInWords } from './sign-in-words.ts';

export interface TeamServerOptions {
  core: Core;
  rendererDir: string;
  /** Default 127.0.0.1; anything else needs `tls` or `behindProxy` (security.ts bindProblem). */
  host?: string;
  port?: number;
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** The reverse proxy's address: its X-Forwarded-For/Proto/Host are believed, nobody else's. */
  behindProxy?: string;
  /** The server's clock (ms): sessions' limits and the sign-in lock-out are read against it. */
  now?: () => number;
  maxEventBacklog?: number;
  /** How often open event streams are checked against their session's limits (ms). */
  streamCheckMs?: number;
  /** Exports kept for their exporters to take (web/downloads.ts MAX_PENDING_DOWNLOADS). */
  maxPendingDownloads?: number;
  /** The team's OpenID Connect provider, discovered (oidc.ts discoverProvider): "Sign in with …" on the sign-in page. */
  oidc?: OidcProvider;
  /** No password sign-in at all: only through `oidc`. */
  oidcOnly?: boolean;
  /** Where a refused provider sign-in's reason goes (the server's standard error by default): never the secret, never to the page. */
  log?: (line: string) => void;
  /** How much one person may ask at once (request-limits.ts DEFAULT_REQUEST_LIMITS). */
  requestLimits?: RequestLimits;
}

export interface TeamServer {
  /** `http(s)://host:port` as bound. */
  origin: string;
  port: number;
  eventStreams(): number;
  close(): Promise<void>;
}

export const CSRF_HEADER = 'x-folio-csrf';
/** The header of `GET api/replica` carrying the copy's manifest (JSON, base64url). */
export const REPLICA_MANIFEST_HEADER = 'x-folio-replica-manifest';
const MAX_EVENT_BACKLOG = 1024 * 1024;
/** How long an idle connection is kept (below Node's 60 s wait for a request's headers, which must be longer). */
const KEEP_ALIVE_MS = 30_000;
/**
 * Open event streams one session or token may hold (a tab each); the next ends the oldest. Each
 * stream may hold MAX_EVENT_BACKLOG unsent, so without a bound one reader opening streams in a
 * loop could take the server's memory and sockets.
 */
export const MAX_STREAMS_PER_CREDENTIAL = 16;
/** Open event streams one person may hold over all their sessions and tokens (credentials are theirs to make): the next ends their oldest. */
export const MAX_STREAMS_PER_PERSON = 32;

/** `stream`: what an event stream it opens lives as long as (a session's key, or a token's), and whose it is. */
type Who = { actor: Actor; session: { key: string; csrf: string } | null; stream: { key: string; token: boolean; person?: string } };

export async function startTeamServer(o: TeamServerOptions): Promise<TeamServer> {
  const host = o.host ?? '127.0.0.1';
  const problem = bindProblem({ host, tls: !!o.tls, behindProxy: o.behindProxy });
  if (problem) throw new Error(problem);
  const now = o.now ?? Date.now;
  const root = resolve(o.rendererDir);
  if (!existsSync(join(root, 'index.html'))) throw new Error(`The renderer is not built (${join(root, 'index.html')} is missing): run npm run build first.`);
  if ((await o.core.request('cache.locked', undefined)).locked)
    throw new Error('The data folder is encrypted with a passphrase: start the server with FOLIOSCOPE_CACHE_PASSPHRASE set (the people are in the cache).');
  if (o.core.people.count() === 0) throw new Error('Nobody can sign in yet: run folioscope server init first (it makes the first owner).');
  if (o.oidcOnly && !o.oidc) throw new Error('--oidc-only needs --oidc-issuer and --oidc-client-id: otherwise nobody could sign in.');
  const people = o.core.people;
  const oidc = o.oidc;
  const attempts = oidcAttempts();
  const log = o.log ?? ((line: string) => console.error(line));
  const passwords = !o.oidcOnly;
  const maxBacklog = o.maxEventBacklog ?? MAX_EVENT_BACKLOG;
  const streams = new Map<ServerResponse, Who['stream']>();
  const limiter = requestLimiter(o.requestLimits);
  const downloads = await webDownloads(o.core, o.maxPendingDownloads);
  // Who started each export job (its id): a download is its exporter's alone. Every reader sees
  // the finished job's download id (sync.jobs, the sync.progress event), and a download is served
  // once, so without this anyone could take someone else's file, and leave them none.
  const exporters = new Map<string, string>();
  let port = 0;
  let replicaBusy = false;

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'text/plain', 'Internal error');
      else res.destroy();
    });
  };
  const server = o.tls ? createHttpsServer({ cert: o.tls.cert, key: o.tls.key }, handler) : createHttpServer(handler);
  // An idle connection is closed after KEEP_ALIVE_MS, not Node's 5 s: when the server's one thread
  // is busy for seconds (a fund's view built, the poisoning guard's first check), a connection's
  // idle timer comes due before the request a client has just sent on it is read, and the client
  // is answered by a reset instead (ten people at 1,000 × 6 in bench/team.ts lost requests so).
  server.keepAliveTimeout = KEEP_ALIVE_MS;

  function securityHeaders(res: ServerResponse, view: RequestView): void {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with a form's
    // or a same-origin fetch's POST, and the Origin is half of the CSRF check. Nothing leaks to another site.
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.setHeader('Cache-Control', 'no-store');
    if (view.https) res.setHeader('Strict-Transport-Security', 'max-age=31536000');
  }

  function cookieName(view: RequestView): string {
    return sessionCookieName(view.https, port);
  }

  function attemptName(view: RequestView): string {
    return attemptCookieName(view.https, port);
  }

  /** Who is asking: a bearer token's person, or a session cookie's; null when neither holds. */
  function who(req: IncomingMessage, view: RequestView): Who | null {
    const auth = req.headers.authorization;
    if (typeof auth === 'string') {
      const m = /^Bearer\s+(\S+)$/i.exec(auth);
      const t = m ? people.tokenActor(m[1]!, now()) : null;
      return t ? { actor: { person: t.person, role: t.role }, session: null, stream: { key: t.key, token: true } } : null;
    }
    // Every session cookie sent is read: a page on another port of this host can plant a cookie of
    // its own at a narrower Path (plain HTTP on loopback; a `__Host-` cookie over TLS cannot be),
    // which a browser sends first. Two live sessions are nobody: never the planted one.
    const live = cookieValues(req.headers.cookie, cookieName(view))
      .map((id) => people.session(id, now()))
      .filter((s) => s !== null);
    if (new Set(live.map((s) => s.key)).size !== 1) return null;
    const s = live[0]!;
    return { actor: { person: s.person, role: s.role }, session: { key: s.key, csrf: s.csrf }, stream: { key: s.key, token: false } };
  }

  /** A POST from a page: this server's Origin and the session's CSRF token, both, or 403. (A bearer request has no cookie to abuse.) */
  function csrfHolds(req: IncomingMessage, view: RequestView, w: Who): boolean {
    if (!w.session) return true;
    if (req.headers.origin !== ownOrigin(view)) return false;
    const given = req.headers[CSRF_HEADER];
    if (typeof given !== 'string') return false;
    const a = Buffer.from(given);
    const b = Buffer.from(w.session.csrf);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const view = viewOf(req, { tls: !!o.tls, behindProxy: o.behindProxy });
    securityHeaders(res, view);
    // Plain HTTP on a network address is served to the proxy only: anyone else reaching the port
    // directly would send their password in clear.
    if (!view.https && !view.viaProxy && !isLoopback(view.address)) return send(res, 403, 'text/plain', 'Reach this server through its proxy.');
    // On loopback, the Host must be this machine's: a DNS-rebinding page sends its own name.
    if (isLoopback(host) && !o.behindProxy && !new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]).has(view.host))
      return send(res, 421, 'text/plain', 'Host not allowed');
    const target = req.url ?? '/';
    if (!target.startsWith('/')) return send(res, 400, 'text/plain', 'Bad request target');
    const url = new URL(`http://x${target}`);
    const path = safeDecode(url.pathname);
    if (path === null) return send(res, 400, 'text/plain', 'Malformed path: a % escape is not valid.');
    const origin = req.headers.origin;
    // A cross-site page may not post here at all (nor sign someone in to its own account).
    if (origin !== undefined && origin !== ownOrigin(view)) return send(res, 403, 'text/plain', 'Origin not allowed');

    if (path === '/sign-in.css' && req.method === 'GET') {
      res.setHeader('Content-Security-Policy', SIGN_IN_CSP);
      res.writeHead(200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'private, max-age=3600' });
      return void res.end(SIGN_IN_CSS);
    }
    if (path === '/sign-in') {
      if (req.method === 'GET') {
        if (who(req, view)?.session) return redirect(res, '/');
        return page(res, 200, {}, await wordsOf(req));
      }
      if (req.method === 'POST') return signIn(req, res, view);
      return send(res, 405, 'text/plain', 'GET or POST only');
    }
    if (oidc && (path === OIDC_START_PATH || path === OIDC_CALLBACK_PATH)) {
      if (req.method !== 'GET') return send(res, 405, 'text/plain', 'GET only');
      return path === OIDC_START_PATH ? oidcStart(req, res, view, oidc) : oidcCallback(req, res, view, url.searchParams, oidc);
    }

    if (path === '/api/device-token') return deviceToken(req, res, view);
    const w = who(req, view);
    if (path.startsWith('/api/')) {
      if (!w) return json(res, 401, { ok: false, error: { kind: 'unauthenticated', message: 'Sign in first (or send a valid API token).', retryable: false } });
      const rest = path.slice('/api/'.length);
      // Each person's allowance (request-limits.ts), for every request of theirs here: refused
      // before anything is read. An operation holds its place under way until its work ends (a
      // client gone does not free it early); any other request until its answer is written; an
      // event stream counts against the rate only (it is open as long as its page).
      const admitted = limiter.admit(w.actor.person, now());
      if (!admitted.ok) {
        res.setHeader('Retry-After', String(admitted.retryAfterSeconds));
        return json(res, 429, {
          ok: false,
          error: { kind: 'rate-limited', retryable: true, ...coded('team.slowDown', { seconds: admitted.retryAfterSeconds, why: admitted.why }) },
        });
      }
      const isOperation = req.method === 'POST' && !['revoke-token', 'sign-out', 'sign-out-everywhere'].includes(rest);
      if (rest === 'events' && req.method === 'GET') admitted.done();
      else if (!isOperation) {
        res.once('finish', admitted.done);
        res.once('close', admitted.done);
      }
      if (req.method === 'GET') {
        if (rest === 'session') return json(res, 200, { person: w.actor.person, role: w.actor.role, csrf: w.session?.csrf ?? null });
        if (rest === 'events') return openStream(res, w);
        if (rest.startsWith('download/')) return download(rest.slice('download/'.length), res, w.actor.person);
        if (rest === 'replica') return replica(res, w.actor, ownOrigin(view));
        return send(res, 405, 'text/plain', 'POST only');
      }
      if (req.method !== 'POST') return send(res, 405, 'text/plain', 'POST only');
      if (!csrfHolds(req, view, w)) {
        admitted.done();
        return json(res, 403, {
          ok: false,
          error: { kind: 'forbidden', message: "Refused: this request did not come from this server's page (CSRF).", retryable: false },
        });
      }
      if (rest === 'revoke-token') {
        // A desktop signing out: the token it sent ends, and its streams with it.
        if (w.session)
          return json(res, 400, { ok: false, error: { kind: 'validation', message: 'A session is ended by signing out, not revoked.', retryable: false } });
        const token = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization))![1]!;
        people.revokeOwnToken(token, now());
        endStreams(new Set([w.stream.key]));
        return json(res, 200, { ok: true });
      }
      if (rest === 'sign-out' || rest === 'sign-out-everywhere') {
        if (!w.session) return json(res, 400, { ok: false, error: { kind: 'validation', message: 'An API token has no session to end.', retryable: false } });
        if (rest === 'sign-out') {
          for (const id of cookieValues(req.headers.cookie, cookieName(view))) people.signOut(id);
          endStreams(new Set([w.session.key]));
        } else endStreams(new Set(people.signOutEverywhere(w.actor.person)));
        res.setHeader('Set-Cookie', clearedCookie(cookieName(view), view.https));
        return json(res, 200, { ok: true });
      }
      return operation(rest, req, res, w.actor).finally(admitted.done);
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only');
    // The app is for people signed in; a browser is sent to the sign-in page.
    if (!w?.session) return redirect(res, '/sign-in');
    return serveRendererFile(root, path, res);
  }

  /** A sign-in at the provider begins: an attempt kept here, its id in this browser's cookie, the browser sent to the provider. */
  async function oidcStart(req: IncomingMessage, res: ServerResponse, view: RequestView, p: OidcProvider): Promise<void> {
    if (who(req, view)?.session) return redirect(res, '/');
    const { attempt, url } = await p.start(`${ownOrigin(view)}${OIDC_CALLBACK_PATH}`, now());
    const id = attempts.put(attempt, now(), lockoutAddress(view.address));
    res.setHeader('Set-Cookie', attemptCookie(attemptName(view), id, view.https, OIDC_ATTEMPT_MS / 1000));
    return redirect(res, url);
  }

  /**
   * The provider's answer. The attempt is the one this browser's cookie names, taken once (a
   * replayed answer finds nothing); an answer carrying someone else's code and state (login CSRF:
   * signing a person in as the attacker) meets this browser's attempt, whose state it does not
   * hold, and is refused. Two attempt cookies (one planted by a page on another port, at a
   * narrower path) are refused too, as two sessions are.
   */
  async function oidcCallback(req: IncomingMessage, res: ServerResponse, view: RequestView, query: URLSearchParams, p: OidcProvider): Promise<void> {
    const ids = [...new Set(cookieValues(req.headers.cookie, attemptName(view)))];
    const taken = ids.map((id) => attempts.take(id, now()));
    // Whatever happens next, this browser's attempt is over.
    res.setHeader('Set-Cookie', attemptCookie(attemptName(view), '', view.https, 0));
    const attempt = taken.length === 1 ? taken[0] : null;
    const w = await wordsOf(req);
    if (!attempt) {
      log(
        `Sign-in through the provider refused: ${ids.length > 1 ? 'two attempt cookies' : ids.length ? 'an attempt unknown, used or expired' : 'no attempt cookie'}.`,
      );
      return page(res, 400, { message: w.notStarted(p.label) }, w);
    }
    const error = query.get('error');
    // The provider's refusal, said only when it answers this attempt (its state): anyone can
    // write an `error` into a link, and the page would show it as the provider's word.
    if (error !== null && query.get('state') === attempt.state) {
      const code = /^[a-z_]{1,40}$/.test(error) ? error : 'refused';
      log(`Sign-in through the provider refused by the provider: ${code}.`);
      return page(res, 403, { message: w.providerRefused(p.label, code, passwords) }, w);
    }
    let account: { issuer: string; subject: string };
    try {
      account = await p.finish(attempt, query);
    } catch (err) {
      if (!(err instanceof OidcRefusal)) throw err;
      log(`Sign-in through the provider refused: ${err.detail}`);
      return page(res, 400, { message: w[err.kind](err.label) }, w);
    }
    const result = people.oidcSignIn(account, lockoutAddress(view.address), now());
    if (!result.ok) {
      if (result.reason === 'disabled') return page(res, 403, { message: w.said(coded('team.signInDisabled', {}).said) }, w);
      log(`Sign-in through the provider refused: subject ${JSON.stringify(account.subject.slice(0, 80))} at ${account.issuer} is linked to nobody.`);
      return page(
        res,
        403,
        { message: w.notLinked(p.label, `folioscope users link-oidc NAME ${account.subject.slice(0, 255)} --oidc-issuer ${account.issuer}`) },
        w,
      );
    }
    res.setHeader('Set-Cookie', [attemptCookie(attemptName(view), '', view.https, 0), sessionCookie(cookieName(view), result.sessionId, view.https)]);
    res.setHeader('Content-Security-Policy', SIGN_IN_CSP);
    return send(res, 200, 'text/html; charset=utf-8', signedInPage(w, result.person));
  }

  /**
   * A refused password (the sign-in page's and a desktop's): its HTTP status and its sentence,
   * coded so a desktop says it in its own language; a lock-out's end in Retry-After.
   */
  function refused(result: Extract<SignIn, { ok: false }>, res: ServerResponse): { status: number; why: { message: string; said: CoreSaid } } {
    if (result.reason === 'locked') {
      res.setHeader('Retry-After', String(Math.ceil((result.until - now()) / 1000)));
      return { status: 429, why: coded('team.signInLocked', { minutes: Math.max(1, Math.ceil((result.until - now()) / 60_000)) }) };
    }
    return result.reason === 'disabled' ? { status: 403, why: coded('team.signInDisabled', {}) } : { status: 401, why: coded('team.signInWrong', {}) };
  }

  async function signIn(req: IncomingMessage, res: ServerResponse, view: RequestView): Promise<void> {
    // A form's POST carries its Origin (checked above); one without is not a browser's form.
    if (req.headers.origin === undefined) return send(res, 403, 'text/plain', 'Origin required');
    const w = await wordsOf(req);
    if (!passwords) return page(res, 403, { message: w.noPasswords(oidc?.label ?? 'the provider') }, w);
    const body = await readBody(req);
    if (body === null) return send(res, 413, 'text/plain', `Request too large (at most ${MAX_BODY} bytes).`);
    const form = new URLSearchParams(body);
    const name = (form.get('name') ?? '').trim();
    const password = form.get('password') ?? '';
    if (!name || !password) return page(res, 400, { message: w.typeBoth, name }, w);
    const result = await people.signIn(name, password, lockoutAddress(view.address), now());
    if (!result.ok) {
      const { status, why } = refused(result, res);
      return page(res, status, { message: w.said(why.said), name }, w);
    }
    res.setHeader('Set-Cookie', sessionCookie(cookieName(view), result.sessionId, view.https));
    return redirect(res, '/');
  }

  /**
   * A desktop's sign-in (docs/team.md, "The desktop on a team server"): a name and password, checked
   * with the sign-in page's lock-out, exchanged once for a personal API token with the person's
   * role, labelled with the device. JSON without an Origin: a browser's page cannot call it (it
   * sends one with every POST), so no page can mint a token with a password it was typed into.
   */
  async function deviceToken(req: IncomingMessage, res: ServerResponse, view: RequestView): Promise<void> {
    if (req.method !== 'POST') return send(res, 405, 'text/plain', 'POST only');
    if (req.headers.origin !== undefined) return send(res, 403, 'text/plain', 'A page may not ask for a device token: sign in on the sign-in page.');
    const body = await readBody(req);
    if (body === null) return send(res, 413, 'text/plain', `Request too large (at most ${MAX_BODY} bytes).`);
    let input: { name?: unknown; password?: unknown; device?: unknown };
    try {
      input = JSON.parse(body) as typeof input;
    } catch {
      input = {};
    }
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    const password = typeof input.password === 'string' ? input.password : '';
    const device = typeof input.device === 'string' ? input.device.replace(/[^\w.-]/g, '').slice(0, 64) : '';
    // Coded, so a desktop's Settings says it in its own language (core-codes.ts).
    const refuse = (status: number, why: { message: string; said: CoreSaid }) =>
      json(res, status, { ok: false, error: { kind: status === 429 ? 'locked' : 'unauthenticated', ...why, retryable: status === 429 } });
    // A server that takes no passwords gives none a token: its desktops use a token made with `users token`.
    if (!passwords) return refuse(403, coded('team.noPasswords', { provider: oidc?.label ?? 'the provider' }));
    if (!name || !password) return refuse(400, coded('team.signInWrong', {}));
    const result = await people.signIn(name, password, lockoutAddress(view.address), now());
    if (!result.ok) {
      const { status, why } = refused(result, res);
      return refuse(status, why);
    }
    // The sign-in's session is not the desktop's way in (its token is): ended at once.
    people.signOut(result.sessionId);
    let made: ReturnType<typeof people.createToken>;
    try {
      made = people.createToken(result.person, result.role, `desktop on ${device || 'a computer'}`, now());
    } catch (err) {
      // A desktop signed out revokes its token; one never signed out (a lost laptop) keeps it until revoked.
      if (!(err instanceof TooManyTokensError)) throw err;
      return json(res, 409, { ok: false, error: { kind: 'validation', retryable: false, ...coded('team.tooManyTokens', { max: MAX_TOKENS_PER_PERSON }) } });
    }
    return json(res, 200, { ok: true, result: { token: made.token, person: result.person, role: made.role } });
  }

  async function operation(op: string, req: IncomingMessage, res: ServerResponse, actor: Actor): Promise<void> {
    const body = await readBody(req);
    if (body === null) {
      res.setHeader('Connection', 'close');
      return send(res, 413, 'text/plain', `Request too large (at most ${MAX_BODY} bytes).`);
    }
    let input: unknown;
    try {
      input = body.length ? JSON.parse(body) : undefined;
    } catch {
      return json(res, 400, { ok: false, error: { kind: 'validation', message: 'The request body is not JSON.', retryable: false } });
    }
    const controller = new AbortController();
    const gone = () => {
      if (!res.writableEnded) controller.abort();
    };
    res.on('close', gone);
    const result = await o.core.dispatch(op, input, { signal: controller.signal, actor });
    res.off('close', gone);
    if (controller.signal.aborted) return;
    if ((op === 'export.start' || op === 'userData.export') && result.ok && result.result) exporters.set((result.result as { id: string }).id, actor.person);
    // A role's refusal is HTTP's forbidden, a stale edit its conflict; every other refusal is 200 with its envelope (as the web shell).
    const status = result.ok ? 200 : result.error.kind === 'forbidden' ? 403 : result.error.kind === 'conflict' ? 409 : 200;
    return json(res, status, result);
  }

  /**
   * The books as a file for a signed-in desktop's offline copy (docs/team.md, "The desktop on a
   * team server"): a checked plain copy without the people's secrets, its manifest in a header.
   * Whoever may read the books may have it; one is made at a time (it copies the whole cache): a
   * second asker while one is being made is told to come back.
   */
  async function replica(res: ServerResponse, actor: Actor, origin: string): Promise<void> {
    if (!roleAllows(actor.role, 'read'))
      return json(res, 403, { ok: false, error: { kind: 'forbidden', message: 'Your role may not read the books.', retryable: false } });
    if (replicaBusy) {
      res.setHeader('Retry-After', '5');
      return send(res, 429, 'text/plain', 'A copy of the books is being made for someone else: try again in a moment.');
    }
    replicaBusy = true;
    let made: { file: string; manifest: ReplicaManifest } | null = null;
    try {
      // The bound is on making copies (each reads the whole cache); sending one is a file's stream.
      made = await o.core.replica(origin, { role: actor.role }).finally(() => (replicaBusy = false));
      const { file, manifest } = made;
      res.writeHead(200, {
        'Content-Type': 'application/vnd.sqlite3',
        'Content-Length': String(manifest.bytes),
        'Content-Disposition': 'attachment; filename="replica.sqlite"',
        [REPLICA_MANIFEST_HEADER]: Buffer.from(JSON.stringify(manifest)).toString('base64url'),
      });
      await pipeline(createReadStream(file), res);
    } catch (err) {
      if (!res.headersSent) json(res, 500, { ok: false, error: { kind: 'storage', message: (err as Error).message, retryable: true } });
      else res.destroy();
    } finally {
      if (made) rmSync(made.file, { force: true });
    }
  }

  /** The sign-in pages' words for a request: the books' locale setting's language, else the browser's (sign-in-words.ts). */
  async function wordsOf(req: IncomingMessage): Promise<SignInWords> {
    // The page is shown whatever the books are doing: settings that cannot be read leave the browser's language.
    const locale = await o.core.request('settings.get', undefined).then(
      (s) => s.locale,
      () => null,
    );
    return signInWords(locale, req.headers['accept-language']);
  }

  /** The sign-in page in `w`'s words (the request's, read once by its handler: wordsOf). */
  function page(res: ServerResponse, status: number, p: { message?: string; name?: string }, w: SignInWords): void {
    res.setHeader('Content-Security-Policy', SIGN_IN_CSP);
    send(res, status, 'text/html; charset=utf-8', signInPage(w, { ...p, ...(oidc && { provider: oidc.label }), passwords }));
  }

  function download(id: string, res: ServerResponse, person: string): void {
    // Someone else's export is answered as one that does not exist: its id tells a stranger nothing.
    if (
      !sendDownload(
        downloads.take(id, (job) => exporters.get(job) === person),
        res,
      )
    )
      send(res, 404, 'text/plain', 'This export is no longer available: export again.');
  }

  /** A session's event stream, or a token's: it ends with the session, or when the token is revoked or its owner disabled. */
  function openStream(res: ServerResponse, w: Who): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    res.write(': connected\n\n');
    const person = w.actor.person.toLowerCase();
    const same = [...streams].filter(([, s]) => s.key === w.stream.key);
    const theirs = [...streams].filter(([, s]) => s.person === person);
    // A Map keeps its insertion order: the first of the same key (or person) is the oldest.
    const oldest = new Set([
      ...same.slice(0, Math.max(0, same.length - MAX_STREAMS_PER_CREDENTIAL + 1)),
      ...theirs.slice(0, Math.max(0, theirs.length - MAX_STREAMS_PER_PERSON + 1)),
    ]);
    for (const [old] of oldest) {
      streams.delete(old);
      old.end();
    }
    streams.set(res, { ...w.stream, person });
    res.on('close', () => streams.delete(res));
  }

  function endStreams(keys: Set<string>): void {
    for (const [s, { key }] of streams)
      if (keys.has(key)) {
        streams.delete(s);
        s.end();
      }
  }

  function broadcast(frame: string): void {
    for (const [s] of streams) {
      if (s.writableLength + frame.length > maxBacklog) {
        streams.delete(s);
        s.destroy();
      } else s.write(frame);
    }
  }

  /**
   * Streams whose session ended elsewhere (a person disabled by `folioscope users`, a limit
   * passed) are closed, and so are a token's once it is revoked or its owner disabled: a token's
   * stream used to be kept by nothing, and so outlived both.
   */
  function checkStreams(): void {
    const t = now();
    const ended = new Set<string>();
    for (const { key, token } of streams.values()) if (!ended.has(key) && !(token ? people.tokenAlive(key) : people.alive(key, t))) ended.add(key);
    if (ended.size) endStreams(ended);
  }

  const unsubscribers = EVENT_NAMES.map((name) => o.core.on(name, (payload) => broadcast(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`)));
  const heartbeat = setInterval(() => {
    checkStreams();
    broadcast(': keep-alive\n\n');
  }, o.streamCheckMs ?? 15_000);
  heartbeat.unref();

  await new Promise<void>((done, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, host, () => done());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    origin: `${o.tls ? 'https' : 'http'}://${shownHost}:${port}`,
    port,
    eventStreams: () => streams.size,
    close: () =>
      new Promise<void>((done) => {
        clearInterval(heartbeat);
        unsubscribers.forEach((u) => u());
        downloads.close();
        for (const [s] of streams) s.end();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function redirect(res: ServerResponse, location: string): void {
  res.setHeader('Location', location);
  send(res, 303, 'text/plain', 'See Other');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json', JSON.stringify(body));
}
