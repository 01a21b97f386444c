import { readFile } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import { protocol } from 'electron';
import { CONTENT_SECURITY_POLICY, contentType } from '../shell-policy/renderer-policy.ts';
import { APP_SCHEME, resolveAppPath } from './security.ts';

/** Must run before the app is ready: app:// is a standard, secure origin of its own. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** Serves the built renderer from app://folioscope/, with the app's CSP on every response. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppPath(rendererDir, request.url, join, normalize, sep);
    if (!file) return new Response('Not found', { status: 404 });
    try {
      const body = await readFile(file);
      return new Response(body, {
        headers: { 'Content-Type': contentType(file), 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Content-Type-Options': 'nosniff' },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}
