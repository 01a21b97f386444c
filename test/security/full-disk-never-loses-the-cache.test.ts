import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAppConfig } from '../../src/main/core/session/profile.ts';
import { CacheProblemError, openDatabase } from '../../src/main/core/store/db.ts';

/**
 * Finding: after a sync hit a full disk, the cache was refused as "damaged … cut off" even
 * once space was freed: the truncation check ignored the pages still in the WAL. Also: a cache
 * refused at open was changed all the same (closing the connection checkpointed a foreign WAL
 * into it), and app.json written onto a full disk left its half-written temporary file.
 */
let dir: string;
beforeAll(() => {
  dir = join('/tmp', `folioscope-walfull-${process.pid}-${Date.now()}`);
  mkdirSync(dir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0700', 'tmpfs', dir]);
});
afterAll(() => {
  execFileSync('umount', ['-l', dir]);
  rmSync(dir, { recursive: true, force: true });
});

const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
const filler = () => join(dir, 'filler');
function fillDisk(): void {
  const fd = openSync(filler(), 'w');
  try {
    for (;;) writeSync(fd, Buffer.alloc(4096));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

/**
 * A real cache whose last checkpoint ran out of disk: the rows committed in the WAL, page 1
 * (the header, with the new page count) copied into the file, the new pages past its end not.
 */
function cacheCutByAFullDisk(): { file: string; rows: number } {
  for (const f of ['cache.sqlite', 'cache.sqlite-wal', 'cache.sqlite-shm']) rmSync(join(dir, f), { force: true });
  const file = join(dir, 'cache.sqlite');
  const db = openDatabase(file);
  // The schema in the file, the new rows in the WAL only.
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.pragma('wal_autocheckpoint = 0');
  const put = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < 2000; i++) put.run(`k${i}`, 'x'.repeat(500));
  })();
  fillDisk();
  expect(() => db.pragma('wal_checkpoint(TRUNCATE)')).toThrow(/full/);
  db.close();
  rmSync(filler());
  return { file, rows: 2000 };
}

/** The size the header of a database file declares, in bytes. */
function declaredBytes(file: string): number {
  const b = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, b, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  return b.readUInt32BE(28) * (b.readUInt16BE(16) === 1 ? 65536 : b.readUInt16BE(16));
}

describe('a checkpoint cut short by a full disk', () => {
  it('the cache opens once space is free, with every committed row', () => {
    const { file, rows } = cacheCutByAFullDisk();
    // The state the finding met: the file is shorter than its header says, the WAL holds the rest.
    expect(statSync(file).size).toBeLessThan(declaredBytes(file));
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
    const db = openDatabase(file);
    expect((db.prepare("SELECT count(*) AS n FROM settings WHERE key LIKE 'k%'").get() as { n: number }).n).toBe(rows);
    db.close();
  });

  it('a file cut off further than the WAL covers is still refused as damaged, and left as it is', () => {
    const { file } = cacheCutByAFullDisk();
    // Page 1 only: the schema's and the older rows' pages are in neither the file nor the WAL.
    const probe = new BetterSqlite3(file, { readonly: true });
    const pageSize = probe.pragma('page_size', { simple: true }) as number;
    probe.close();
    truncateSync(file, pageSize);
    let err: unknown = null;
    try {
      openDatabase(file).close();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CacheProblemError);
    expect((err as CacheProblemError).problem).toBe('damaged');
    expect(statSync(file).size).toBe(pageSize);
  });
});

describe('a refused cache is left as it was', () => {
  it('a WAL from another database beside the cache: refused, and neither the file nor that WAL is written', () => {
    const { file } = cacheCutByAFullDisk();
    openDatabase(file).close(); // checkpointed: the cache whole in its file, no WAL
    const other = join(dir, 'other.sqlite');
    for (const f of [other, `${other}-wal`, `${other}-shm`]) rmSync(f, { force: true });
    const o = new BetterSqlite3(other);
    o.pragma('page_size = 16384');
    o.pragma('journal_mode = WAL');
    o.pragma('wal_autocheckpoint = 0');
    o.exec("CREATE TABLE photos (path TEXT); INSERT INTO photos VALUES ('a.jpg')");
    copyFileSync(`${other}-wal`, `${file}-wal`);
    o.close();
    const before = [sha(file), sha(`${file}-wal`)];
    expect(() => openDatabase(file)).toThrow(CacheProblemError);
    expect([sha(file), sha(`${file}-wal`)]).toEqual(before);
  });
});

describe('app.json on a full disk', () => {
  it('the write fails with ENOSPC; app.json keeps its content and nothing half-written stays beside it', () => {
    const data = join(dir, 'data');
    writeAppConfig(data, { baseUrl: 'https://before.example' });
    const before = readFileSync(join(data, 'app.json'), 'utf8');
    fillDisk();
    try {
      expect(() => writeAppConfig(data, { baseUrl: `https://after.example/${'x'.repeat(20_000)}` })).toThrow(/ENOSPC/);
    } finally {
      rmSync(filler());
    }
    expect(readFileSync(join(data, 'app.json'), 'utf8')).toBe(before);
    expect(readdirSync(data)).toEqual(['app.json']);
  });
});
