import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildId, sourceHash } from '../../src/main/core/store/build-id.ts';
import { tempDir } from '../support/store.ts';

/**
 * Which code made an answer kept in the file (src/main/core/store/build-id.ts): any change to a
 * source file is another build, though the version stays the same; the built bundle carries the
 * hash of the sources it was built from.
 */
describe('build id', () => {
  it('changes with any source file of src/main or src/shared, and with nothing else', () => {
    const root = tempDir();
    mkdirSync(join(root, 'src/main/core'), { recursive: true });
    mkdirSync(join(root, 'src/shared'), { recursive: true });
    mkdirSync(join(root, 'docs'), { recursive: true });
    writeFileSync(join(root, 'src/main/core/a.ts'), 'export const a = 1;');
    writeFileSync(join(root, 'src/shared/b.ts'), 'export const b = 1;');
    const first = sourceHash(root);
    writeFileSync(join(root, 'docs/x.md'), 'notes');
    expect(sourceHash(root)).toBe(first);
    writeFileSync(join(root, 'src/shared/b.ts'), 'export const b = 2;');
    const second = sourceHash(root);
    expect(second).not.toBe(first);
    writeFileSync(join(root, 'src/main/core/c.ts'), '');
    expect(sourceHash(root)).not.toBe(second);
  });

  it('run from the sources, is the hash of this checkout; the built bundle carries it too', () => {
    const root = join(import.meta.dirname, '../..');
    expect(buildId()).toBe(sourceHash(root));
    // electron-vite build ran before the tests (npm test): the bundle's id is its sources' hash, written in.
    const out = join(root, 'out/main');
    const bundle = readdirSync(out, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(out, f), 'utf8'))
      .join('\n');
    expect(bundle).toContain(JSON.stringify(sourceHash(root)));
    expect(bundle).not.toContain('__FOLIOSCOPE_BUILD__');
  });
});
