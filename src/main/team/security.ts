/**
 * The team server's rules about where it listens and whom it believes (docs/team.md, "Security
 * model"): loopback unless told otherwise, never plain HTTP on a network without a proxy in
 * front that the operator names, and forwarded headers believed from that proxy alone.
 */
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/** Whether a host to bind is this machine only. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/** The address as one spelling (`::ffff:10.0.0.5` is `10.0.0.5`), so a proxy named either way is recognised. */
export function plainAddress(address: string | undefined): string {
  const a = (address ?? '').trim();
  return a.startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a;
}

/**
 * The address a sign-in's failures are counted against (the lock-out's "address"): an IPv4
 * address as it is, an IPv6 one by its /64. A single IPv6 client usually holds a whole /64 (one
 * network's prefix, its host part its own to choose), so counting each address alone would let
 * it spray names from 2^64 addresses, each with a fresh count.
 */
export function lockoutAddress(address: string): string {
  const a = plainAddress(address);
  if (isIP(a) !== 6) return a;
  const [head = '', tail] = a.toLowerCase().split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 ending (1.2.3.4) is two groups.
  const width = (gs: string[]) => gs.length + (gs.at(-1)?.includes('.') ? 1 : 0);
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - width(left) - width(right))).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Why the server may not listen as asked, or null: a host beyond this machine needs TLS of its
 * own or a proxy that terminates it (`--behind-proxy ADDR`), else passwords and session cookies
 * would cross the network in clear.
 */
export function bindProblem(o: { host: string; tls: boolean; behindProxy: string | undefined }): string | null {
  if (o.behindProxy !== undefined && isIP(plainAddress(o.behindProxy)) === 0)
    return `--behind-proxy needs the proxy's IP address (the address its requests come from), not "${o.behindProxy.slice(0, 60)}".`;
  if (isLoopback(o.host) || o.tls || o.behindProxy !== undefined) return null;
  return `Refusing to serve ${o.host} over plain HTTP: passwords and sessions would cross the network in clear. Give --tls-cert and --tls-key, or --behind-proxy ADDR for a proxy that terminates TLS, or bind 127.0.0.1.`;
}

/** What a request is, as the server believes it: the client's address, whether it came over HTTPS, the host it asked for. */
export interface RequestView {
  address: string;
  https: boolean;
  host: string;
  /** Came through the named proxy (its forwarded headers were read). */
  viaProxy: boolean;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v.join(',') : undefined;
}

/**
 * The request as seen through the proxy when it comes from the proxy's address: the client is
 * the last address of X-Forwarded-For (the one the proxy appended; earlier ones are the
 * client's own claims), the scheme X-Forwarded-Proto's, the host X-Forwarded-Host's. From any
 * other address those headers are ignored: anyone can write them.
 */
export function viewOf(req: IncomingMessage, o: { tls: boolean; behindProxy: string | undefined }): RequestView {
  const socketAddress = plainAddress(req.socket.remoteAddress);
  const host = header(req, 'host') ?? '';
  if (o.behindProxy !== undefined && socketAddress === plainAddress(o.behindProxy)) {
    const forwarded = (header(req, 'x-forwarded-for') ?? '').split(',').map((s) => plainAddress(s));
    const client = forwarded.at(-1) || socketAddress;
    const proto = (header(req, 'x-forwarded-proto') ?? '').split(',')[0]!.trim().toLowerCase();
    const fhost = (header(req, 'x-forwarded-host') ?? '').split(',')[0]!.trim();
    return { address: client, https: o.tls || proto === 'https', host: fhost || host, viaProxy: true };
  }
  return { address: socketAddress, https: o.tls, host, viaProxy: false };
}

/** The origin a page of this server has, as the browser that asked for it sees it. */
export function ownOrigin(view: RequestView): string {
  return `${view.https ? 'https' : 'http'}://${view.host}`;
}

/**
 * The session cookie's name: `__Host-` over HTTPS, which a browser accepts only with Secure,
 * Path=/ and no Domain (so no other host or plain-HTTP page can plant or shadow it); over plain
 * HTTP on loopback, a name with the port (cookies are shared by every port of a host).
 */
export function sessionCookieName(secure: boolean, port: number): string {
  return secure ? '__Host-folio_session' : `folio_session_${port}`;
}

export function sessionCookie(name: string, value: string, secure: boolean): string {
  return `${name}=${value}; HttpOnly; SameSite=Strict; Path=/${secure ? '; Secure' : ''}`;
}

export function clearedCookie(name: string, secure: boolean): string {
  return `${name}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0${secure ? '; Secure' : ''}`;
}

/**
 * The cookie holding a provider sign-in's attempt id (oidc.ts): SameSite=Lax, not Strict, since
 * the provider's redirect back is a navigation from another site, which a Strict cookie would
 * miss; it names only an attempt (taken once, within minutes), never a session. `__Host-` over
 * HTTPS as the session's, the port in its name on plain HTTP.
 */
export function attemptCookieName(secure: boolean, port: number): string {
  return secure ? '__Host-folio_oidc' : `folio_oidc_${port}`;
}

export function attemptCookie(name: string, value: string, secure: boolean, maxAgeSeconds: number): string {
  return `${name}=${value}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}
