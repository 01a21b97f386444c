/**
 * SQL in the store, one way (Signal-Desktop's ts/sql/util.ts `sql`/`sqlFragment`/`sqlJoin` and
 * Server.ts's statement cache are the model):
 *
 *   const rows = all<Row>(db, sql`SELECT … FROM snapshots WHERE wallet = ${wallet} AND as_of = ${date}`);
 *   run(db, sql`DELETE FROM wallet_group_members WHERE group_id IN (${sqlJoin(ids)})`);
 *
 * Every value is a bound parameter, never text in the statement (a fragment, made with `sql`
 * too, is the only thing spliced in), so no value can change what a statement does. A statement
 * is compiled once per connection and kept (`prepare`): better-sqlite3 compiles on every
 * `db.prepare`, which costs more than a small read itself.
 */
import type { RunResult, Statement } from 'better-sqlite3-multiple-ciphers';
import type { ReadableDB, WritableDB } from './handles.ts';

export type SqlValue = string | number | bigint | null | Uint8Array;

/** A statement's text and its bound values, in order. */
export interface SqlQuery {
  readonly text: string;
  readonly params: readonly SqlValue[];
}

const QUERY = Symbol('sql');
type Fragment = SqlQuery & { readonly [QUERY]: true };

function isFragment(v: unknown): v is Fragment {
  return typeof v === 'object' && v !== null && QUERY in v;
}

/** A statement (or a fragment of one) from a template: `${value}` binds a value, `${sql`…`}` splices a fragment. */
export function sql(strings: TemplateStringsArray, ...values: ReadonlyArray<SqlValue | undefined | SqlQuery>): SqlQuery {
  let text = strings[0]!;
  const params: SqlValue[] = [];
  values.forEach((value, i) => {
    if (isFragment(value)) {
      text += value.text;
      params.push(...value.params);
    } else {
      text += '?';
      params.push(value === undefined ? null : (value as SqlValue));
    }
    text += strings[i + 1]!;
  });
  return { text, params, [QUERY]: true } as Fragment;
}

/** Values as a comma-separated list of parameters (for `IN (…)`); at least one is needed. */
export function sqlJoin(values: ReadonlyArray<SqlValue>): SqlQuery {
  if (!values.length) throw new Error('sqlJoin: an empty list would make `IN ()`, which SQLite refuses.');
  return { text: values.map(() => '?').join(', '), params: [...values], [QUERY]: true } as Fragment;
}

/**
 * `WHERE` and the conditions given (`false`: a filter not asked for) joined by `AND`, or nothing
 * when none is: an optional filter is in the statement only when asked, so the planner can use
 * an index on its column (an `(? IS NULL OR col = ?)` hides the column from it).
 */
export function sqlWhere(conditions: ReadonlyArray<SqlQuery | false>): SqlQuery {
  const given = conditions.filter((c): c is SqlQuery => c !== false);
  if (!given.length) return sql``;
  return sql`WHERE ${given.reduce((a, b) => sql`${a} AND ${b}`)}`;
}

/**
 * SQL text the store's own code wrote (a table of a fixed list, an expression such as
 * hash-key.ts's HASH_KEY), spliced as it is. Never for a value: a value is bound with `sql`.
 */
export function sqlCode(text: string): SqlQuery {
  return { text, params: [], [QUERY]: true } as Fragment;
}

/** Compiled statements per connection; a bounded map, oldest used dropped first (dynamic `IN` lists vary). */
const statements = new WeakMap<ReadableDB, Map<string, Statement>>();
const KEPT = 256;

/**
 * The connection's compiled statement for `text`, compiled on first use: the one statement
 * cache of the store (Signal-Desktop's `prepare` is the model), for the `sql` helpers below and
 * the ingest path's own texts alike. A statement answering its first column only (`pluck`) or
 * arrays (`raw`) is kept apart: that is a setting of the statement itself.
 */
export function prepare(db: ReadableDB, text: string, mode: 'rows' | 'pluck' | 'raw' = 'rows'): Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  const key = `${mode[1]}${text}`;
  let statement = cache.get(key);
  if (statement) {
    // Most recently used last: the first entry is the one to drop.
    cache.delete(key);
  } else {
    statement = db.prepare(text);
    if (mode === 'pluck') statement.pluck(true);
    else if (mode === 'raw') statement.raw(true);
    if (cache.size >= KEPT) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, statement);
  return statement;
}

export function all<T>(db: ReadableDB, q: SqlQuery): T[] {
  return prepare(db, q.text).all(...q.params) as T[];
}

export function get<T>(db: ReadableDB, q: SqlQuery): T | undefined {
  return prepare(db, q.text).get(...q.params) as T | undefined;
}

/** The first column of the first row (a count, a flag), or undefined when there is no row. */
export function value<T>(db: ReadableDB, q: SqlQuery): T | undefined {
  return prepare(db, q.text, 'pluck').get(...q.params) as T | undefined;
}

export function run(db: WritableDB, q: SqlQuery): RunResult {
  return prepare(db, q.text).run(...q.params);
}
