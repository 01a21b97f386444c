import { ACCESS_KEY_PARAM } from '../../../shared/service/endpoints.ts';

/** The URL with the access key's value replaced, fit for logs and error messages. */
export function redactUrl(url: string | URL): string {
  const u = new URL(String(url));
  if (u.searchParams.has(ACCESS_KEY_PARAM)) u.searchParams.set(ACCESS_KEY_PARAM, 'REDACTED');
  u.username = '';
  u.password = '';
  return u.toString();
}

/** Any text with every occurrence of the secret (and its URL-encoded form) removed. */
export function redactText(text: string, secret: string | null | undefined): string {
  if (!secret) return text;
  let out = text.split(secret).join('REDACTED');
  const encoded = encodeURIComponent(secret);
  if (encoded !== secret) out = out.split(encoded).join('REDACTED');
  // As it appears inside a JSON string (a raw body): quotes, backslashes and controls escaped.
  const inJson = JSON.stringify(secret).slice(1, -1);
  if (inJson !== secret) out = out.split(inJson).join('REDACTED');
  return out;
}

/** A parsed JSON value with the secret removed from every string in it, member names included. */
export function redactJson(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, redact));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactJson(v, redact)]));
  }
  return value;
}

/** Whether any string of a parsed JSON value (member names included) still holds the secret. */
export function jsonHoldsSecret(value: unknown, redact: (text: string) => string): boolean {
  if (typeof value === 'string') return redact(value) !== value;
  if (Array.isArray(value)) return value.some((v) => jsonHoldsSecret(v, redact));
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => redact(k) !== k || jsonHoldsSecret(v, redact));
  return false;
}
