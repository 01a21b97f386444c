/**
 * The answers a screen asked of a portfolio view, kept in the file (migration 31): a core just
 * opened over an unchanged cache gives the figures the app last showed without building the view
 * again (seconds at a fund's scale). Each is kept under its mark (answerMark: the code that made it
 * and what its view read, ./inputs.ts scopeMark); an answer under any other mark is not given.
 */
import { createHash } from 'node:crypto';
import { buildId } from '../../store/build-id.ts';
import type { ReadableDB, WritableDB } from '../../store/handles.ts';
import { all, get, run, sql } from '../../store/sql.ts';

/** How many answers are kept: a few scopes and dates, each with its summary and the pages its screens ask first. */
export const KEPT_ANSWERS = 64;
/** A larger answer (a page of thousands of rows) is cheaper to build again than to keep. */
export const KEPT_ANSWER_CHARS = 4_000_000;
/** What all kept answers take together, at most (a fund's summary is ~25 KB, a page of 500 rows ~1 MB): the file, its backups and replicas carry them. */
export const KEPT_ANSWERS_CHARS = 16_000_000;

/** The operations whose answers are kept (../handlers.ts), and the only ones the warmer asks again (../warm.ts). */
export const KEPT_OPERATIONS = ['portfolio.summary', 'portfolio.rows', 'nav.history', 'exposure.get', 'risk.lending', 'risk.unlocks'] as const;
export type KeptOperation = (typeof KEPT_OPERATIONS)[number];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The key of an ask: the operation, its input, and the scope's wallets as the view reads them (a wallet without a label as one labelled null). */
export function askKey(
  op: KeptOperation,
  input: unknown,
  wallets: ReadonlyArray<{ address: string; label?: string | null; chains: readonly string[] }>,
): string {
  return sha256(JSON.stringify([op, input, wallets.map((w) => [w.address, w.label ?? null, w.chains])]));
}

/**
 * The mark of an answer: the code that made it (its version and build), the process's locale (a few
 * orders are the locale's: `localeCompare` of wallets and chains), and what it read (the scope's counters).
 */
export const answerMark = (appVersion: string, scopeMark: string) =>
  sha256(`${appVersion}\n${buildId()}\n${Intl.DateTimeFormat().resolvedOptions().locale}\n${scopeMark}`);

/**
 * Runs a write of a kept answer without waiting for the file: another writer holding it (the sync's
 * worker, a `folioscope` command) makes it fail at once, not block the core for the busy timeout.
 * An answer not kept is built again at the next ask.
 */
function withoutWaiting(db: WritableDB, write: () => void): void {
  const wait = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    write();
  } finally {
    db.pragma(`busy_timeout = ${wait}`);
  }
}

/** The answer kept for `ask` under `mark`, as JSON text, and whether it is the one used last. */
export function keptAnswer(db: ReadableDB, ask: string, mark: string): { answer: string; last: boolean } | undefined {
  const r = get<{ answer: string; last: number }>(
    db,
    sql`SELECT answer, used_at = (SELECT max(used_at) FROM kept_answers) AS last FROM kept_answers WHERE ask = ${ask} AND mark = ${mark}`,
  );
  return r && { answer: r.answer, last: r.last === 1 };
}

/** Marks an answer as just used (it is kept the longest). */
export function usedAnswer(db: WritableDB, ask: string): void {
  withoutWaiting(db, () => run(db, sql`UPDATE kept_answers SET used_at = (SELECT max(used_at) + 1 FROM kept_answers) WHERE ask = ${ask}`));
}

/**
 * Keeps an answer (its JSON text) to `request` (the operation and its input); the least recently
 * used go once more than KEPT_ANSWERS are kept or they take more than KEPT_ANSWERS_CHARS together.
 */
export function keepAnswer(
  db: WritableDB,
  ask: string,
  mark: string,
  request: { op: KeptOperation; input: unknown },
  answer: string,
  /** False for an answer made again in the background (./warm.ts): it keeps its place in the order, which only a person's asks move. */
  used = true,
): void {
  if (answer.length > KEPT_ANSWER_CHARS) return;
  withoutWaiting(db, () => keep(db, ask, mark, request, answer, used));
}

function keep(db: WritableDB, ask: string, mark: string, request: { op: KeptOperation; input: unknown }, answer: string, used: boolean): void {
  db.transaction(() => {
    run(
      db,
      sql`INSERT INTO kept_answers (ask, mark, used_at, size, request, answer)
          VALUES (${ask}, ${mark}, (SELECT coalesce(max(used_at), 0) + 1 FROM kept_answers), ${answer.length}, ${JSON.stringify(request)}, ${answer})
          ON CONFLICT (ask) DO UPDATE SET mark = excluded.mark, used_at = CASE WHEN ${used ? 1 : 0} THEN excluded.used_at ELSE kept_answers.used_at END, size = excluded.size, request = excluded.request, answer = excluded.answer`,
    );
    let kept = 0;
    let chars = 0;
    for (const r of all<{ used_at: number; size: number }>(db, sql`SELECT used_at, size FROM kept_answers ORDER BY used_at DESC`)) {
      chars += r.size;
      if (++kept > KEPT_ANSWERS || chars > KEPT_ANSWERS_CHARS) {
        run(db, sql`DELETE FROM kept_answers WHERE used_at <= ${r.used_at}`);
        break;
      }
    }
  })();
}

/** The requests whose answers were used last, most recent first: what a screen will likely ask again. */
export function lastRequests(db: ReadableDB, limit: number): Array<{ op: string; input: unknown }> {
  return all<{ request: string }>(db, sql`SELECT request FROM kept_answers ORDER BY used_at DESC LIMIT ${limit}`).map(
    (r) => JSON.parse(r.request) as { op: string; input: unknown },
  );
}

/** Every kept answer gone (a replica for the team's desktops: what each person looked at is theirs). */
export function forgetAnswers(db: WritableDB): void {
  run(db, sql`DELETE FROM kept_answers`);
}
