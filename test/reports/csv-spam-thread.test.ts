import { randomBytes } from 'node:crypto';
import { existsSync, renameSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { exportCsv } from '../../src/main/core/reports/csv-reports.ts';
import { spamWorkerEntry } from '../../src/main/core/reports/spam-cells.ts';
import { type FromSpamWorker, GATE_TAKE, GATE_TAKEN, type SpamWorkerData } from '../../src/main/core/reports/spam-cells-protocol.ts';
import { writeSpamMark } from '../../src/main/core/spam/index.ts';
import { openDatabase, type WritableDB } from '../../src/main/core/store/db.ts';
import { CacheKey } from '../../src/main/core/store/driver.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { transaction as transactionSchema, type Transaction } from '../../src/shared/service/schemas.ts';
import { CHAINS as SIM_CHAINS } from '../../src/sim/chains.ts';
import { startSimulator } from '../../src/sim/server.ts';
import { historyOf, transactionAt } from '../../src/sim/transactions.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET, WALLET_2 } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * The transactions export judges spam in a worker thread when it is large (reports/spam-cells.ts):
 * the file must be the same, byte for byte, as when the export judges every row itself, from the
 * same snapshot whatever is written while it runs, with an encrypted cache too, and a worker that
 * cannot open the file leaves the export to judge alone. Each export here says which thread
 * judged, so a test of the thread cannot pass with the thread unused.
 */
const CHAINS = ['eth', 'arb'];
const WALLETS = [WALLET, WALLET_2];
const THREAD = { workerFrom: 1 };
const HERE = { workerFrom: Infinity };

/** The simulator's hostile world (spam airdrops, poisoning, one payment to a lookalike), synced as a user syncs, then closed. */
async function hostileCache(): Promise<string> {
  const dir = tempDir();
  const core = await createCore({
    dataDir: dir,
    shell: 'web',
    baseUrl: null,
    demo: async (accessKey) => startSimulator({ accessKey, txnsPerWallet: 400, now: () => SIM_NOW, spam: true }),
    scheduleEveryMs: 0,
  });
  for (const w of WALLETS) await core.call('wallets.add', { address: w, chains: CHAINS });
  const jobs = [];
  for (const w of WALLETS) {
    jobs.push(await core.call('sync.transactions', { wallet: w }));
    jobs.push(await core.call('sync.backfill', { wallet: w, from: '2026-09-30', to: '2026-10-31', every: 'month' }));
  }
  await waitForJobs(core, jobs);
  core.close();
  return join(dir, 'demo.sqlite');
}

function sink(): { out: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      setImmediate(cb);
    },
  });
  return { out, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * The transactions CSV of `db`; `started` runs at the export's first word of progress: both
 * snapshots are taken then, and the worker has just begun (it reads the user's marks and the
 * rows after).
 */
async function exported(db: WritableDB, spam: typeof THREAD, started?: () => void): Promise<{ text: string; thread: boolean | undefined }> {
  const file = sink();
  let first = true;
  const progress = () => {
    if (first && started) started();
    first = false;
  };
  const { spamThread } = await exportCsv(db, { report: 'transactions' }, file.out, progress, undefined, spam);
  return { text: file.text(), thread: spamThread };
}

const spamCells = (text: string) => (parse(text, { columns: true, bom: true }) as Array<Record<string, string>>).map((r) => r['spam']!).filter(Boolean);

let path: string;
let db: WritableDB;
beforeAll(async () => {
  path = await hostileCache();
  db = openDatabase(path);
}, 300_000);
afterAll(() => db?.close());

describe('the spam column judged in a thread of its own', () => {
  it('writes the same bytes as the export judging every row itself, spam and the lookalike payment named', async () => {
    const here = await exported(db, HERE);
    const thread = await exported(db, THREAD);
    expect(here.thread).toBe(false);
    expect(thread.thread).toBe(true);
    expect(thread.text).toBe(here.text);
    const cells = spamCells(here.text);
    expect(cells.filter((c) => c.startsWith('spam (')).length).toBeGreaterThan(20);
    expect(cells.some((c) => c.startsWith('payment to a lookalike: '))).toBe(true);
  });

  it('runs bundled: out/main/csv-spam.js (electron-vite build) is found from the main bundle or a chunk, takes its snapshot at the gate and judges', async () => {
    const out = join(import.meta.dirname, '../../out/main');
    expect(existsSync(join(out, 'csv-spam.js')), 'run `npx electron-vite build` first').toBe(true);
    for (const from of [join(out, 'index.js'), join(out, 'chunks/spam-cells-x.js')])
      expect(fileURLToPath(spamWorkerEntry(pathToFileURL(from).href)[0])).toBe(join(out, 'csv-spam.js'));
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const data: SpamWorkerData = {
      path,
      key: null,
      filter: {},
      batch: 500,
      ahead: 1_000_000,
      progress: new SharedArrayBuffer(4),
      gate: gate.buffer as SharedArrayBuffer,
    };
    const worker = new Worker(join(out, 'csv-spam.js'), { workerData: data });
    const said: FromSpamWorker[] = [];
    const ended = new Promise((resolve) => worker.once('exit', resolve));
    worker.on('message', (m: FromSpamWorker) => {
      said.push(m);
      if (m.kind === 'loaded') {
        Atomics.store(gate, 0, GATE_TAKE);
        Atomics.notify(gate, 0);
      }
    });
    await ended;
    expect(Atomics.load(gate, 0)).toBe(GATE_TAKEN);
    const here = await exported(db, HERE);
    // A transaction's first line: transfer 0, or its only line when it moved nothing.
    const firsts = (parse(here.text, { columns: true, bom: true }) as Array<Record<string, string>>).filter(
      (r) => r['transfer_index'] === '0' || r['transfer_index'] === '',
    );
    const rows = firsts.length;
    expect(said[0]).toEqual({ kind: 'loaded' });
    expect(said[1]).toEqual({ kind: 'ready', rows });
    const batches = said.slice(2) as Array<Extract<FromSpamWorker, { kind: 'cells' }>>;
    expect(batches.at(-1)!.upTo).toBe(rows);
    // The same cells as the export's own judge, on the same rows (each as the CSV writes it).
    const cells = batches.flatMap((b) => b.cells.map(([i, cell]) => [i, (parse(cell) as string[][])[0]![0]]));
    expect(cells.length).toBeGreaterThan(20);
    expect(cells).toEqual(firsts.flatMap((r, i) => (r['spam'] ? [[i, r['spam']]] : [])));
  });

  // Last of the tests on the hostile cache: it calls every spam sender not spam.
  it('judges the snapshot it started on: verdicts and new rows written while it runs are in neither its rows nor its cells', async () => {
    const before = await exported(db, HERE);
    const flagged = spamCells(before.text).length;
    const senders = new Set(
      (parse(before.text, { columns: true, bom: true }) as Array<Record<string, string>>)
        .filter((r) => r['spam']!.startsWith('spam ('))
        .map((r) => r['from']!.toLowerCase()),
    );
    const more = historyOf(
      { seed: 11, txnsPerWallet: 300, historyStart: Date.UTC(2026, 0, 1) / 1000, historyEnd: Date.UTC(2026, 9, 1) / 1000 },
      WALLET,
      SIM_CHAINS[0]!,
    );
    const rows: Transaction[] = [];
    for (let i = 0; i < 300; i++) rows.push(transactionSchema.parse(transactionAt(more, i)));
    let wrote = 0;
    const during = await exported(db, THREAD, () => {
      // On the app's connection, as a user and a sync beside an export: every spam sender called
      // not spam (which changes verdicts), and new transactions.
      for (const target of senders)
        writeSpamMark(db, { kind: 'address', chain: null, target, wallet: null }, 'not-spam', 'test', new Date(Date.UTC(2026, 10, 1)));
      wrote = db.transaction(() => upsertTransactions(db, WALLET, 'eth', rows)).immediate();
    });
    expect(wrote).toBe(300);
    expect(during.thread).toBe(true);
    expect(during.text).toBe(before.text);
    // What was written is seen by the next export: fewer rows flagged, more rows (the test can fail).
    const after = await exported(db, THREAD);
    expect(spamCells(after.text).length).toBeLessThan(flagged);
    expect(after.text.length).toBeGreaterThan(before.text.length);
  });

  it('reads an encrypted cache with its key, and judges alone when the worker cannot open the file', async () => {
    const file = join(tempDir(), 'cache.sqlite');
    const key = new CacheKey(randomBytes(32));
    const enc = openDatabase(file, { key });
    try {
      addWallet(enc, { address: WALLET, chains: ['eth'] });
      const h = historyOf(
        { seed: 3, txnsPerWallet: 2_000, historyStart: Date.UTC(2025, 0, 1) / 1000, historyEnd: Date.UTC(2026, 0, 1) / 1000 },
        WALLET,
        SIM_CHAINS[0]!,
      );
      const rows: Transaction[] = [];
      for (let i = 0; i < 2_000; i++) rows.push(transactionSchema.parse(transactionAt(h, i)));
      // One airdrop whose symbol is a link: spam by its symbol alone.
      rows.push(
        transactionSchema.parse({
          ...transactionAt(h, 0),
          txn_hash: '0x' + 'ab'.repeat(32),
          from_addr: '0x' + '9'.repeat(40),
          to_addr: WALLET,
          details: [{ type: 'in', token_cid: '0x' + '7'.repeat(40), symbol: 'Visit claim-usdc.xyz', qty: 1000 }],
        }),
      );
      enc.transaction(() => upsertTransactions(enc, WALLET, 'eth', rows)).immediate();
      const here = await exported(enc, HERE);
      const thread = await exported(enc, THREAD);
      expect(thread.thread).toBe(true);
      expect(thread.text).toBe(here.text);
      expect(spamCells(here.text).length).toBeGreaterThan(0);
      // The file moved once the export has its reader open: the worker cannot open it, the export
      // (whose connection still reads it) judges every row itself, to the same bytes.
      const out = sink();
      const running = exportCsv(enc, { report: 'transactions' }, out.out, undefined, undefined, THREAD);
      renameSync(file, `${file}.moved`);
      const { spamThread } = await running;
      renameSync(`${file}.moved`, file);
      expect(spamThread).toBe(false);
      expect(out.text()).toBe(here.text);
    } finally {
      enc.close();
    }
  });
});
