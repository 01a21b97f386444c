import { parse } from 'csv-parse/sync';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { exportCsv } from '../../src/main/core/reports/csv-reports.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { transaction as transactionSchema, type Transaction } from '../../src/shared/service/schemas.ts';
import { CHAINS } from '../../src/sim/chains.ts';
import { historyOf, transactionAt } from '../../src/sim/transactions.ts';
import { createDB } from '../support/store.ts';

/**
 * A transactions export reads on a connection of its own, in one snapshot: the app's
 * connection stays free to write while the export waits on its file (a sync beside an
 * export), and the file lists what the cache held when the export started.
 */
const WALLET = '0x' + 'e'.repeat(40);
const history = historyOf(
  { seed: 5, txnsPerWallet: 12_000, historyStart: Date.UTC(2024, 0, 1) / 1000, historyEnd: Date.UTC(2026, 0, 1) / 1000 },
  WALLET,
  CHAINS[0]!,
);
const page = (from: number, to: number): Transaction[] => {
  const rows: Transaction[] = [];
  for (let i = from; i < to; i++) rows.push(transactionSchema.parse(transactionAt(history, i)));
  return rows;
};

function cache(rows: number): WritableDB {
  const db = createDB();
  addWallet(db, { address: WALLET, chains: ['eth'] });
  db.transaction(() => upsertTransactions(db, WALLET, 'eth', page(0, rows))).immediate();
  return db;
}

/** A file that, on its first chunk (the export is then mid-way through its rows), runs `during`. */
function sink(during: () => void): { out: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  let first = true;
  const out = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      if (first) {
        first = false;
        try {
          during();
        } catch (err) {
          cb(err as Error);
          return;
        }
      }
      setImmediate(cb);
    },
  });
  return { out, text: () => Buffer.concat(chunks).toString('utf8') };
}

const hashes = (text: string) => new Set((parse(text, { columns: true, bom: true }) as Array<Record<string, string>>).map((r) => r['txn_hash']));

describe('a transactions export reads its own snapshot', () => {
  it('lets the app write while it runs, and lists what was cached when it started', async () => {
    const db = cache(10_000);
    let wrote = 0;
    const file = sink(() => {
      // What a sync does beside an export: a page of new transactions on the app's connection.
      wrote = db.transaction(() => upsertTransactions(db, WALLET, 'eth', page(10_000, 12_000))).immediate();
    });
    const progress: Array<number | null> = [];
    await exportCsv(db, { report: 'transactions' }, file.out, (_done, total) => progress.push(total));
    expect(wrote).toBe(2000);
    expect(hashes(file.text()).size).toBe(10_000);
    // The total it announced is the snapshot's, from the first progress to the last.
    expect(new Set(progress)).toEqual(new Set([10_000]));
    // The next export sees the new rows.
    const again = sink(() => undefined);
    await exportCsv(db, { report: 'transactions' }, again.out);
    expect(hashes(again.text()).size).toBe(12_000);
  });

  it('ends its read when it ends, finished or cancelled (a WAL checkpoint then completes)', async () => {
    const db = cache(10_000);
    db.transaction(() => upsertTransactions(db, WALLET, 'eth', page(10_000, 11_000))).immediate();
    const busy = () => (db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>)[0]!.busy;
    let busyDuring = -1;
    // While the export reads, its snapshot holds the WAL: a full checkpoint cannot finish.
    const file = sink(() => {
      db.transaction(() => upsertTransactions(db, WALLET, 'eth', page(11_000, 11_500))).immediate();
      busyDuring = busy();
    });
    await exportCsv(db, { report: 'transactions' }, file.out);
    expect(busyDuring).toBe(1);
    expect(busy()).toBe(0);

    const controller = new AbortController();
    const cancelled = sink(() => controller.abort());
    await expect(exportCsv(db, { report: 'transactions' }, cancelled.out, () => undefined, controller.signal)).rejects.toThrow('Export cancelled.');
    db.transaction(() => upsertTransactions(db, WALLET, 'eth', page(11_500, 12_000))).immediate();
    expect(busy()).toBe(0);
  });
});
