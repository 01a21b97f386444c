/**
 * The user's spam verdicts (migration 23). SQL only: what a verdict may hold is checked by
 * spam/verdicts.ts before it gets here. Every write records itself in the audit trail (entity
 * `spam-verdict`), in the caller's transaction, so a verdict and its record land together.
 */
import type { SpamMark, SpamMarkKind, SpamMarkVerdict } from '../../../../shared/spam.ts';
import { recordEdit } from '../../store/audit.ts';
import type { ReadableDB, WritableDB } from '../../store/handles.ts';
import { all, get, run, sql } from '../../store/sql.ts';

interface Row {
  kind: SpamMarkKind;
  chain: string;
  target: string;
  wallet: string;
  verdict: SpamMarkVerdict;
  note: string;
  created_at: string;
  updated_at: string;
}

const fromRow = (r: Row): SpamMark => ({
  kind: r.kind,
  chain: r.chain || null,
  target: r.target,
  wallet: r.wallet || null,
  verdict: r.verdict,
  note: r.note,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** What a verdict is about: its kind, chain (tokens only), target and wallet (null: every one). */
export interface SpamMarkKey {
  kind: SpamMarkKind;
  chain: string | null;
  target: string;
  wallet: string | null;
}

/** Whether the table is there (a cache an older version left, opened read-only, may lack it). */
function hasTable(db: ReadableDB): boolean {
  return get<{ n: number }>(db, sql`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'spam_verdicts'`)!.n === 1;
}

/** Every verdict (or one wallet's and every wallet's), in a stable order: every wallet's first, then by kind, chain and target. */
export function listSpamMarks(db: ReadableDB, wallet?: string): SpamMark[] {
  if (!hasTable(db)) return [];
  const rows =
    wallet === undefined
      ? all<Row>(db, sql`SELECT * FROM spam_verdicts ORDER BY wallet, kind, chain, target`)
      : all<Row>(db, sql`SELECT * FROM spam_verdicts WHERE wallet IN ('', ${wallet}) ORDER BY wallet, kind, chain, target`);
  return rows.map(fromRow);
}

export function getSpamMark(db: ReadableDB, k: SpamMarkKey): SpamMark | null {
  const row = get<Row>(
    db,
    sql`SELECT * FROM spam_verdicts WHERE kind = ${k.kind} AND chain = ${k.chain ?? ''} AND target = ${k.target} AND wallet = ${k.wallet ?? ''}`,
  );
  return row ? fromRow(row) : null;
}

/** How the audit trail names a verdict: "token eth 0x… (every wallet)". */
export function markItem(k: SpamMarkKey): string {
  return `${k.kind}${k.chain ? ` ${k.chain}` : ''} ${k.target} (${k.wallet ? `wallet ${k.wallet}` : 'every wallet'})`;
}

/** A verdict as the user set it: what the audit trail keeps (no dates). */
const audited = (m: SpamMark | null) => m && { kind: m.kind, chain: m.chain, target: m.target, wallet: m.wallet, verdict: m.verdict, note: m.note };

/** Writes a verdict over any of the same key (its first `createdAt` kept) and records the edit. */
export function writeSpamMark(db: WritableDB, k: SpamMarkKey, verdict: SpamMarkVerdict, note: string, now: Date): SpamMark {
  const before = getSpamMark(db, k);
  const at = now.toISOString();
  run(
    db,
    sql`INSERT INTO spam_verdicts (kind, chain, target, wallet, verdict, note, created_at, updated_at)
        VALUES (${k.kind}, ${k.chain ?? ''}, ${k.target}, ${k.wallet ?? ''}, ${verdict}, ${note}, ${at}, ${at})
        ON CONFLICT (kind, chain, target, wallet) DO UPDATE SET verdict = excluded.verdict, note = excluded.note, updated_at = excluded.updated_at`,
  );
  const saved = getSpamMark(db, k)!;
  recordEdit(db, { entity: 'spam-verdict', key: markItem(k), action: before ? 'update' : 'create', before: audited(before), after: audited(saved) }, now);
  return saved;
}

/** Removes a verdict (the rules and lists decide again) and records it; false when there was none. */
export function eraseSpamMark(db: WritableDB, k: SpamMarkKey, now: Date): boolean {
  const before = getSpamMark(db, k);
  if (!before) return false;
  run(db, sql`DELETE FROM spam_verdicts WHERE kind = ${k.kind} AND chain = ${k.chain ?? ''} AND target = ${k.target} AND wallet = ${k.wallet ?? ''}`);
  recordEdit(db, { entity: 'spam-verdict', key: markItem(k), action: 'delete', before: audited(before), after: null }, now);
  return true;
}
