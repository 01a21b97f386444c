import BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { countTransactions, listRanges } from '../../src/main/core/transactions/store/transactions.ts';
import { engineFor } from '../support/engine.ts';
import { KEY, SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

const TXNS = 20_000;
const ctx = useSimulator({ txnsPerWallet: TXNS, latencyMs: 10 });

function countIn(path: string): number {
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    return (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
  } catch {
    return 0; // the child has not created the cache yet
  } finally {
    db?.close();
  }
}

describe('a crash in the middle of a sync', () => {
  it('SIGKILL mid-sync leaves an intact database; the next sync resumes with no duplicate and no gap', async () => {
    const path = join(tempDir(), 'cache.sqlite');
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../support/sync-child.ts')], {
      env: { ...process.env, DB_PATH: path, SIM_URL: ctx.sim.url, ACCESS_KEY: KEY, WALLET, NOW_MS: String(SIM_NOW) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let finished = false;
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.stdout.on('data', (d) => (finished ||= String(d).includes('finished')));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));

    // Kill it once a good part, but not all, of the history is written.
    const deadline = Date.now() + 60_000;
    for (;;) {
      await new Promise((r) => setTimeout(r, 25));
      const n = countIn(path);
      if (n >= 4000) break;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`child did not get far enough: ${n} rows; ${stderr}`);
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(finished).toBe(false);

    const db = openDatabase(path);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const atCrash = countTransactions(db);
      expect(atCrash).toBeGreaterThanOrEqual(4000);
      expect(atCrash).toBeLessThan(TXNS);
      // Whole pages only, and the range says where to resume.
      expect(atCrash % 100).toBe(0);
      const [range] = listRanges(db, WALLET, 'eth');
      expect(range).toMatchObject({ state: 'in_progress', nextPage: atCrash / 100 + 1 });

      const { engine } = engineFor(ctx.sim, db);
      await engine.syncTransactions(WALLET).result;
      expect(countTransactions(db)).toBe(TXNS);
      const distinct = db.prepare('SELECT count(DISTINCT txn_hash) AS n FROM transactions').get() as { n: number };
      expect(distinct.n).toBe(TXNS);
      expect(listRanges(db, WALLET, 'eth').every((r) => r.state === 'complete')).toBe(true);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });
});
