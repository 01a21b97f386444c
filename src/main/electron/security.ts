/**
 * Pure policy of the Electron shell, kept free of `electron` so it is tested directly:
 * which URLs the window may show, which senders may call the contract.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'folioscope';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;

/**
 * The renderer dev server to load instead of the built files, or undefined: only a
 * development build that is not packaged (`npm run dev`, where electron-vite sets
 * ELECTRON_RENDERER_URL) may use one, and only on this computer (loopback, http or https).
 * A packaged app, or a production build, ignores the variable: anyone able to set the
 * environment could otherwise have the app load, and give the contract to, a page of theirs.
 */
export function devServerUrlFor(url: string | undefined, build: { isPackaged: boolean; devBuild: boolean }): string | undefined {
  if (!url || build.isPackaged || !build.devBuild) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const loopback = parsed.hostname === 'localhost' || parsed.hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(parsed.hostname);
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && loopback ? url : undefined;
}

/** The renderer's own pages: the packaged files, or the dev server in development. */
export function isAppUrl(raw: string, devServerUrl?: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST) return true;
  if (devServerUrl) {
    const dev = new URL(devServerUrl);
    return url.origin === dev.origin;
  }
  return false;
}

/**
 * A message may reach the core only from the app's own main frame, at the app's origin
 * (VS Code and Electron's checklist: validate the sender of every IPC message).
 */
export function isTrustedSender(frame: { url: string; parent: unknown } | null | undefined, devServerUrl?: string): boolean {
  if (!frame || frame.parent) return false;
  return isAppUrl(frame.url, devServerUrl);
}

/** Maps an app:// path to a file under the renderer folder, refusing anything outside it. */
export function resolveAppPath(root: string, rawUrl: string, join: (...p: string[]) => string, normalize: (p: string) => string, sep: string): string | null {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  const rel = decodeURIComponent(url.pathname).replace(/^\/+/, '') || 'index.html';
  const file = normalize(join(root, rel));
  return file.startsWith(root.endsWith(sep) ? root : root + sep) ? file : null;
}
