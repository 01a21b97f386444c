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
  return out;
}
