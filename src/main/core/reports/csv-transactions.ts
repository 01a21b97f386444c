import type { ScopedTimelineFilter } from '../store/queries/timeline.ts';
import type { ReadableDB } from '../store/db.ts';
import { countExportTransactions, exportTransactionRows, openExportReader } from '../store/queries/transaction-export.ts';
import { listWallets } from '../store/wallets.ts';
import { listTransactionChanges } from '../store/restatements.ts';
import { csvCell, csvText, type CsvWriter } from './csv.ts';
import { parsedTransferCells, transferCells } from './csv-transfers.ts';
import { counterpartyKind, counterpartyNamer } from '../counterparties/namer.ts';

/**
 * The transactions report: one line per transfer (a transaction without transfers still gets
 * one), oldest first. This loop runs once per cached transaction, a million times for a large
 * cache, so it does per row only what differs per row: the wallet's cells and label are
 * formatted once per wallet, the transfers are read from their JSON text without JSON.parse
 * (csv-transfers.ts), and a transaction's lines are appended to the writer as one string.
 * test/reports/csv-golden.test.ts holds the bytes this must write.
 */
export async function writeTransactionsCsv(
  db: ReadableDB,
  filter: ScopedTimelineFilter,
  writer: CsvWriter,
  onProgress: (done: number, total: number | null) => void,
  check: () => void,
): Promise<void> {
  const reader = openExportReader(db);
  try {
    // Labels, count and rows from one snapshot (see openExportReader).
    const labels = new Map(listWallets(reader.db).map((w) => [w.address, w.label]));
    const total = countExportTransactions(reader.db, filter);
    onProgress(0, total);
    // Restated after first seen (the change log, newest word per transaction): a column of its own.
    const restated = new Map<string, string>();
    for (const c of listTransactionChanges(reader.db, { limit: 1_000_000 }))
      if (c.kind !== 'removed' && !restated.has(`${c.wallet}|${c.chain}|${c.txnHash}`))
        restated.set(`${c.wallet}|${c.chain}|${c.txnHash}`, csvCell(c.kind === 'late' ? 'indexed late' : `changed: ${(c.fields ?? []).join(' ')}`));
    // The names of from and to (the address book, watched wallets) and what the other end is:
    // the last three columns. A name's cell is made once per address and chain.
    const namer = counterpartyNamer(reader.db);
    const nameCells = new Map<string, string>();
    const nameCell = (address: string | null, chain: string): string => {
      if (address === null) return '';
      const key = `${chain}|${address}`;
      let c = nameCells.get(key);
      if (c === undefined) nameCells.set(key, (c = csvCell(namer(address, chain)?.name ?? '')));
      return c;
    };
    const walletCells = new Map<string, string>();
    const transfers: string[] = [];
    let done = 0;
    for (const r of exportTransactionRows(reader.db, filter)) {
      const wallet = r[1];
      let walletAndLabel = walletCells.get(wallet);
      if (walletAndLabel === undefined) {
        walletAndLabel = `${csvText(wallet)},${csvCell(labels.get(wallet) ?? '')}`;
        walletCells.set(wallet, walletAndLabel);
      }
      // One flat string, written once (a template of ~30 parts would be a rope to flatten on write).
      const head = [
        csvCell(r[0]),
        walletAndLabel,
        csvText(r[2]),
        csvText(r[3]),
        csvCell(r[4]),
        csvCell(r[5]),
        csvCell(r[6]),
        csvCell(r[7]),
        csvCell(r[8]),
        csvCell(r[9]),
        csvCell(r[10]),
        csvCell(r[11]),
        csvCell(r[12]),
      ].join(',');
      const fees = `${csvCell(r[13])},${csvCell(r[14])}`;
      let count = transferCells(r[15], transfers);
      if (count < 0) count = parsedTransferCells(r[15], transfers);
      // Fees on the transaction's first line only, so summing the column counts each fee once.
      const change = restated.size ? (restated.get(`${wallet}|${r[2]}|${r[3]}`) ?? '') : '';
      const parties = `${nameCell(r[9], r[2])},${nameCell(r[11], r[2])},${counterpartyKind(namer, { wallet, chain: r[2], from: r[9], to: r[11] }).kind}`;
      let lines: string;
      if (count === 0) lines = `${head},${fees},,,,,,${change},${parties}\r\n`;
      else {
        lines = `${head},${fees},0,${transfers[0]},${change},${parties}\r\n`;
        for (let i = 1; i < count; i++) lines += `${head},,,${i},${transfers[i]},${change},${parties}\r\n`;
      }
      // Synchronous until the writer's chunk is full; then it waits for the file (backpressure).
      if (writer.pushLines(lines, count || 1)) await writer.flush();
      if (++done % 10_000 === 0) {
        check();
        onProgress(done, total);
      }
    }
    onProgress(done, total);
  } finally {
    reader.close();
  }
}
