/**
 * The user's edits of spam: a verdict marked or cleared, a list imported or removed. Each is one
 * transaction with its record in the audit trail (store/verdicts.ts, store/lists.ts), so an edit
 * and its record land together or not at all. What a verdict may hold is checked here the same
 * way for the app, the CLI and a data file.
 */
import { createHash } from 'node:crypto';
import type { SpamListInfo, SpamMark, SpamMarkKind, SpamMarkVerdict } from '../../../shared/spam.ts';
import { unsafeCharsProblem } from '../../../shared/text-safety.ts';
import { editTime } from '../store/audit.ts';
import type { WritableDB } from '../store/handles.ts';
import { isEvmChain, ValidationError } from '../store/validation.ts';
import { DEFAULT_LIST_NAME, listCounts, readSpamList } from './lists.ts';
import { deleteSpamList, putSpamList } from './store/lists.ts';
import { eraseSpamMark, writeSpamMark, type SpamMarkKey } from './store/verdicts.ts';

export const MARK_NOTE_MAX = 500;

export interface MarkInput {
  kind: SpamMarkKind;
  chain?: string | null | undefined;
  target: string;
  wallet?: string | null | undefined;
}

/**
 * A verdict's key as stored, or a ValidationError naming the field: a token needs its chain, a
 * contract and an address hold on every chain; an EVM contract or address is 0x and 40 hex digits
 * (kept in lower case, as the transactions keep them).
 */
export function cleanMarkKey(input: MarkInput): SpamMarkKey {
  const chain = input.chain?.trim() || null;
  if (input.kind === 'token' && !chain)
    throw new ValidationError('chain', 'A token is marked on its chain: give the chain (or mark the contract, for every chain).');
  if (input.kind !== 'token' && chain)
    throw new ValidationError(
      'chain',
      `A${input.kind === 'address' ? 'n address' : ' contract'}'s verdict holds on every chain: leave out the chain (or mark the token, for one chain).`,
    );
  if (chain && !/^[A-Za-z0-9_.:-]{1,64}$/.test(chain))
    throw new ValidationError('chain', `"${chain.slice(0, 64)}" is not a chain id (letters, digits, _ . : - only).`);
  const t = input.target.trim();
  const evm = chain ? isEvmChain(chain) : /^0x/i.test(t);
  if (evm && !/^0x[0-9a-fA-F]{40}$/.test(t))
    throw new ValidationError('target', `Not an EVM ${input.kind === 'address' ? 'address' : 'contract'}: expected 0x followed by 40 hexadecimal characters.`);
  if (!/^[\x21-\x7e]{1,128}$/.test(t)) throw new ValidationError('target', 'Expected an address: printable characters without spaces, at most 128.');
  const wallet = input.wallet?.trim() || null;
  return { kind: input.kind, chain, target: evm ? t.toLowerCase() : t, wallet: wallet && /^0x[0-9a-fA-F]{40}$/.test(wallet) ? wallet.toLowerCase() : wallet };
}

export function cleanMarkNote(note: string | null | undefined): string {
  const n = (note ?? '').trim();
  if (n.length > MARK_NOTE_MAX) throw new ValidationError('note', `The note is too long (at most ${MARK_NOTE_MAX} characters).`);
  const problem = unsafeCharsProblem(n.replace(/\r?\n/g, ' '));
  if (problem) throw new ValidationError('note', `The note ${problem}.`);
  return n;
}

/** Marks a token, a contract or an address (for a wallet or every wallet), over any verdict of the same key. */
export function markSpam(db: WritableDB, input: MarkInput & { verdict: SpamMarkVerdict; note?: string | undefined }, now = editTime()): SpamMark {
  const k = cleanMarkKey(input);
  const note = cleanMarkNote(input.note);
  return db.transaction(() => writeSpamMark(db, k, input.verdict, note, now))();
}

/** Clears a verdict: the lists and the rules decide again. False when there was none. */
export function clearSpam(db: WritableDB, input: MarkInput, now = editTime()): boolean {
  const k = cleanMarkKey(input);
  return db.transaction(() => eraseSpamMark(db, k, now))();
}

/**
 * Imports a list (checked whole first: spam/lists.ts), kept under its name over any list of that
 * name: `name` given, else the file's `name`. The shipped list's name is its own.
 */
export function importSpamList(db: WritableDB, text: string, name: string | undefined, now = editTime()): SpamListInfo {
  const list = readSpamList(text);
  const chosen = (name ?? list.name ?? '').trim();
  if (!chosen) throw new ValidationError('name', 'Name the list (the file has no "name"): it is kept, shown and replaced by its name.');
  if (chosen.length > 100) throw new ValidationError('name', 'The name is too long (at most 100 characters).');
  const problem = unsafeCharsProblem(chosen);
  if (problem) throw new ValidationError('name', `The name ${problem}.`);
  if (chosen.toLowerCase() === DEFAULT_LIST_NAME.toLowerCase())
    throw new ValidationError('name', `"${DEFAULT_LIST_NAME}" is the shipped list's name: give yours another.`);
  const counts = listCounts(list);
  const saved = db.transaction(() =>
    putSpamList(
      db,
      {
        name: chosen,
        sha256: createHash('sha256').update(text).digest('hex'),
        list: JSON.stringify(list),
        tokens: counts.tokens,
        addresses: counts.addresses,
        patterns: counts.symbolPatterns,
      },
      now,
    ),
  )();
  return { name: saved.name, source: 'user', importedAt: saved.importedAt, ...counts };
}

export function removeSpamList(db: WritableDB, name: string, now = editTime()): boolean {
  return db.transaction(() => deleteSpamList(db, name, now))();
}
