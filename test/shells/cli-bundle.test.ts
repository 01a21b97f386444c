import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { workerEntry } from '../../src/main/core/store/worker-entry.ts';

/**
 * The `folioscope` command runs the program's bundle (out/main/folioscope.js) when it is current
 * and the TypeScript source otherwise (bin/folioscope.mjs). The bundle is what most CLI tests now
 * run, so these check the choice itself, and that the bundle finds what it loads at run time:
 * its worker threads' files, which sit in out/main/ while the code starting them may be in a
 * chunk under out/main/chunks/.
 */
const ROOT = join(import.meta.dirname, '../..');
const OUT = join(ROOT, 'out/main');
const BUILD_FIRST = 'run `npx electron-vite build` first (npm test does)';

const say = (bin: string, args: string[], env: Record<string, string> = {}) => {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, FOLIOSCOPE_FROM_SOURCE: '', ...env, FOLIOSCOPE_SAY_ENTRY: '1' },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, entry: /folioscope: running (the bundle|the source)/.exec(r.stderr)?.[1] ?? r.stderr };
};

describe('which program `folioscope` runs', () => {
  const made: string[] = [];
  afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('this checkout, built: the bundle, with the same answers as the source; FOLIOSCOPE_FROM_SOURCE=1 runs the source', () => {
    expect(existsSync(join(OUT, 'folioscope.js')), BUILD_FIRST).toBe(true);
    const bin = join(ROOT, 'bin/folioscope.mjs');
    const bundled = say(bin, ['--version']);
    const source = say(bin, ['--version'], { FOLIOSCOPE_FROM_SOURCE: '1' });
    expect(bundled.entry, `a source file is newer than the bundle: ${BUILD_FIRST}`).toBe('the bundle');
    expect(source.entry).toBe('the source');
    expect(bundled.status).toBe(0);
    expect(bundled.stdout).toBe(source.stdout);
    expect(bundled.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    // A command's usage, read from the bundle: the same words.
    expect(say(bin, ['--help']).stdout).toBe(say(bin, ['--help'], { FOLIOSCOPE_FROM_SOURCE: '1' }).stdout);
  });

  it('a source file changed after the build: the source, so a checkout never runs stale code', () => {
    // A project of its own beside this one (so node_modules is still found above it): the real
    // launcher and bundle, and a source tree whose one file is dated before or after the bundle.
    const dir = mkdtempSync(join(ROOT, 'test-results', 'bundle-choice-'));
    made.push(dir);
    mkdirSync(join(dir, 'bin'));
    for (const f of readdirSync(join(ROOT, 'bin'))) copyFileSync(join(ROOT, 'bin', f), join(dir, 'bin', f));
    mkdirSync(join(dir, 'out'));
    symlinkSync(OUT, join(dir, 'out/main'));
    mkdirSync(join(dir, 'src/main'), { recursive: true });
    const file = join(dir, 'src/main/folioscope.ts');
    writeFileSync(file, "console.log('from source');\n");
    const bin = join(dir, 'bin/folioscope.mjs');

    utimesSync(file, new Date('2001-01-01T00:00:00Z'), new Date('2001-01-01T00:00:00Z'));
    expect(say(bin, ['--version']).entry).toBe('the bundle');

    utimesSync(file, new Date(), new Date(Date.now() + 60_000));
    const changed = say(bin, ['--version']);
    expect(changed.entry).toBe('the source');
    expect(changed.stdout).toBe('from source\n');
  });

  it('bundled, every worker thread file is found, from the entry and from a chunk', () => {
    expect(existsSync(join(OUT, 'folioscope.js')), BUILD_FIRST).toBe(true);
    const workers: [string, string][] = [
      ['write-worker.ts', 'store-writer.js'],
      ['backup-worker.ts', 'store-backup.js'],
      ['conversion-worker.ts', 'store-convert.js'],
      ['spam-cells-worker.ts', 'csv-spam.js'],
      ['replica-worker.ts', 'replica.js'],
    ];
    for (const [source, bundled] of workers) {
      for (const from of [join(OUT, 'index.js'), join(OUT, 'folioscope.js'), join(OUT, 'chunks/any-chunk.js')])
        expect(fileURLToPath(workerEntry(pathToFileURL(from).href, source, bundled)), `${bundled} from ${from}`).toBe(join(OUT, bundled));
      // From source: the TypeScript file beside the module that starts it.
      const here = pathToFileURL(join(ROOT, 'src/main/core/x/module.ts')).href;
      expect(fileURLToPath(workerEntry(here, source, bundled))).toBe(join(ROOT, 'src/main/core/x', source));
    }
  });
});
