/**
 * The web shell's gate: it listens on 127.0.0.1 only, and every request must carry the
 * random token printed with its URL, come with a Host header naming this server (so a
 * DNS-rebinding page cannot reach it) and, when it has an Origin, come from this origin.
 */
import { timingSafeEqual } from 'node:crypto';

export const TOKEN_COOKIE = 'folio_token';

/**
 * The token cookie's name for one server: cookies are shared by every port of a host, so
 * a second web shell on 127.0.0.1 would overwrite the first's and log it out.
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

export function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return safeDecode(v.join('='));
  }
  return null;
}
