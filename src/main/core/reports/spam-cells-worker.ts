/**
 * The spam judge of a transactions export, in a worker thread (spam-cells.ts says why and how):
 * it reads the export's rows on a connection of its own, from the same snapshot as the export
 * (the export holds writers off until this thread has taken it), judges each, and sends back the
 * cells of the rows that have one, in batches, with the identity of each batch's last row.
 *
 * It runs from source under tsx's loader (tests, CLI, web shell) and bundled as
 * out/main/csv-spam.js (electron-vite, see electron.vite.config.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { countExportTransactions, exportJudgedRows, type JudgedExportRow, openExportReaderAt, takeSnapshot } from '../ledger/index.ts';
import { spamJudge } from '../spam/index.ts';
import { CacheKey } from '../store/driver.ts';
import { rowIdentity, spamCell } from './spam-cell.ts';
import { GATE_TAKE, GATE_TAKEN, GATE_WAIT, type FromSpamWorker, type SpamWorkerData } from './spam-cells-protocol.ts';

const parent = parentPort!;
// An encrypted cache's key comes as hex in workerData (never in a message or a log line).
const { path, key, filter, batch, ahead, progress, gate: gateBuffer } = workerData as SpamWorkerData;
const say = (m: FromSpamWorker) => parent.postMessage(m);

try {
  const reader = openExportReaderAt(path, key ? CacheKey.fromHex(key) : null);
  say({ kind: 'loaded' });
  // The snapshot: taken by the first read when the export says (it holds writers off until then).
  const gate = new Int32Array(gateBuffer);
  while (Atomics.load(gate, 0) === GATE_WAIT) Atomics.wait(gate, 0, GATE_WAIT, 1000);
  if (Atomics.load(gate, 0) !== GATE_TAKE) throw new Error('the export judges its rows itself');
  takeSnapshot(reader);
  // Taken only if the export still waits for it (not given up, the lock still held).
  if (Atomics.compareExchange(gate, 0, GATE_TAKE, GATE_TAKEN) !== GATE_TAKE) throw new Error('the export judges its rows itself');
  Atomics.notify(gate, 0);
  // Its count, checked against the export's.
  say({ kind: 'ready', rows: countExportTransactions(reader.db, filter) });
  const at = new Int32Array(progress);
  const judge = spamJudge(reader.db, { whole: true, ...(filter.wallets && { wallets: filter.wallets }) });
  let cells: Array<[number, string]> = [];
  let i = 0;
  let prev: JudgedExportRow | null = null;
  for (const r of exportJudgedRows(reader.db, filter)) {
    const cell = spamCell(judge, r);
    if (cell) cells.push([i, cell]);
    prev = r;
    if (++i % batch === 0) {
      say({ kind: 'cells', upTo: i, last: rowIdentity(r[0], r[1], r[2]), cells });
      cells = [];
      // Never more than `ahead` rows before the export: what waits to be written stays bounded.
      for (let reached = Atomics.load(at, 0); i - reached > ahead; reached = Atomics.load(at, 0)) Atomics.wait(at, 0, reached, 1000);
    }
  }
  say({ kind: 'cells', upTo: i, last: prev && rowIdentity(prev[0], prev[1], prev[2]), cells });
  reader.close();
} catch (err) {
  say({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
}
parent.close();
