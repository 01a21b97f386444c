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
import { checkVersion, lastEdit } from '../store/versions.ts';
import type { WritableDB } from '../store/handles.ts';
import { isEvmChain, ValidationError } from '../store/validation.ts';
import { checkSpamList, cleanListName, listCounts, readSpamList } from './lists.ts';
import { pathText } from './json-lines.ts';
import { deleteSpamList, listStoredSpamLists, putSpamList, type StoredSpamList } from './store/lists.ts';
import { eraseSpamMark, getSpamMark, markItem, writeSpamMark, type SpamMarkKey } from './store/verdicts.ts';

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
export function markSpam(
  db: WritableDB,
  input: MarkInput & { verdict: SpamMarkVerdict; note?: string | undefined; expectedVersion?: number | undefined },
  now = editTime(),
): SpamMark {
  const k = cleanMarkKey(input);
  const note = cleanMarkNote(input.note);
  return db.transaction(() => {
    checkMark(db, k, input.expectedVersion);
    return { ...writeSpamMark(db, k, input.verdict, note, now), version: lastEdit(db, 'spam-verdict', markItem(k)).version };
  })();
}

/** Refuses a verdict's change made on a version someone changed since (store/versions.ts). */
function checkMark(db: WritableDB, k: SpamMarkKey, expected: number | undefined): void {
  checkVersion(db, 'spam-verdict', markItem(k), markItem(k), expected, getSpamMark(db, k) !== null);
}

/** Clears a verdict: the lists and the rules decide again. False when there was none. */
export function clearSpam(db: WritableDB, input: MarkInput & { expectedVersion?: number | undefined }, now = editTime()): boolean {
  const k = cleanMarkKey(input);
  return db.transaction(() => {
    checkMark(db, k, input.expectedVersion);
    return eraseSpamMark(db, k, now);
  })();
}

/**
 * Imports a list (checked whole first: spam/lists.ts), kept under its name over any list of that
 * name: `name` given, else the file's `name`. The shipped list's name is its own.
 */
export function importSpamList(db: WritableDB, text: string, name: string | undefined, now = editTime(), expectedVersion?: number): SpamListInfo {
  const list = readSpamList(text);
  const chosen = cleanListName(name ?? list.name ?? '');
  const counts = listCounts(list);
  const saved = db.transaction(() => {
    checkList(db, chosen, expectedVersion);
    return putSpamList(
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
    );
  })();
  return { name: saved.name, source: 'user', importedAt: saved.importedAt, ...counts };
}

/**
 * A list a data file carries (docs/data-format.md), checked as `folioscope spam lists import` checks
 * a list file (its format, one entry per token and address, its name): the list as it would be
 * kept, its time and hash as the file says, or a ValidationError naming the list and what is wrong.
 */
export function cleanCarriedList(entry: { name: string; importedAt: string; sha256: string; list: unknown }, n: number): StoredSpamList {
  let name: string;
  try {
    name = cleanListName(entry.name);
  } catch (err) {
    throw new ValidationError('file', `Spam list ${n} of the file: ${(err as Error).message} Nothing was imported.`);
  }
  const checked = checkSpamList(entry.list);
  if ('fault' in checked)
    throw new ValidationError(
      'file',
      `Spam list ${n} of the file ("${name}") is not valid (${pathText(checked.fault.path) || 'the list'}: ${checked.fault.message}). Nothing was imported.`,
    );
  const counts = listCounts(checked.list);
  return {
    name,
    importedAt: entry.importedAt,
    sha256: entry.sha256,
    list: JSON.stringify(checked.list),
    tokens: counts.tokens,
    addresses: counts.addresses,
    patterns: counts.symbolPatterns,
  };
}

export function removeSpamList(db: WritableDB, name: string, now = editTime(), expectedVersion?: number): boolean {
  return db.transaction(() => {
    checkList(db, name, expectedVersion);
    return deleteSpamList(db, name, now);
  })();
}

/** Refuses a list's import over, or removal of, a version someone changed since (store/versions.ts). */
function checkList(db: WritableDB, name: string, expected: number | undefined): void {
  checkVersion(
    db,
    'spam-list',
    name,
    name,
    expected,
    listStoredSpamLists(db).some((l) => l.name === name),
  );
}
