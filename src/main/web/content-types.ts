import { extname } from 'node:path';

/** Content types of the built renderer's files, for the web shell and the app:// protocol. */
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
