import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomically } from '../src/main/core/reports/files.ts';
import { exportPdf } from '../src/main/core/reports/pdf.ts';
import { openDatabase } from '../src/main/core/store/db.ts';
import { insertSnapshot } from '../src/main/core/positions/store/snapshots.ts';
import { upsertTransactions } from '../src/main/core/transactions/store/transactions.ts';
import { refreshTransferDays } from '../src/main/core/transactions/store/transfer-days.ts';
import { addWallet, listWallets, updateWallet } from '../src/main/core/store/wallets.ts';
import { successMessage } from '../src/shared/service/endpoints.ts';
import { type Transaction, positionSnapshot, transaction as transactionSchema } from '../src/shared/service/schemas.ts';
import { CHAINS } from '../src/sim/chains.ts';
import { DAY_MS, positionsOn } from '../src/sim/positions.ts';
import { defaultHistory, historyOf, transactionAt } from '../src/sim/transactions.ts';
import { allPositionsView } from '../src/sim/views.ts';
import { DATA_DIR, fmt, report } from './lib.ts';

/**
 * CSV: bytes/s exporting 1,000,000 transactions beside the `sqlite3` shell's own `-csv` output
 * of the same rows (same columns, order and file) in the same run, with a warm page cache and
 * a cold one (the kernel's page cache dropped before each run when this process may, else
 * said so); peak RSS of the export; both sides' CPU time, steadier than wall time on a shared
 * machine. Targets: ≥ 0.5 × the shell's bytes/s, < 300 MB.
 */
export async function csvBench(): Promise<void> {
  const path = join(DATA_DIR, 'timeline-1m.sqlite');
  if (!existsSync(path)) {
    console.log('  (run `npm run bench -- timeline` first: it builds the 1,000,000-row cache)');
    const { timelineBench } = await import('./timeline.ts');
    await timelineBench();
  }
  {
    const db = openDatabase(path);
    // What a sync leaves: the rows' derived sums and dealings current (the page writer keeps them;
    // this cache was written without one), so the export reads the dealings kept (party-dealings.ts).
    refreshTransferDays(db, db.prepare('SELECT DISTINCT wallet, chain FROM transactions').all() as Array<{ wallet: string; chain: string }>);
    db.pragma('wal_checkpoint(TRUNCATE)'); // one file, as the shell reads it
    db.close();
  }
  const total = (() => {
    const db = openDatabase(path);
    const n = (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
    db.close();
    return n;
  })();
  const rows: Array<[string, string]> = [];
  const canDrop = dropPageCache();
  for (const cache of ['warm', 'cold'] as const) {
    if (cache === 'cold' && !canDrop) {
      rows.push(['cold', 'not measured: this process may not write /proc/sys/vm/drop_caches']);
      continue;
    }
    for (let run = 1; run <= 2; run++) {
      if (cache === 'warm') await ours(path); // warm the cache with the same reads
      if (cache === 'cold') dropPageCache();
      const shell = await sqliteShell(path);
      if (cache === 'cold') dropPageCache();
      const mine = await ours(path);
      const MB = 1e6;
      const cpu = shell.cpuMs
        ? `; CPU ${fmt(mine.cpuMs / 1000, 2)} s beside ${fmt(shell.cpuMs / 1000, 2)} s = ${fmt(shell.cpuMs / mine.cpuMs)} × by CPU time`
        : '';
      rows.push([
        `${cache} run ${run}`,
        `export ${fmt(mine.bytes / MB / (mine.ms / 1000), 1)} MB/s, ${fmt(total / (mine.ms / 1000), 0)} txns/s (${fmt(mine.rows / (mine.ms / 1000), 0)} lines/s), ${fmt(mine.ms / 1000, 2)} s, peak RSS ${fmt(mine.peakRss / MB, 0)} MB` +
          `  beside sqlite3 -csv ${fmt(shell.bytes / MB / (shell.ms / 1000), 1)} MB/s, ${fmt(total / (shell.ms / 1000), 0)} txns/s, ${fmt(shell.ms / 1000, 2)} s` +
          `  = ${fmt(mine.bytes / mine.ms / (shell.bytes / shell.ms))} × by bytes/s (target ≥ 0.5)${cpu}`,
      ]);
    }
  }
  rows.push(['targets', "≥ 0.5 × the shell's bytes/s, peak RSS < 300 MB"]);
  report(`CSV export of ${total.toLocaleString('en-US')} transactions (one line per transfer) beside the sqlite3 shell`, rows);
}

/** Drops the kernel's clean page cache (root only); false when not permitted. */
function dropPageCache(): boolean {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '1');
    return true;
  } catch {
    return false;
  }
}

/** One export in a process of its own (csv-child.ts); `keyHex`: an encrypted cache's key. */
export async function ours(path: string, keyHex?: string): Promise<{ ms: number; cpuMs: number; bytes: number; rows: number; peakRss: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'csv-child.ts'), path, ...(keyHex ? [keyHex] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += String(d)));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`the export child exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as { ms: number; cpuMs: number; bytes: number; rows: number; peakRss: number };
}

/**
 * The sqlite3 shell's CSV of the same rows: the export's columns, filter and order. Its CPU
 * time comes from /usr/bin/time when installed: under a loaded machine the CPU times compare
 * the two sides more steadily than the wall times do.
 */
async function sqliteShell(path: string): Promise<{ ms: number; bytes: number; cpuMs: number | null }> {
  const sql = `SELECT CASE WHEN t.time = 0 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', t.time / 1000.0, 'unixepoch') END, t.wallet, w.label, t.chain, t.txn_hash, t.block,
    t.action_type, t.protocol_id, t.method_hex, t.status, t.from_addr, t.from_type, t.to_addr, t.to_type, t.txn_fee, t.gas_fee, t.details
    FROM transactions t JOIN wallets w ON w.address = t.wallet ORDER BY t.time, t.id`;
  const timeFile = join(DATA_DIR, 'sqlite3-cpu.txt');
  const timed = existsSync('/usr/bin/time');
  const [command, args] = timed
    ? ['/usr/bin/time', ['-f', '%U %S', '-o', timeFile, 'sqlite3', '-readonly', '-csv', path, sql]]
    : ['sqlite3', ['-readonly', '-csv', path, sql]];
  const t = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let bytes = 0;
  child.stdout.on('data', (d: Buffer) => (bytes += d.length));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`sqlite3 exited with ${code} (install Debian's sqlite3 package)`);
  const ms = performance.now() - t;
  const cpu = timed ? readFileSync(timeFile, 'utf8').trim().split(/\s+/).map(Number) : [];
  return { ms, bytes, cpuMs: cpu.length === 2 ? (cpu[0]! + cpu[1]!) * 1000 : null };
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
      const data = [
        { wallet_id: wallet, date: `${date}T00:00:00Z`, positions: allPositionsView(chain.id, positionsOn(defaultHistory(1), wallet, chain, day)) },
      ];
      const body = JSON.stringify({ status: 'OK', data, message: successMessage('allPositions', `bench${w}`) });
      const response = {
        endpoint: 'allPositions' as const,
        data: data.map((d) => positionSnapshot.parse(d)),
        message: '',
        requestId: `bench${w}`,
        total: null,
        body,
        url: '',
        fetchedAt: '2026-01-01T00:00:00.000Z',
        attempts: 1,
      };
      insertSnapshot(db, { endpoint: 'allPositions', wallet, chain: chain.id, requestedDate: date, response });
    }
    const h = historyOf(
      { seed: 2, txnsPerWallet: 600, historyStart: Date.UTC(2025, 0, 1) / 1000, historyEnd: Date.UTC(2026, 0, 1) / 1000 },
      wallet,
      CHAINS[0]!,
    );
    const rows: Transaction[] = [];
    for (let i = 0; i < 600; i++) rows.push(transactionSchema.parse(transactionAt(h, i)));
    db.transaction(() => upsertTransactions(db, wallet, 'eth', rows)).immediate();
  }
  const positions = (db.prepare("SELECT sum(position_count) AS n FROM snapshots WHERE endpoint = 'allPositions'").get() as { n: number }).n;
  const out = join(DATA_DIR, 'bench-report.pdf');
  const runs: number[] = [];
  // CPU time too: steadier than wall time on a shared, loaded machine.
  const cpu: number[] = [];
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  let pages = 0;
  let txns = 0;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const c = cpuMs();
    const r = await writeAtomically(out, (stream) => exportPdf(db, { date, from: '2025-12-01', to: date }, stream));
    runs.push(performance.now() - t);
    cpu.push(cpuMs() - c);
    pages = r.pages;
    txns = r.model.transactionsTotal;
  }
  const latinSize = statSync(out).size;
  // The same report with every wallet labelled in another script (Cyrillic, Greek, Arabic, Hebrew,
  // Chinese): each label in the positions and the 1,000 transactions is drawn in an embedded font.
  // Then in those and Korean, Thai and emoji (the fonts added after: Noto Sans KR, Thai, Emoji).
  const five = ['Фонд Альфа', 'Ταμείο Βήτα', 'صندوق الأمل', 'קרן גמא', '东方基金会'];
  const eight = [...five, '한국 펀드', 'กองทุนไทย', 'Kasse 🦄🇩🇪'];
  const timedLabels = async (scripts: string[]) => {
    listWallets(db).forEach((w, i) => updateWallet(db, w.address, { label: `${scripts[i % scripts.length]} ${i + 1}` }));
    const ms: number[] = [];
    const cpuRuns: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const c = cpuMs();
      await writeAtomically(out, (stream) => exportPdf(db, { date, from: '2025-12-01', to: date }, stream));
      ms.push(performance.now() - t);
      cpuRuns.push(cpuMs() - c);
    }
    return { ms, cpuRuns, size: statSync(out).size };
  };
  const [inFive, inEight] = [await timedLabels(five), await timedLabels(eight)];
  db.close();
  report(`PDF report: ${positions} positions, ${txns} transactions (${listWalletsCount(path)} wallets)`, [
    ['time', `${runs.map((r) => `${fmt(r, 0)} ms`).join(', ')} (target < 2 s); CPU ${cpu.map((r) => `${fmt(r, 0)} ms`).join(', ')}`],
    ['output', `${pages} pages, ${fmt(latinSize / 1024, 0)} KiB`],
    ...(
      [
        ['five scripts', inFive],
        ['eight scripts', inEight],
      ] as const
    ).flatMap(([name, r]): Array<[string, string]> => [
      [`time, labels in ${name}`, `${r.ms.map((x) => `${fmt(x, 0)} ms`).join(', ')} (target < 2 s); CPU ${r.cpuRuns.map((x) => `${fmt(x, 0)} ms`).join(', ')}`],
      [`output, labels in ${name}`, `${fmt(r.size / 1024, 0)} KiB`],
    ]),
  ]);
}

function listWalletsCount(path: string): number {
  const db = openDatabase(path);
  const n = listWallets(db).length;
  db.close();
  return n;
}
