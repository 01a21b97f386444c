/**
 * Spam as the screens show it and let the user decide it (docs/spam.md): a verdict's reasons and
 * who decided in words, and the one way a screen marks a position's token spam or not spam. The
 * core judges and leaves spam out of every figure; a mark changes its verdict and tells every
 * view (`data.changed` scope `spam`), which loads again.
 */
import type { PositionRow } from '../../../shared/portfolio/rows.ts';
import type { SpamMarkVerdict, SpamReason, SpamVerdict } from '../../../shared/spam.ts';
import { call } from './api.ts';
import { integer } from './format.ts';
import { currentLanguage, words } from './words.ts';

/** Who decided, in words: "the rules (score 10)", "a list", "you". */
export function decidedBy(v: Pick<SpamVerdict, 'decidedBy' | 'score'>): string {
  return v.decidedBy === 'rules' ? words.spam.decidedBy.rules(integer(v.score)) : words.spam.decidedBy[v.decidedBy];
}

/**
 * The reasons that count towards the verdict, as sentences: the deciding one (yours or a list's,
 * weight 0) and those that add to the score; a reason against spam (negative weight) is said only
 * when the verdict is "not spam", where it is the why.
 */
export function reasonTexts(v: Pick<SpamVerdict, 'reasons' | 'spam'>): string[] {
  return v.reasons.filter((r) => (v.spam ? r.weight >= 0 : true)).map(reasonText);
}

/**
 * One reason in the UI's language: in English the core's own sentence; in another, said again by
 * its code from its values (words.spam.reasons), a received token's reason after the token's
 * symbol. A reason without values (one kept from before they were sent) or of a code not known
 * there stays as the core wrote it.
 */
export function reasonText(r: SpamReason): string {
  if (currentLanguage() === 'en') return r.text;
  const say = Object.hasOwn(words.spam.reasons, r.code) ? words.spam.reasons[r.code] : undefined;
  if (!say || !r.values) return r.text;
  const text = say(r.values);
  return r.token === undefined ? text : words.spam.reasonOf(r.token, text);
}

/** One line for a tooltip: who decided, then each reason on its own line. */
export function verdictTitle(v: SpamVerdict): string {
  return [words.spam.decided(decidedBy(v)), ...reasonTexts(v)].join('\n');
}

const EVM = /^0x[0-9a-f]{40}$/i;
/** The contract in a service's internal id such as `eth:0x…` (what the core reads where the by-token view does not say it). */
const contractInId = (id: string | null | undefined) => /(?:^|:)(0x[0-9a-fA-F]{40})$/.exec(id ?? '')?.[1]?.toLowerCase() ?? null;

/** A plain holding (one token in the wallet), as the core's judge tells one from a protocol position. */
export function isHolding(p: PositionRow['position']): boolean {
  return (p.asset_type === 'wallet' || p.protocol_id === 'wallet') && p.underlying.length === 1;
}

/**
 * The contract a mark of this position is about, derived as the core judges the position
 * (spam/reader.ts `position`): a protocol position by its own contract (`cid`); a plain holding by
 * its token, whose contract the by-token view of that day names for the underlying's internal id
 * (its row for a spam token is left out of the portfolio view, so the cached view is read), else
 * the contract in the internal id. Null when neither says it.
 */
export async function tokenTarget(row: Pick<PositionRow, 'wallet' | 'chain' | 'position'>, date: string): Promise<string | null> {
  const p = row.position;
  if (!isHolding(p)) return p.cid ? p.cid.toLowerCase() : null;
  const id = p.underlying[0]!.internal_id;
  if (!id) return null;
  try {
    const view = await call('positions.get', { wallet: row.wallet, date, view: 'underlying' });
    const snapshot = view.chains.find((c) => c.chain === row.chain)?.snapshot;
    for (const s of snapshot?.data ?? [])
      for (const g of s.positions) {
        const cid = typeof g.token_cid === 'string' ? g.token_cid : null;
        if (g.token_id === id && cid) return EVM.test(cid) ? cid.toLowerCase() : cid;
      }
  } catch {
    // The cached view could not be read: the internal id may still name the contract.
  }
  return contractInId(id);
}

/** Marks a token on its chain spam or not spam for every wallet (what "Not spam" and "Mark as spam" beside a figure do). */
export async function markToken(chain: string, target: string, verdict: SpamMarkVerdict): Promise<void> {
  await call('spam.mark', { kind: 'token', chain, target, verdict });
}

/** Takes a token's mark back: the lists and the rules decide again (an Undo). */
export async function clearToken(chain: string, target: string): Promise<void> {
  await call('spam.clear', { kind: 'token', chain, target });
}
