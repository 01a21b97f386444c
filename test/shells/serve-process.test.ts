import Database from 'better-sqlite3-multiple-ciphers';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstLine, startCli, useSimProcess } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';
import { WALLET } from '../support/sim.ts';
import type { JobInfo } from '../../src/shared/model.ts';

/**
 * `folioscope serve` as a user runs it: a process of its own, driven over HTTP as the page
 * drives it, stopped with SIGTERM (as systemd or Ctrl-C stop it), and the cache file counted
 * afterwards. Stopping finishes or cancels the jobs in flight and closes the cache: what was
 * written is whole, and the next sync completes it.
 */
const RENDERER = join(import.meta.dirname, '../../out/renderer/index.html');
const KEY = 'serve-process-key-4d1e8a';
const PER_CHAIN = 4000;
const sim = useSimProcess(['--access-key', KEY, '--txns-per-wallet', String(PER_CHAIN)]);

async function serve(dir: string) {
  if (!existsSync(RENDERER)) throw new Error('Build the renderer first: npm run build (npm test does).');
  const { child, out, done } = startCli(['--data-dir', dir, '--base-url', sim.url, 'serve', '--port', '0'], { FOLIOSCOPE_ACCESS_KEY: KEY });
  const printed = await firstLine(child, 'serve');
  const url = new URL(printed);
  const token = url.searchParams.get('token')!;
  const app = `${url.origin}${url.pathname}`;
  const call = async <T>(op: string, input?: unknown): Promise<T> => {
    const res = await fetch(`${app}api/${op}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Folio-Token': token },
      body: input === undefined ? '' : JSON.stringify(input),
    });
    const env = (await res.json()) as { ok: boolean; result?: T; error?: { message: string } };
    if (!env.ok) throw new Error(env.error!.message);
    return env.result!;
  };
  const exited = done.then((r) => r.status);
  return { child, call, exited, stderr: () => out.stderr };
}

function rows(dir: string): number {
  const file = readdirSync(dir).find((f) => f.endsWith('.sqlite'))!;
  const db = new Database(join(dir, file), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('folioscope serve as a process', () => {
  it(
    'a sync asked over HTTP is in the cache after SIGTERM; stopped mid-sync, what was written is whole and the next sync completes it',
    { timeout: 180_000 },
    async () => {
      const dir = tempDir();
      const s = await serve(dir);
      await s.call('wallets.add', { address: WALLET, chains: ['eth', 'arb'] });
      const job = await s.call<JobInfo>('sync.transactions', { wallet: WALLET });
      expect(await waitForJobs(() => s.call<JobInfo[]>('sync.jobs'), [job], { failed: 'return' })).toMatchObject([{ state: 'done' }]);
      s.child.kill('SIGTERM');
      expect(await s.exited, s.stderr()).toBe(0);
      expect(rows(dir)).toBe(2 * PER_CHAIN);

      // Stopped while a sync of two more chains runs: exits 0, the cache opens, the next sync completes it.
      const again = await serve(dir);
      await again.call('wallets.update', { address: WALLET, chains: ['eth', 'arb', 'op', 'base'] });
      await again.call<JobInfo>('sync.transactions', { wallet: WALLET });
      await expect.poll(() => rows(dir), { timeout: 60_000, interval: 20 }).toBeGreaterThan(2 * PER_CHAIN);
      again.child.kill('SIGTERM');
      expect(await again.exited, again.stderr()).toBe(0);
      const partial = rows(dir);
      expect(partial).toBeGreaterThan(2 * PER_CHAIN);
      const third = await serve(dir);
      const resumed = await third.call<JobInfo>('sync.transactions', { wallet: WALLET });
      expect(await waitForJobs(() => third.call<JobInfo[]>('sync.jobs'), [resumed], { failed: 'return' })).toMatchObject([{ state: 'done' }]);
      third.child.kill('SIGTERM');
      expect(await third.exited).toBe(0);
      expect(rows(dir)).toBe(4 * PER_CHAIN);
    },
  );
});
