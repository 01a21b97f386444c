/**
 * Compiled by `npm run typecheck` (not run by vitest): the branded handles hold. A report is
 * handed a `ReadableDB`, and every `@ts-expect-error` below must meet an error, so if a write
 * function ever accepted a `ReadableDB` (or a report took a `WritableDB`) the check fails with
 * "Unused '@ts-expect-error' directive".
 */
import type { Database } from 'better-sqlite3-multiple-ciphers';
import type { ReadableDB, WritableDB } from '../../src/main/core/store/db.ts';
import type { exportCsv } from '../../src/main/core/reports/csv-reports.ts';
import type { exportIcs, unlocksIcs } from '../../src/main/core/reports/ics.ts';
import type { buildReportModel } from '../../src/main/core/reports/pdf-model.ts';
import type { exportPdf } from '../../src/main/core/reports/pdf.ts';
import type { startExport } from '../../src/main/core/reports/export-job.ts';
import { addWallet, listWallets } from '../../src/main/core/store/wallets.ts';
import { insertSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { saveRange, upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { updateSettings } from '../../src/main/core/store/settings.ts';
import { timelinePage } from '../../src/main/core/ledger/store/timeline.ts';
import { WriteBatch } from '../../src/main/core/transactions/store/write-batch.ts';
import { refreshTransferDays } from '../../src/main/core/transactions/store/transfer-days.ts';
import { refreshTransferDaysFor } from '../../src/main/core/transactions/store/transfer-days-refresh.ts';
import { reconcile } from '../../src/main/core/analytics/store/reconcile.ts';

/** What each report is handed: its first parameter. */
type ReportHandles = [
  Parameters<typeof exportCsv>[0],
  Parameters<typeof exportIcs>[0],
  Parameters<typeof unlocksIcs>[0],
  Parameters<typeof buildReportModel>[0],
  Parameters<typeof exportPdf>[0],
  Parameters<typeof startExport>[0],
];

/** A report's code: it may read, and none of the store's writes compiles. */
export function reportSide(db: ReportHandles[number]): void {
  listWallets(db);
  timelinePage(db, {});
  // @ts-expect-error a report's handle cannot add a wallet
  addWallet(db, { address: '0xw', chains: ['eth'] });
  // @ts-expect-error nor insert a snapshot
  insertSnapshot(db, null as unknown as Parameters<typeof insertSnapshot>[1]);
  // @ts-expect-error nor write transactions
  upsertTransactions(db, '0xw', 'eth', []);
  // @ts-expect-error nor a sync range
  saveRange(db, null as unknown as Parameters<typeof saveRange>[1]);
  // @ts-expect-error nor settings
  updateSettings(db, {});
  // @ts-expect-error nor open a write batch
  new WriteBatch(db, { maxRows: 1, maxMs: 1 });
  // A reconciliation reads; the daily sums it reads are kept by the writer side only.
  reconcile(db, { wallets: [], from: '2025-01-01', to: '2025-01-02' });
  // @ts-expect-error a report cannot keep the daily transfer sums
  refreshTransferDays(db, []);
  // @ts-expect-error nor those of a wallet list
  refreshTransferDaysFor(db);
}

/** Each report's parameter is exactly a ReadableDB: not a writable one in disguise. */
export function reportsTakeReadable(readable: ReadableDB): ReportHandles[number] {
  // @ts-expect-error a report's handle is not writable
  const writable: WritableDB = readable as ReportHandles[number];
  void writable;
  return readable;
}

/** The core's handle is writable and, being one, also readable: it is passed to reports as it is. */
export function coreSide(db: WritableDB): ReadableDB {
  addWallet(db, { address: '0xw', chains: ['eth'] });
  return db;
}

/** A bare connection carries neither brand: it must be opened through `openDatabase`. */
export function bare(db: Database): void {
  // @ts-expect-error an unbranded connection is not a store handle
  listWallets(db);
}
