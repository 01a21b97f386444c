import { describe, expect, it } from 'vitest';
import { all, get, prepare, run, sql, sqlCode, sqlJoin, sqlWhere, value } from '../../src/main/core/store/sql.ts';
import { createDB } from '../support/store.ts';

describe('SQL in the store: the sql tag and the statement cache', () => {
  it('binds every value as a parameter: a value can never change what a statement does', () => {
    const db = createDB();
    const evil = "x'); DROP TABLE wallets; --";
    const q = sql`SELECT ${evil} AS v, ${42} AS n, ${null} AS z`;
    expect(q.text).toBe('SELECT ? AS v, ? AS n, ? AS z');
    expect(get(db, q)).toEqual({ v: evil, n: 42, z: null });
    expect(value<number>(db, sql`SELECT count(*) FROM sqlite_master WHERE name = 'wallets'`)).toBe(1);
  });

  it('splices fragments with their parameters in order; a list becomes one parameter each', () => {
    const db = createDB();
    const where = sql`name IN (${sqlJoin(['wallets', 'snapshots'])}) AND type = ${'table'}`;
    const q = sql`SELECT name FROM sqlite_master WHERE ${where} ORDER BY name LIMIT ${10}`;
    expect(q.text).toBe('SELECT name FROM sqlite_master WHERE name IN (?, ?) AND type = ? ORDER BY name LIMIT ?');
    expect(q.params).toEqual(['wallets', 'snapshots', 'table', 10]);
    expect(all<{ name: string }>(db, q).map((r) => r.name)).toEqual(['snapshots', 'wallets']);
    expect(() => sqlJoin([])).toThrow(/IN \(\)/);
  });

  it('puts only the filters asked for in a WHERE, and splices text the code wrote as it is', () => {
    const db = createDB();
    const type: string | null = 'table';
    const name: string | null = null;
    const some = sqlWhere([type !== null && sql`type = ${type}`, name !== null && sql`name = ${name}`]);
    expect(sql`SELECT name FROM sqlite_master ${some}`).toMatchObject({ text: 'SELECT name FROM sqlite_master WHERE type = ?', params: ['table'] });
    const both = sqlWhere([sql`type = ${'table'}`, sql`name = ${'wallets'}`]);
    expect(both).toMatchObject({ text: 'WHERE type = ? AND name = ?', params: ['table', 'wallets'] });
    expect(all<{ name: string }>(db, sql`SELECT name FROM sqlite_master ${both}`)).toEqual([{ name: 'wallets' }]);
    expect(sql`SELECT 1 ${sqlWhere([false, false])}`.text).toBe('SELECT 1 ');
    // A table of a fixed list, spliced as text: no parameter.
    expect(sql`SELECT count(*) FROM ${sqlCode('wallets')} WHERE address = ${'0xa'}`).toMatchObject({
      text: 'SELECT count(*) FROM wallets WHERE address = ?',
      params: ['0xa'],
    });
  });

  it('compiles a statement once per connection, keeps plucking ones apart, and stays bounded', () => {
    const db = createDB();
    const text = 'SELECT 1 AS one';
    expect(prepare(db, text)).toBe(prepare(db, text));
    expect(prepare(db, text, 'pluck')).not.toBe(prepare(db, text));
    expect(prepare(db, text, 'raw')).not.toBe(prepare(db, text, 'pluck'));
    expect(prepare(db, text, 'raw').get()).toEqual([1]);
    // A plucking statement does not change how the plain one answers.
    expect(value<number>(db, sql`SELECT 1 AS one`)).toBe(1);
    expect(get(db, sql`SELECT 1 AS one`)).toEqual({ one: 1 });
    const first = prepare(db, 'SELECT 0');
    for (let i = 1; i <= 300; i++) prepare(db, `SELECT ${i}`);
    expect(prepare(db, 'SELECT 0')).not.toBe(first); // dropped, compiled again
    expect(prepare(db, 'SELECT 300')).toBe(prepare(db, 'SELECT 300'));
    // Another connection has its own statements.
    const other = createDB();
    expect(prepare(other, text)).not.toBe(prepare(db, text));
    run(db, sql`INSERT INTO wallet_groups (name, created_at) VALUES (${'Fund'}, ${'2026-01-01T00:00:00Z'})`);
    expect(value<number>(db, sql`SELECT count(*) FROM wallet_groups`)).toBe(1);
  });
});
