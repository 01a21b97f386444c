/**
 * The web shell's gate: it listens on 127.0.0.1 only, and every request must carry the
 * random token printed with its URL, come with a Host header naming this server (so a
 * DNS-rebinding page cannot reach it) and, when it has an Origin, come from this origin.
 *
 * The app lives under a random path of its own, `/s/<random>/`, and the cookie that holds
 * the token after the first load is scoped to that path. A browser keeps cookies by host,
 * not port, and SameSite does not tell ports apart either (127.0.0.1:any is the same site),
 * so a cookie at Path=/ went to every other server on this host the user visited. Its Path
 * is the only attribute that keeps it here: another local server would have to know the
 * random path to be sent the cookie, and the server honours the cookie nowhere else.
 */
import { timingSafeEqual } from 'node:crypto';

export const TOKEN_COOKIE = 'folio_token';

/**
 * The token cookie's name for one server: cookies are shared by every port of a host, so
 * a second web shell on 127.0.0.1 would overwrite the first's and log it out (each now has
 * its own path too; the name also names the cookie an older version left at Path=/).
 */
export function tokenCookieName(port: number): string {
  return `${TOKEN_COOKIE}_${port}`;
}

/** A path segment decoded, or null when its % escapes are malformed (answered with 400). */
export function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export function allowedOrigins(port: number): Set<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

export function sameToken(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Every value of the cookie `name` in a Cookie header. A browser sends one per path that
 * matches (and another local server may set its own at Path=/), so each is checked.
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    const value = k === name ? safeDecode(v.join('=')) : null;
    if (value !== null) values.push(value);
  }
  return values;
}

/** The token cookie's Path for the app at `base` (`/s/<random>/`): `/s/<random>`, which also covers `base` itself. */
export function cookiePath(base: string): string {
  return base.slice(0, -1);
}

/**
 * A request path (as parsed, still %-encoded) within the app at `base`: `/` for the app's
 * page, `/api/…`, `/assets/…`; '' for `base` without its last slash; null outside the app.
 */
export function appPathOf(pathname: string, base: string): string | null {
  if (pathname === cookiePath(base)) return '';
  return pathname.startsWith(base) ? pathname.slice(base.length - 1) : null;
}
