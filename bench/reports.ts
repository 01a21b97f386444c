import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { exportCsv } from '../src/main/core/reports/csv-reports.ts';
import { writeAtomically } from '../src/main/core/reports/files.ts';
import { exportPdf } from '../src/main/core/reports/pdf.ts';
import { openDatabase } from '../src/main/core/store/db.ts';
import { insertSnapshot } from '../src/main/core/store/snapshots.ts';
import { upsertTransactions } from '../src/main/core/store/transactions.ts';
import { addWallet, listWallets } from '../src/main/core/store/wallets.ts';
import { successMessage } from '../src/shared/service/endpoints.ts';
import { type Transaction, positionSnapshot, transaction as transactionSchema } from '../src/shared/service/schemas.ts';
import { CHAINS } from '../src/sim/chains.ts';
import { DAY_MS, positionsOn } from '../src/sim/positions.ts';
import { defaultHistory, historyOf, transactionAt } from '../src/sim/transactions.ts';
import { allPositionsView } from '../src/sim/views.ts';
import { DATA_DIR, fmt, report } from './lib.ts';

/**
 * CSV: rows/s and peak RSS exporting 1,000,000 transactions (target ≥ 200k rows/s, < 300 MB).
 * PDF: time of a report with ~200 positions and ~1,000 transactions (target < 2 s).
 */
export async function csvBench(): Promise<void> {
  const path = join(DATA_DIR, 'timeline-1m.sqlite');
  if (!existsSync(path)) {
    console.log('  (run `npm run bench -- timeline` first: it builds the 1,000,000-row cache)');
    const { timelineBench } = await import('./timeline.ts');
    await timelineBench();
  }
  const db = openDatabase(path);
  const total = (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _e, cb) {
      bytes += chunk.length;
      cb();
    },
  });
  const t = performance.now();
  const { rows } = await exportCsv(db, { report: 'transactions' }, sink);
  const ms = performance.now() - t;
  clearInterval(sampler);
  db.close();
  report(`CSV export of ${total.toLocaleString('en-US')} transactions`, [
    ['rows written', `${rows.toLocaleString('en-US')} (one per transfer) in ${fmt(ms / 1000, 2)} s, ${fmt(bytes / 2 ** 20, 0)} MiB`],
    ['throughput', `${fmt(total / (ms / 1000), 0)} transactions/s, ${fmt(rows / (ms / 1000), 0)} rows/s (target ≥ 200,000 rows/s)`],
    ['peak RSS', `${fmt(peakRss / 2 ** 20, 0)} MiB (target < 300 MB)`],
  ]);
}

export async function pdfBench(): Promise<void> {
  const path = join(DATA_DIR, 'pdf.sqlite');
  for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
  const db = openDatabase(path);
  const date = '2025-12-31';
  const day = Date.parse(date) / DAY_MS;
  // 20 wallets, 1,000 transactions in December; positions for 6 of them on two chains: about
  // 220 positions at the date (each chain of a wallet now holds ~12 token balances, one per token
  // its transactions move, besides its protocol positions).
  for (let w = 0; w < 20; w++) {
    const wallet = '0x' + (w + 1).toString(16).padStart(40, 'c');
    addWallet(db, { address: wallet, chains: ['eth', 'arb'], label: `Wallet ${w + 1}` });
    for (const chain of w < 6 ? [CHAINS[0]!, CHAINS[1]!] : []) {
      const data = [{ wallet_id: wallet, date: `${date}T00:00:00Z`, positions: allPositionsView(chain.id, positionsOn(defaultHistory(1), wallet, chain, day)) }];
      const body = JSON.stringify({ status: 'OK', data, message: successMessage('allPositions', `bench${w}`) });
      const response = { endpoint: 'allPositions' as const, data: data.map((d) => positionSnapshot.parse(d)), message: '', requestId: `bench${w}`, total: null, body, url: '', fetchedAt: '2026-01-01T00:00:00.000Z', attempts: 1 };
      insertSnapshot(db, { endpoint: 'allPositions', wallet, chain: chain.id, requestedDate: date, response });
    }
    const h = historyOf({ seed: 2, txnsPerWallet: 600, historyStart: Date.UTC(2025, 0, 1) / 1000, historyEnd: Date.UTC(2026, 0, 1) / 1000 }, wallet, CHAINS[0]!);
    const rows: Transaction[] = [];
    for (let i = 0; i < 600; i++) rows.push(transactionSchema.parse(transactionAt(h, i)));
    db.transaction(() => upsertTransactions(db, wallet, 'eth', rows)).immediate();
  }
  const positions = (db.prepare("SELECT sum(position_count) AS n FROM snapshots WHERE endpoint = 'allPositions'").get() as { n: number }).n;
  const out = join(DATA_DIR, 'bench-report.pdf');
  const runs: number[] = [];
  let pages = 0;
  let txns = 0;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const r = await writeAtomically(out, (stream) => exportPdf(db, { date, from: '2025-12-01', to: date }, stream));
    runs.push(performance.now() - t);
    pages = r.pages;
    txns = r.model.transactionsTotal;
  }
  db.close();
  report(`PDF report: ${positions} positions, ${txns} transactions (${listWalletsCount(path)} wallets)`, [
    ['time', `${runs.map((r) => `${fmt(r, 0)} ms`).join(', ')} (target < 2 s)`],
    ['output', `${pages} pages, ${fmt(statSync(out).size / 1024, 0)} KiB`],
  ]);
}

function listWalletsCount(path: string): number {
  const db = openDatabase(path);
  const n = listWallets(db).length;
  db.close();
  return n;
}
