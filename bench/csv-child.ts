/**
 * One CSV export of the transactions in the cache at argv[2], in a process of its own so its
 * peak RSS (the kernel's VmHWM) is the export's alone. Prints one JSON line of figures.
 */
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { exportCsv } from '../src/main/core/reports/csv-reports.ts';
import { openDatabase } from '../src/main/core/store/db.ts';
import { CacheKey } from '../src/main/core/store/driver.ts';

// argv[3]: an encrypted cache's key, as hex (the encryption bench).
const db = openDatabase(process.argv[2]!, { key: process.argv[3] ? CacheKey.fromHex(process.argv[3]) : null });
let bytes = 0;
const sink = new Writable({
  write(chunk: Buffer, _e, cb) {
    bytes += chunk.length;
    cb();
  },
});
const t = performance.now();
const cpu = process.cpuUsage();
const { rows, spamThread } = await exportCsv(db, { report: 'transactions' }, sink);
const ms = performance.now() - t;
const used = process.cpuUsage(cpu);
db.close();
const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
console.log(
  JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, bytes, rows, spamThread, peakRss: hwm ? Number(hwm[1]) * 1024 : process.memoryUsage().rss }),
);
