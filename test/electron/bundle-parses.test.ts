import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The desktop app's bundles parse as Node reads them. Electron never launches here, so a bundle
 * that fails to parse (a name the bundler declares too, as `require` once was in the PDF fonts'
 * resolver) would reach users unseen: `node --check` reads each file as the main process would.
 * `npm test` builds before the tests run (electron-vite build).
 */
const OUT = join(import.meta.dirname, '../../out');
const bundles = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.(c?js|mjs)$/.test(f))
        .map((f) => join(dir, f))
    : [];

describe('the built main and preload bundles', () => {
  const files = [...bundles(join(OUT, 'main')), ...bundles(join(OUT, 'preload'))];

  it('are there (npm test builds them first)', () => {
    expect(
      files.some((f) => f.endsWith(join('main', 'index.js'))),
      `no out/main/index.js: run \`npx electron-vite build\``,
    ).toBe(true);
    expect(files.some((f) => f.endsWith(join('preload', 'index.cjs')))).toBe(true);
  });

  it('each parses with node --check', () => {
    const failed = files.filter((f) => {
      try {
        execFileSync(process.execPath, ['--check', f], { stdio: 'pipe' });
        return false;
      } catch {
        return true;
      }
    });
    expect(failed).toEqual([]);
  });
});
