/**
 * Encryption at rest beside the plain store, in the same run (issue 29 item 1): the ingest,
 * the timeline and the CSV export, each measured on a plain cache and on the same cache
 * encrypted (SQLite3MC's AEGIS-256, a raw 256-bit key), interleaved so both sides
 * see the same machine load. Also the one-time conversion of the 1M-row cache.
 */
import Driver from 'better-sqlite3-multiple-ciphers';
import { randomBytes } from 'node:crypto';
import { copyFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type WritableDB } from '../src/main/core/store/db.ts';
import { CacheKey } from '../src/main/core/store/driver.ts';
import { convertCache, finishConversions } from '../src/main/core/store/cache-conversion.ts';
import { timelinePage } from '../src/main/core/ledger/store/timeline.ts';
import { transactionRecord } from '../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../src/main/core/store/wallets.ts';
import { openWriterConnection } from '../src/main/core/transactions/store/writer-connection.ts';
import { type Transaction, transactionHistory } from '../src/shared/service/schemas.ts';
import { CHAINS } from '../src/sim/chains.ts';
import { historyOf, transactionAt } from '../src/sim/transactions.ts';
import { bareInserter } from './ingest.ts';
import { DATA_DIR, fmt, percentile, report, timeRuns } from './lib.ts';
import { ours } from './reports.ts';
import { storeWriter } from './store-writer.ts';
import { cursorAt, timelineCache, timelineCases } from './timeline.ts';

const WALLET = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const PAGE = 1000;

function fresh(name: string, key: CacheKey | null): WritableDB {
  const path = join(DATA_DIR, name);
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  return openDatabase(path, { key });
}

const ratio = (plain: number, enc: number) => `${fmt(enc / plain, 2)} ×`;

/** Ingest: the store's write path on a plain and on an encrypted cache, slice by slice, beside a bare INSERT. */
function ingest(key: CacheKey, totalRows: number, slice: number): Array<[string, string]> {
  const h = historyOf(
    { seed: 1, txnsPerWallet: totalRows, historyStart: Date.UTC(2018, 0, 1) / 1000, historyEnd: Date.UTC(2026, 10, 1) / 1000 },
    WALLET,
    CHAINS[0]!,
  );
  // The physical limit on each side: a bare index-free INSERT into a plain and into an encrypted file.
  const bares = (['plain', 'encrypted'] as const).map((side) => {
    const db = fresh(`enc-ingest-bare-${side}.sqlite`, side === 'encrypted' ? key : null);
    return { db, insert: bareInserter(db), ms: 0 };
  });
  const writers = (['plain', 'encrypted'] as const).map((side) => {
    const made = fresh(`enc-ingest-${side}.sqlite`, side === 'encrypted' ? key : null);
    addWallet(made, { address: WALLET, chains: ['eth'] });
    made.close();
    const db = openWriterConnection(made.name, side === 'encrypted' ? key : null);
    return { side, db, store: storeWriter(db, WALLET, 'eth'), ms: 0 };
  });
  for (let at = 0; at < totalRows; at += slice) {
    const pages: Transaction[][] = [];
    for (let p = at; p < at + slice; p += PAGE) {
      const json: string[] = [];
      for (let i = p; i < p + PAGE; i++) json.push(JSON.stringify(transactionAt(h, totalRows - 1 - i)));
      pages.push(
        transactionHistory.parse({ transaction_history: JSON.parse(`[${json.join(',')}]`), start_block: null, end_block: null, completion_ratio: 1 })
          .transaction_history,
      );
    }
    const records = pages.flat().map((t) => transactionRecord(WALLET, 'eth', t));
    for (const b of bares) {
      const t = performance.now();
      for (let i = 0; i < records.length; i += writers[0]!.store.batchRows) b.insert(records.slice(i, i + writers[0]!.store.batchRows));
      b.ms += performance.now() - t;
    }
    // Alternating which side goes first, so neither always writes into a warmer page cache.
    for (const w of (at / slice) % 2 ? [...writers].reverse() : writers) {
      const t = performance.now();
      for (const page of pages) w.store.page(page);
      w.store.flush();
      w.ms += performance.now() - t;
    }
  }
  const rate = (ms: number) => totalRows / (ms / 1000);
  const [plain, enc] = writers as [(typeof writers)[0], (typeof writers)[0]];
  const sizes = writers.map((w) => statSync(w.db.name).size / 2 ** 20);
  for (const w of writers) w.db.close();
  for (const b of bares) b.db.close();
  const [barePlain, bareEnc] = bares as [(typeof bares)[0], (typeof bares)[0]];
  return [
    [
      'bare index-free INSERT, plain / encrypted',
      `${fmt(rate(barePlain.ms), 0)} / ${fmt(rate(bareEnc.ms), 0)} rows/s = ${ratio(barePlain.ms, bareEnc.ms)} the time`,
    ],
    ['store, plain', `${fmt(rate(plain.ms), 0)} rows/s = ${fmt((100 * rate(plain.ms)) / rate(barePlain.ms), 1)} % of the plain bare INSERT (target ≥ 35 %)`],
    [
      'store, encrypted',
      `${fmt(rate(enc.ms), 0)} rows/s = ${fmt((100 * rate(enc.ms)) / rate(bareEnc.ms), 1)} % of the encrypted bare INSERT, ${fmt((100 * rate(enc.ms)) / rate(barePlain.ms), 1)} % of the plain one`,
    ],
    ['store encrypted ÷ plain, time', ratio(plain.ms, enc.ms)],
    ['file size plain / encrypted', `${fmt(sizes[0]!, 0)} / ${fmt(sizes[1]!, 0)} MiB (before the last checkpoint)`],
  ];
}

/**
 * SQLite3MC's ciphers on one small workload, to choose among them: 200,000 rows of a random
 * 64-hex key and 200 bytes into a table with an index on the key (16 KiB pages, WAL, a 16 MiB
 * page cache, 5,000-row transactions), reopened, then a full scan and 20,000 random lookups.
 * Each cipher is given the same raw key; plain first and last, to show the drift of the run.
 */
function ciphers(): Array<[string, string]> {
  const raw = Buffer.from(`x'${randomBytes(32).toString('hex')}'`, 'latin1');
  const rows = Array.from({ length: 200_000 }, (_, i) => [randomBytes(32).toString('hex'), i, 'x'.repeat(200)] as const);
  const out: Array<[string, string]> = [];
  for (const cipher of [null, 'aegis', 'chacha20', 'sqlcipher', 'aes256cbc', 'ascon128', null]) {
    const path = join(DATA_DIR, `enc-cipher-${cipher ?? 'plain'}.sqlite`);
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    const open = () => {
      const db = new Driver(path);
      if (cipher) {
        db.pragma(`cipher = '${cipher}'`);
        db.key(raw);
      }
      db.pragma('page_size = 16384');
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('cache_size = -16384');
      return db;
    };
    let db = open();
    db.exec('CREATE TABLE t (h TEXT, n INTEGER, body TEXT); CREATE INDEX t_h ON t (h)');
    const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?)');
    let t = performance.now();
    for (let b = 0; b < rows.length; b += 5000)
      db.transaction(() => {
        for (let i = b; i < b + 5000; i++) insert.run(rows[i]!);
      })();
    const write = performance.now() - t;
    db.close();
    db = open();
    t = performance.now();
    db.prepare('SELECT count(*), sum(length(body)) FROM t').get();
    const scan = performance.now() - t;
    const find = db.prepare('SELECT * FROM t WHERE h = ?');
    t = performance.now();
    for (let i = 0; i < 20_000; i++) find.get(rows[(i * 7919) % rows.length]![0]);
    const lookups = performance.now() - t;
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    out.push([cipher ?? 'plain', `write ${fmt(write, 0)} ms, scan ${fmt(scan, 0)} ms, 20,000 lookups ${fmt(lookups, 0)} ms`]);
  }
  return out;
}

export async function encryptionBench(ingestRows = 300_000): Promise<void> {
  const key = new CacheKey(randomBytes(32));
  report("SQLite3MC's ciphers, one workload (200,000 indexed rows written, scanned, looked up 20,000 times), same run", ciphers());
  report(`Ingest ${ingestRows.toLocaleString('en-US')} transactions: plain beside encrypted, same run`, ingest(key, ingestRows, 100_000));

  // The 1M-row cache of the timeline bench, and a copy of it converted as `cache encrypt` does.
  const plainDb = timelineCache();
  plainDb.pragma('wal_checkpoint(TRUNCATE)');
  plainDb.close();
  const plainPath = join(DATA_DIR, 'timeline-1m.sqlite');
  const encPath = join(DATA_DIR, 'timeline-1m-encrypted.sqlite');
  for (const suffix of ['', '-wal', '-shm']) rmSync(encPath + suffix, { force: true });
  const tc = performance.now();
  copyFileSync(plainPath, encPath);
  const copyMs = performance.now() - tc;
  const t0 = performance.now();
  convertCache(encPath, null, key);
  finishConversions(encPath);
  const convertMs = performance.now() - t0;
  // A change of key (cache rekey): the same conversion from one key to another, on a copy.
  const rekeyPath = join(DATA_DIR, 'timeline-1m-rekeyed.sqlite');
  for (const suffix of ['', '-wal', '-shm']) rmSync(rekeyPath + suffix, { force: true });
  copyFileSync(encPath, rekeyPath);
  const t1 = performance.now();
  convertCache(rekeyPath, key, new CacheKey(randomBytes(32)));
  finishConversions(rekeyPath);
  const rekeyMs = performance.now() - t1;
  rmSync(rekeyPath, { force: true });
  report('Turning encryption on for the 1,000,000-row cache (cache encrypt: copy, rekey, check every table, swap)', [
    ['cache size', `${fmt(statSync(plainPath).size / 2 ** 20, 0)} MiB plain, ${fmt(statSync(encPath).size / 2 ** 20, 0)} MiB encrypted`],
    ['convertCache', `${fmt(convertMs / 1000, 2)} s (a bare copyFileSync of the same file: ${fmt(copyMs / 1000, 2)} s)`],
    ['a change of key (cache rekey, the same steps from one key to another)', `${fmt(rekeyMs / 1000, 2)} s`],
  ]);

  // Timeline pages on both, case by case, interleaved.
  const dbs = { plain: openDatabase(plainPath), encrypted: openDatabase(encPath, { key }) };
  const rows: Array<[string, string]> = [];
  let worst = { plain: 0, encrypted: 0 };
  for (const [name, q, depth] of timelineCases(dbs.plain)) {
    const cursor = depth ? cursorAt(dbs.plain, q, depth) : null;
    const p95 = { plain: 0, encrypted: 0 };
    for (const side of ['plain', 'encrypted', 'plain', 'encrypted'] as const) {
      const times = timeRuns(100, () => timelinePage(dbs[side], { ...q, cursor, limit: 100 }));
      p95[side] = Math.max(p95[side], percentile(times, 95));
    }
    worst = { plain: Math.max(worst.plain, p95.plain), encrypted: Math.max(worst.encrypted, p95.encrypted) };
    rows.push([name, `p95 plain ${fmt(p95.plain, 3)} ms, encrypted ${fmt(p95.encrypted, 3)} ms = ${ratio(p95.plain, p95.encrypted)}`]);
  }
  rows.push(['worst p95', `plain ${fmt(worst.plain, 3)} ms, encrypted ${fmt(worst.encrypted, 3)} ms (target < 5 ms)`]);
  // A cold connection: the first page of a new connection, whose page cache is empty.
  const firstPage = (path: string, k: CacheKey | null) =>
    timeRuns(
      20,
      () => {
        const db = openDatabase(path, { key: k });
        timelinePage(db, { limit: 100 });
        db.close();
      },
      2,
    );
  const coldPlain = firstPage(plainPath, null);
  const coldEnc = firstPage(encPath, key);
  rows.push([
    'open + first page (a new connection)',
    `p50 plain ${fmt(percentile(coldPlain, 50), 2)} ms, encrypted ${fmt(percentile(coldEnc, 50), 2)} ms (the open includes no quick_check above 64 MiB)`,
  ]);
  dbs.plain.close();
  dbs.encrypted.close();
  report('Timeline page of 100 rows over 1,000,000 cached rows: plain beside encrypted, same run, 2 × 100 runs a side', rows);

  // CSV export of every transaction, each in a process of its own, alternating.
  const csv: Array<[string, string]> = [];
  const MB = 1e6;
  for (let run = 1; run <= 2; run++) {
    const p = await ours(plainPath);
    const e = await ours(encPath, key.hex());
    csv.push([
      `run ${run}`,
      `plain ${fmt(p.rows / (p.ms / 1000), 0)} lines/s, ${fmt(p.ms / 1000, 2)} s, peak RSS ${fmt(p.peakRss / MB, 0)} MB; encrypted ${fmt(e.rows / (e.ms / 1000), 0)} lines/s, ${fmt(e.ms / 1000, 2)} s, peak RSS ${fmt(e.peakRss / MB, 0)} MB = ${ratio(p.ms, e.ms)}`,
    ]);
  }
  csv.push(['targets', '≥ 200k rows/s, peak RSS < 300 MB']);
  report('CSV export of 1,000,000 transactions: plain beside encrypted, same run', csv);
  for (const suffix of ['', '-wal', '-shm']) rmSync(encPath + suffix, { force: true });
}
