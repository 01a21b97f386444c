/**
 * The web shell's gate: it listens on 127.0.0.1 only, and every request must carry the
 * random token printed with its URL, come with a Host header naming this server (so a
 * DNS-rebinding page cannot reach it) and, when it has an Origin, come from this origin.
 */
import { timingSafeEqual } from 'node:crypto';

export const TOKEN_COOKIE = 'folio_token';

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
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}
