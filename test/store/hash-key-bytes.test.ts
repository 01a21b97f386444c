import BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HASH_KEY, HASH_TAIL, writeHashKey } from '../../src/main/core/store/hash-key.ts';

/**
 * The keys of hex hashes are made in JavaScript (writeHashKey) and every other key by SQL
 * (HASH_KEY, HASH_TAIL): a key made differently would never be found, and its transaction
 * would be added again. The two are compared here, on SQLite itself, over hashes of every
 * length and shape at the border of what writeHashKey takes.
 */
describe('hash keys made in JavaScript', () => {
  it('are the bytes SQLite computes, for every hash writeHashKey takes; the others are left to SQL', () => {
    const db = new BetterSqlite3(':memory:');
    const sql = db.prepare(`SELECT ${HASH_KEY.replaceAll('txn_hash', '@h')} AS key, ${HASH_TAIL.replaceAll('txn_hash', '@h')} AS tail`);
    const hex = (n: number) =>
      randomBytes(Math.ceil(n / 2))
        .toString('hex')
        .slice(0, n);
    const hashes = [
      `0x${hex(64)}`,
      `0x${'0'.repeat(63)}1`,
      `0x${hex(16)}`,
      `0x${hex(17)}`,
      `0x${hex(31)}`,
      `0x${hex(200)}`,
      `0x${hex(15)}`, // too short: its tail takes the "x"
      `0x${hex(63).toUpperCase()}A`, // stored hashes are lower case; upper case is left to SQL
      `0X${hex(64)}`,
      `0x${hex(30)}g${hex(33)}`,
      `${hex(64)}`,
      `0x${hex(64)} `,
      '0x',
      '',
      ...Array.from({ length: 200 }, (_, i) => `0x${hex(16 + i)}`),
    ];
    let made = 0;
    for (const h of hashes) {
      const out = Buffer.alloc(16);
      const expected = sql.get({ h }) as { key: Buffer | string; tail: Buffer | string };
      if (writeHashKey(h, out, 0)) {
        made++;
        expect(Buffer.isBuffer(expected.key) && Buffer.isBuffer(expected.tail), h).toBe(true);
        expect(out.subarray(0, 8).equals(expected.key as Buffer), h).toBe(true);
        expect(out.subarray(8).equals(expected.tail as Buffer), h).toBe(true);
      } else {
        // Left to SQL: a hash writeHashKey does not take must not be one it should have.
        expect(/^0x[0-9a-f]{16,}$/.test(h), h).toBe(false);
      }
    }
    expect(made).toBe(206);
    db.close();
  });
});
