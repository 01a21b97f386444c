/**
 * What an address-book entry may hold, checked the same way for the form, the CLI and every row
 * of an import: the address normalised as a wallet's is (store/validation.ts; an EVM address in
 * lower case, any other exactly as written), a name and tags free of invisible or text-moving
 * characters (shared/text-safety.ts, as wallet labels), the chain ids well formed.
 */
import type { Counterparty } from '../../../shared/model.ts';
import { unsafeCharsProblem } from '../../../shared/text-safety.ts';
import { addressKey } from '../store/address-key.ts';
import { normaliseAddress, ValidationError } from '../store/validation.ts';

export const NAME_MAX = 100;
export const TAG_MAX = 32;
export const TAGS_MAX = 20;
export const NOTE_MAX = 1000;

export interface EntryInput {
  address: string;
  name: string;
  tags?: readonly string[] | undefined;
  ours?: boolean | undefined;
  chains?: readonly string[] | undefined;
  note?: string | undefined;
}

/** The entry's fields as stored (no dates), or a ValidationError naming the field. */
export function cleanEntry(input: EntryInput): Omit<Counterparty, 'createdAt' | 'updatedAt'> {
  const chains = [...new Set((input.chains ?? []).map((c) => c.trim()).filter(Boolean))].sort();
  for (const c of chains)
    if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(c)) throw new ValidationError('chains', `"${c}" is not a chain id (letters, digits, _ . : - only).`);
  // With no chain named the address holds on every chain: one written 0x… is read as an EVM
  // address (0x and 40 hex digits, else refused) and kept in lower case, as the transactions
  // hold it (addressKey); any other is kept exactly as written.
  const checkAs = chains.length ? chains : /^0x/i.test(input.address) ? ['eth'] : [];
  const address = addressKey(normaliseAddress(input.address, checkAs));
  const name = input.name.trim();
  if (!name) throw new ValidationError('name', 'Enter a name.');
  if (name.length > NAME_MAX) throw new ValidationError('name', `The name is too long (at most ${NAME_MAX} characters).`);
  const nameProblem = unsafeCharsProblem(name);
  if (nameProblem) throw new ValidationError('name', `The name ${nameProblem}.`);
  const tags = [...new Set((input.tags ?? []).map((t) => t.trim()).filter(Boolean))];
  if (tags.length > TAGS_MAX) throw new ValidationError('tags', `At most ${TAGS_MAX} tags.`);
  for (const t of tags) {
    const problem = unsafeCharsProblem(t);
    if (problem) throw new ValidationError('tags', `A tag ${problem}.`);
    // The CSV separates tags with ";" (docs/address-book.md): one inside a tag would split it.
    if (t.includes(';')) throw new ValidationError('tags', `The tag "${t.slice(0, 12)}" contains ";", which separates tags.`);
    if (t.length > TAG_MAX) throw new ValidationError('tags', `The tag "${t.slice(0, 12)}…" is too long (at most ${TAG_MAX} characters).`);
  }
  const note = (input.note ?? '').trim();
  if (note.length > NOTE_MAX) throw new ValidationError('note', `The note is too long (at most ${NOTE_MAX} characters).`);
  const noteProblem = unsafeCharsProblem(note.replace(/\r?\n/g, ' '));
  if (noteProblem) throw new ValidationError('note', `The note ${noteProblem}.`);
  return { address, name, tags, ours: input.ours ?? false, chains, note };
}

/** Whether two entries say the same (dates aside). */
export function sameEntry(a: Omit<Counterparty, 'createdAt' | 'updatedAt'>, b: Omit<Counterparty, 'createdAt' | 'updatedAt'>): boolean {
  return (
    a.address === b.address &&
    a.name === b.name &&
    a.ours === b.ours &&
    a.note === b.note &&
    JSON.stringify(a.tags) === JSON.stringify(b.tags) &&
    JSON.stringify([...a.chains].sort()) === JSON.stringify([...b.chains].sort())
  );
}
