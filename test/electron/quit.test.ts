import Database from 'better-sqlite3-multiple-ciphers';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { closeBeforeQuit } from '../../src/main/electron/quit.ts';
import { WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * The desktop app's quit (Electron's app mocked by an emitter: it cannot launch here) waits for
 * the core to close, a sync in flight included, before the process is let go.
 */
function fakeApp() {
  const emitter = new EventEmitter();
  const calls: string[] = [];
  const app = {
    on: (event: string, listener: (...args: unknown[]) => void) => (emitter.on(event, listener), app),
    // Electron emits will-quit again on the next quit(); a quit let through ends the process.
    quit: () => {
      calls.push('quit');
      const event = { prevented: false, preventDefault: () => (event.prevented = true) };
      emitter.emit('will-quit', event);
      if (!event.prevented) calls.push('exit');
    },
  };
  return { app, calls };
}

describe('quitting the desktop app', () => {
  it('waits for the core to close, with a sync running, then exits once', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'electron', baseUrl: null, env: {}, demo: demoStarter({ txnsPerWallet: 6000, latencyMs: 5 }) });
    await core.call('wallets.add', { address: WALLET, chains: ['eth', 'arb'] });
    const job = await core.call('sync.transactions', { wallet: WALLET });
    const { databaseFile } = await core.call('app.info', undefined);
    const { app, calls } = fakeApp();
    let closed = false;
    closeBeforeQuit(app as never, () => core.close().then(() => void (closed = true)));
    // The sync is under way (pages written), not merely queued, when the user quits.
    await new Promise<void>((resolve) => {
      const off = core.on('sync.progress', (p) => {
        if (p.id === job.id && ((p.pages ?? 0) > 0 || p.state === 'done')) {
          off();
          resolve();
        }
      });
    });
    app.quit();
    // Held: the process is not let go before the core has closed.
    expect(calls).toEqual(['quit']);
    expect(closed).toBe(false);
    await expect.poll(() => calls, { timeout: 30_000 }).toEqual(['quit', 'quit', 'exit']);
    expect(closed).toBe(true);
    // The cache is closed and whole: it opens, and holds whole pages of what was written.
    const db = new Database(databaseFile, { readonly: true });
    expect(db.pragma('quick_check', { simple: true })).toBe('ok');
    const rows = (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
    db.close();
    expect(rows).toBeLessThanOrEqual(2 * 6000);
    expect(job.id).toBeTruthy();
  });

  it('a close that fails still lets the app quit', async () => {
    const { app, calls } = fakeApp();
    closeBeforeQuit(app as never, () => Promise.reject(new Error('disk gone')));
    app.quit();
    await expect.poll(() => calls).toEqual(['quit', 'quit', 'exit']);
  });
});
