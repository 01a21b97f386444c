import { cpSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/store.ts';

export const ROOT = join(import.meta.dirname, '../..');

/**
 * A copy of the project as a fresh clone would have it after `npm ci`: its own sources and
 * scripts (so builds land in its own out/, not the one other tests read), the installed
 * packages linked in, and its own copy of the `electron` package without a binary (no
 * dist/, no path.txt) whatever this machine has installed.
 */
export function freshProject(): string {
  const dir = tempDir();
  for (const f of [
    'package.json',
    'electron.vite.config.ts',
    'svelte.config.js',
    'tsconfig.json',
    'tsconfig.base.json',
    'tsconfig.node.json',
    'tsconfig.web.json',
  ]) {
    cpSync(join(ROOT, f), join(dir, f));
  }
  for (const d of ['src', 'scripts', 'resources']) cpSync(join(ROOT, d), join(dir, d), { recursive: true });
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    // electron gets its own copy below; vite's cache must not be shared with the real tree.
    if (name === 'electron' || name === '.vite') continue;
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name), 'junction');
  }
  cpSync(join(ROOT, 'node_modules/electron'), join(modules, 'electron'), {
    recursive: true,
    filter: (src) => !/[\\/]electron[\\/](dist|path\.txt)/.test(src.slice(join(ROOT, 'node_modules').length)),
  });
  return dir;
}
