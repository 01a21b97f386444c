import { type ScopedTimelineFilter, countExportTransactions, exportTransactionRows, openExportReader } from '../ledger/index.ts';
import { listTransactionChanges } from '../transactions/index.ts';
import type { ReadableDB } from '../store/db.ts';
import { listWallets } from '../store/wallets.ts';
import { csvCell, csvText, type CsvWriter } from './csv.ts';
import { parsedTransferCells, transferCells } from './csv-transfers.ts';
import { counterpartyNamer } from '../counterparties/index.ts';
import { addressKey } from '../store/address-key.ts';
import { spamCells, type SpamCells, type SpamCellsOptions } from './spam-cells.ts';

/** An address of a from or to column, as the export writes its name and judges its kind. */
interface End {
  cell: string;
  key: string;
  named: boolean;
  ours: boolean;
}

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
  options: SpamCellsOptions = {},
): Promise<{ spamThread: boolean }> {
  const reader = openExportReader(db);
  let spam: SpamCells | undefined;
  try {
    // Spam is kept in the sheet and said on its lines (docs/spam.md): the verdict, or the poisoning
    // guard's finding on a payment to a lookalike, as the timeline shows them (spam-cell.ts). The
    // reader's first read is made there: a worker that judges takes the same snapshot.
    spam = await spamCells(db, reader, filter, options);
    // Labels, count and rows from one snapshot (see openExportReader).
    const labels = new Map(listWallets(reader.db).map((w) => [w.address, w.label]));
    const total = countExportTransactions(reader.db, filter);
    spam.expect(total);
    onProgress(0, total);
    // Restated after first seen (the change log, newest word per transaction): a column of its own.
    const restated = new Map<string, string>();
    for (const c of listTransactionChanges(reader.db, { limit: 1_000_000 }))
      if (c.kind !== 'removed' && !restated.has(`${c.wallet}|${c.chain}|${c.txnHash}`))
        restated.set(`${c.wallet}|${c.chain}|${c.txnHash}`, csvCell(c.kind === 'late' ? 'indexed late' : `changed: ${(c.fields ?? []).join(' ')}`));
    // The names of from and to (the address book, watched wallets) and what the other end is:
    // the last three columns. Each address is looked up once per chain (its name's cell, its
    // canonical form, whether it is named and ours), so a row costs two map reads, not the
    // namer's normalising and lookups (which added a third to the export's CPU time).
    const namer = counterpartyNamer(reader.db);
    const ends = new Map<string, Map<string, End>>();
    const partyCells = new Map<string, Map<End | null, Map<End | null, string>>>();
    const endOf = (address: string, chainEnds: Map<string, End>, chain: string): End => {
      let e = chainEnds.get(address);
      if (e === undefined) {
        const n = namer(address, chain);
        chainEnds.set(address, (e = { cell: csvCell(n?.name ?? ''), key: addressKey(address), named: n !== null, ours: n?.ours ?? false }));
      }
      return e;
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
      let chainEnds = ends.get(r[2]);
      if (chainEnds === undefined) ends.set(r[2], (chainEnds = new Map()));
      const from = r[9] === null ? null : endOf(r[9], chainEnds, r[2]);
      const to = r[11] === null ? null : endOf(r[11], chainEnds, r[2]);
      // The three cells, made once per wallet and pair of ends (a few thousand pairs in a million rows).
      let byFrom = partyCells.get(wallet);
      if (byFrom === undefined) partyCells.set(wallet, (byFrom = new Map()));
      let byTo = byFrom.get(from);
      if (byTo === undefined) byFrom.set(from, (byTo = new Map()));
      let parties = byTo.get(to);
      if (parties === undefined) {
        // As counterpartyKind (counterparties/namer.ts): the end that is not the wallet.
        const other = from !== null && from.key === wallet ? to : to !== null && to.key === wallet ? from : (to ?? from);
        const kind = other === null ? 'unknown' : other.key === wallet || other.ours ? 'internal' : other.named ? 'book' : 'unknown';
        byTo.set(to, (parties = `${from === null ? '' : from.cell},${to === null ? '' : to.cell},${kind}`));
      }
      // The category, its source and the note, after every earlier column (issue 28), on each line.
      // The worker's cell (spam-cells.ts), waited for when it has not judged this row yet.
      let spamCell = spam.cell(done, r);
      if (spamCell === undefined) {
        await spam.until(done);
        spamCell = spam.cell(done, r)!;
      }
      const books = `${r[16] === null && r[18] === null ? ',,' : `${csvCell(r[16])},${csvCell(r[17])},${csvCell(r[18])}`},${spamCell}`;
      let lines: string;
      if (count === 0) lines = `${head},${fees},,,,,,${change},${parties},${books}\r\n`;
      else {
        lines = `${head},${fees},0,${transfers[0]},${change},${parties},${books}\r\n`;
        for (let i = 1; i < count; i++) lines += `${head},,,${i},${transfers[i]},${change},${parties},${books}\r\n`;
      }
      // Synchronous until the writer's chunk is full; then it waits for the file (backpressure).
      if (writer.pushLines(lines, count || 1)) await writer.flush();
      if (++done % 10_000 === 0) {
        check();
        onProgress(done, total);
      }
    }
    onProgress(done, total);
    return { spamThread: spam.thread };
  } finally {
    // Its thread ended (a failed export's too) before the reader is closed.
    spam?.close();
    reader.close();
  }
}
