import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A worker thread's entry file, found from the URL of the module that starts it (`here`).
 * From source (tsx, tests), the TypeScript file beside that module. Bundled, the worker is an
 * entry of its own in out/main/ (electron.vite.config.ts), while the module starting it may sit
 * in out/main/ itself or in a shared chunk under out/main/chunks/: so the file is looked for
 * beside `here`, then one folder up. A bundled file found in neither is named beside `here`,
 * so starting it fails with a message naming the missing file.
 */
export function workerEntry(here: string, sourceName: string, bundledName: string): URL {
  if (here.endsWith('.ts')) return new URL(`./${sourceName}`, here);
  const places = [`./${bundledName}`, `../${bundledName}`].map((p) => new URL(p, here));
  return places.find((u) => existsSync(fileURLToPath(u))) ?? places[0]!;
}
