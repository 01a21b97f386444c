/**
 * What a backup costs (store/backup-files.ts) on the 1M-row cache the timeline bench builds: a
 * backup made (VACUUM INTO, integrity_check of the copy, counts, SHA-256) and verified, each
 * step timed, and a bare file copy of the same cache as the baseline measured in the same run.
 * Run: npm run bench -- backup (builds bench/.data/timeline-1m.sqlite once if missing;
 * FOLIOSCOPE_BENCH_ROWS=200000 builds and uses a smaller one instead).
 */
import BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { copyFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Transaction, transaction as transactionSchema } from '../src/shared/service/schemas.ts';
import { openDatabase } from '../src/main/core/store/db.ts';
import { upsertTransactions } from '../src/main/core/transactions/store/transactions.ts';
import { addWallet, listWallets } from '../src/main/core/store/wallets.ts';
import { backupsFolderOf, createBackup, sha256File, verifyBackup } from '../src/main/core/store/backup-files.ts';
import { CHAINS } from '../src/sim/chains.ts';
import { historyOf, transactionAt } from '../src/sim/transactions.ts';
import { DATA_DIR, report } from './lib.ts';

export async function backupBench(): Promise<void> {
  const rows = Number(process.env['FOLIOSCOPE_BENCH_ROWS'] ?? 1_000_000);
  const path = join(DATA_DIR, rows === 1_000_000 ? 'timeline-1m.sqlite' : `backup-${rows}.sqlite`);
  const perChain = rows / 20;
  const db = openDatabase(path);
  if (listWallets(db).length !== 10) {
    console.log(`building the ${rows.toLocaleString('en-US')}-row cache…`);
    for (let w = 0; w < 10; w++) {
      const wallet = '0x' + (w + 1).toString(16).padStart(40, 'a');
      addWallet(db, { address: wallet, chains: ['eth', 'arb'] });
      for (const chain of [CHAINS[0]!, CHAINS[1]!]) {
        const h = historyOf(
          { seed: 3, txnsPerWallet: perChain, historyStart: Date.UTC(2024, 0, 1) / 1000, historyEnd: Date.UTC(2026, 10, 1) / 1000 },
          wallet,
          chain,
        );
        for (let i = 0; i < perChain; i += 1000) {
          const page: Transaction[] = [];
          for (let j = i; j < Math.min(perChain, i + 1000); j++) page.push(transactionSchema.parse(transactionAt(h, j)));
          db.transaction(() => upsertTransactions(db, wallet, chain.id, page)).immediate();
        }
      }
    }
    db.exec('ANALYZE');
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  const mib = statSync(path).size / 2 ** 20;
  rmSync(backupsFolderOf(path), { recursive: true, force: true });

  const time = <T>(fn: () => T): { ms: number; value: T } => {
    const t0 = performance.now();
    const value = fn();
    return { ms: performance.now() - t0, value };
  };
  const copyTo = join(DATA_DIR, 'backup-bench-copy.sqlite');
  const copy = time(() => copyFileSync(path, copyTo));
  rmSync(copyTo, { force: true });
  const vacuumTo = join(DATA_DIR, 'backup-bench-vacuum.sqlite');
  rmSync(vacuumTo, { force: true });
  const vacuum = time(() => db.prepare('VACUUM INTO ?').run(vacuumTo));
  const integrity = time(() => {
    const c = new BetterSqlite3(vacuumTo, { readonly: true });
    try {
      return c.pragma('integrity_check', { simple: true });
    } finally {
      c.close();
    }
  });
  const hash = time(() => sha256File(vacuumTo));
  rmSync(vacuumTo, { force: true });
  const made = time(() => createBackup(db, path, { reason: 'manual', appVersion: 'bench' }));
  const verified = time(() => verifyBackup(path, made.value.name));
  const rss = process.memoryUsage().rss / 2 ** 20;
  db.close();
  rmSync(backupsFolderOf(path), { recursive: true, force: true });
  const ms = (x: { ms: number }) => `${Math.round(x.ms).toLocaleString('en-US')} ms`;
  report(`Backup of a ${rows.toLocaleString('en-US')}-row cache (${mib.toFixed(0)} MiB)`, [
    ['baseline: copyFileSync of the cache file', ms(copy)],
    ['VACUUM INTO a new file', `${ms(vacuum)} (a ${(made.value.bytes / 2 ** 20).toFixed(0)} MiB copy)`],
    ['integrity_check of the copy', `${ms(integrity)} (${String(integrity.value)})`],
    ['SHA-256 of the copy', ms(hash)],
    ['createBackup: all of it, counts and manifest included', ms(made)],
    ['verifyBackup (as before a restore)', ms(verified)],
    ['peak RSS of the process', `${rss.toFixed(0)} MiB`],
  ]);
}
