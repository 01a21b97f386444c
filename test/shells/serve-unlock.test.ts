import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliHere } from '../support/cli-in-process.ts';
import { firstLine, startCli } from '../support/cli-process.ts';
import { WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * `folioscope serve` on a data folder encrypted with a passphrase, started without
 * FOLIOSCOPE_CACHE_PASSPHRASE (issue 39, item 11): it starts rather than stop, says the page
 * asks for the passphrase, and answers nothing but `cache.locked` and `cache.unlock` until it is
 * given over HTTP; what the process prints never holds it.
 */
const RENDERER = join(import.meta.dirname, '../../out/renderer/index.html');
const PASSPHRASE = 'marsh-cobalt-58-ember';

describe('folioscope serve on a folder encrypted with a passphrase', () => {
  it('starts locked, says the page asks for the passphrase, and opens once it is given over HTTP', { timeout: 120_000 }, async () => {
    if (!existsSync(RENDERER)) throw new Error('Build the renderer first: npm run build (npm test does).');
    const dir = tempDir();
    expect((await runCliHere(['--data-dir', dir, 'wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Treasury'])).status).toBe(0);
    expect((await runCliHere(['--data-dir', dir, 'cache', 'encrypt', '--passphrase-stdin'], { input: `${PASSPHRASE}\n` })).status).toBe(0);

    const env = { ...process.env } as Record<string, string>;
    delete env['FOLIOSCOPE_CACHE_PASSPHRASE'];
    const { child, done } = startCli(['--data-dir', dir, 'serve', '--port', '0'], env);
    try {
      const url = new URL(await firstLine(child, 'serve'));
      const app = `${url.origin}${url.pathname}`;
      const call = async (op: string, input?: unknown) => {
        const res = await fetch(`${app}api/${op}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Folio-Token': url.searchParams.get('token')! },
          body: input === undefined ? '' : JSON.stringify(input),
        });
        return (await res.json()) as { ok: boolean; result?: unknown; error?: { kind: string; field?: string; message: string } };
      };
      expect(await call('cache.locked')).toEqual({ ok: true, result: { locked: true, dataDir: dir, changing: false } });
      expect(await call('wallets.list')).toMatchObject({ ok: false, error: { kind: 'locked' } });
      const wrong = await call('cache.unlock', { passphrase: 'guess-guess-guess' });
      expect(wrong).toMatchObject({ ok: false, error: { kind: 'validation', field: 'passphrase' } });
      expect(JSON.stringify(wrong)).not.toContain('guess-guess-guess');
      const right = await call('cache.unlock', { passphrase: PASSPHRASE });
      expect(right).toEqual({ ok: true, result: { locked: false, dataDir: dir } });
      expect(await call('wallets.list')).toMatchObject({ ok: true, result: [{ address: WALLET, label: 'Treasury' }] });
    } finally {
      child.kill('SIGTERM');
    }
    const ran = await done;
    expect(ran.status).toBe(0);
    expect(ran.stderr).toMatch(/encrypted with a passphrase: open the URL and type it to unlock/);
    expect(ran.stdout + ran.stderr).not.toContain(PASSPHRASE);
  });
});
