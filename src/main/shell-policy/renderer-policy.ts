/**
 * What both shells that serve the renderer (the Electron app's app:// protocol and the web
 * shell) promise about it: one Content-Security-Policy and one table of content types, so the
 * two can never drift apart. Neither shell imports the other; both import this.
 */
import { extname } from 'node:path';

/** Scripts only from the app itself; inline styles stay allowed (Svelte sets them). */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Content types of the built renderer's files. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export function contentType(file: string): string {
  return TYPES[extname(file)] ?? 'application/octet-stream';
}
