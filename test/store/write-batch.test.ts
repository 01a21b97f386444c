import BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { WriteBatch } from '../../src/main/core/transactions/store/write-batch.ts';
import { createDB } from '../support/store.ts';

/** A cache with a scratch table; `others` reads it from a second connection (another process's view). */
function setup() {
  const db = createDB();
  const path = db.name;
  db.exec('CREATE TABLE scratch (page INTEGER NOT NULL, n INTEGER NOT NULL)');
  const other = new BetterSqlite3(path, { readonly: true });
  const count = (d: BetterSqlite3.Database) => (d.prepare('SELECT count(*) AS n FROM scratch').get() as { n: number }).n;
  return { db, other, count, close: () => other.close() };
}

const page = (db: WritableDB, no: number, rows: number) => () => {
  const insert = db.prepare('INSERT INTO scratch (page, n) VALUES (?, ?)');
  for (let i = 0; i < rows; i++) insert.run(no, i);
};

afterEach(() => {
  vi.useRealTimers();
});

describe('WriteBatch: pages grouped into larger transactions', () => {
  it('answers reads on its connection with the pages written, commits them together, and only then shows them to others', () => {
    const { db, other, count, close } = setup();
    const batch = new WriteBatch(db, { maxRows: 1000, maxMs: 60_000 });
    batch.write(100, page(db, 1, 100));
    batch.write(100, page(db, 2, 100));
    expect(count(db)).toBe(200);
    expect(count(other)).toBe(0);
    expect(db.inTransaction).toBe(true);
    batch.commit();
    expect(db.inTransaction).toBe(false);
    expect(count(other)).toBe(200);
    close();
  });

  it('commits by itself once it holds maxRows rows', () => {
    const { db, other, count, close } = setup();
    const batch = new WriteBatch(db, { maxRows: 300, maxMs: 60_000 });
    for (let p = 1; p <= 4; p++) batch.write(100, page(db, p, 100));
    // Pages 1-3 reached 300 rows and were committed; page 4 is in the next batch.
    expect(count(other)).toBe(300);
    batch.commit();
    expect(count(other)).toBe(400);
    close();
  });

  it('commits at the latest maxMs after it began, even if no further page comes', () => {
    const { db, other, count, close } = setup();
    // The batch's clock and timer are the test's: no sleep, and the moment is exact.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const batch = new WriteBatch(db, { maxRows: 1_000_000, maxMs: 50 });
    batch.write(10, page(db, 1, 10));
    expect(count(other)).toBe(0);
    vi.advanceTimersByTime(49);
    expect(db.inTransaction).toBe(true);
    vi.advanceTimersByTime(1);
    expect(db.inTransaction).toBe(false);
    expect(count(other)).toBe(10);
    close();
  });

  it('keeps nothing of a page whose write fails, and keeps the pages before it', () => {
    const { db, other, count, close } = setup();
    const batch = new WriteBatch(db, { maxRows: 1000, maxMs: 60_000 });
    batch.write(100, page(db, 1, 100));
    expect(() =>
      batch.write(100, () => {
        page(db, 2, 50)();
        throw new Error('the page is bad');
      }),
    ).toThrow('the page is bad');
    batch.commit();
    expect(count(other)).toBe(100);
    expect(db.prepare('SELECT DISTINCT page FROM scratch').all()).toEqual([{ page: 1 }]);
    close();
  });

  it('on an exclusive connection, a failed page rolls the batch back to the last commit, as a crash would', () => {
    const { db, other, count, close } = setup();
    const batch = new WriteBatch(db, { maxRows: 1000, maxMs: 60_000, exclusive: true });
    batch.write(100, page(db, 1, 100));
    batch.commit();
    batch.write(100, page(db, 2, 100));
    expect(() =>
      batch.write(100, () => {
        page(db, 3, 50)();
        throw new Error('the page is bad');
      }),
    ).toThrow('the page is bad');
    expect(db.inTransaction).toBe(false);
    expect(count(db)).toBe(100);
    expect(db.prepare('SELECT DISTINCT page FROM scratch').all()).toEqual([{ page: 1 }]);
    // The batch goes on from there.
    batch.write(100, page(db, 4, 100));
    batch.commit();
    expect(count(other)).toBe(200);
    close();
  });

  it("inside a caller's own transaction, writes join it and the caller decides", () => {
    const { db, other, count, close } = setup();
    const batch = new WriteBatch(db, { maxRows: 100, maxMs: 60_000 });
    expect(() =>
      db.transaction(() => {
        batch.write(100, page(db, 1, 100));
        batch.write(100, page(db, 2, 100));
        batch.commit();
        throw new Error('the caller rolls back');
      })(),
    ).toThrow('the caller rolls back');
    expect(count(db)).toBe(0);
    expect(count(other)).toBe(0);
    close();
  });
});

describe('WriteBatch: the commit by time', () => {
  it('waits while the connection is busy streaming rows (an export), then commits', () => {
    const { db, other, count, close } = setup();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const batch = new WriteBatch(db, { maxRows: 1_000_000, maxMs: 30 });
    batch.write(10, page(db, 1, 10));
    // An export streams with iterate() across event-loop turns: no statement may run meanwhile.
    const rows = db.prepare('SELECT n FROM scratch').iterate();
    rows.next();
    // The commit by time comes, finds the connection busy and tries again, and again.
    vi.advanceTimersByTime(120);
    expect(db.inTransaction).toBe(true);
    expect(count(other)).toBe(0);
    rows.return?.();
    vi.advanceTimersByTime(150);
    expect(db.inTransaction).toBe(false);
    expect(count(other)).toBe(10);
    close();
  });
});
