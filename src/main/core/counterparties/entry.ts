/**
 * What an address-book entry may hold, checked the same way for the form, the CLI and every row
 * of an import: the address normalised as a wallet's is (store/validation.ts; an EVM address in
 * lower case, any other exactly as written), a name and tags free of invisible or text-moving
 * characters (shared/text-safety.ts, as wallet labels), the chain ids well formed.
 */
import type { Counterparty } from '../../../shared/model.ts';
import { unsafeChars } from '../../../shared/text-safety.ts';
import { addressKey } from '../store/address-key.ts';
import { normaliseAddress, refusal } from '../store/validation.ts';

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
  for (const c of chains) if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(c)) throw refusal('chains', 'chains.badId', { chain: c });
  // With no chain named the address holds on every chain: one written 0x… is read as an EVM
  // address (0x and 40 hex digits, else refused) and kept in lower case, as the transactions
  // hold it (addressKey); any other is kept exactly as written.
  const checkAs = chains.length ? chains : /^0x/i.test(input.address) ? ['eth'] : [];
  const address = addressKey(normaliseAddress(input.address, checkAs));
  const name = input.name.trim();
  if (!name) throw refusal('name', 'name.empty', {});
  if (name.length > NAME_MAX) throw refusal('name', 'text.tooLong', { field: 'name', max: NAME_MAX });
  const nameUnsafe = unsafeChars(name);
  if (nameUnsafe) throw refusal('name', 'text.unsafe', { field: 'name', ...nameUnsafe });
  const tags = [...new Set((input.tags ?? []).map((t) => t.trim()).filter(Boolean))];
  if (tags.length > TAGS_MAX) throw refusal('tags', 'tags.tooMany', { max: TAGS_MAX });
  for (const t of tags) {
    const unsafe = unsafeChars(t);
    if (unsafe) throw refusal('tags', 'text.unsafe', { field: 'tag', ...unsafe });
    // The CSV separates tags with ";" (docs/address-book.md): one inside a tag would split it.
    if (t.includes(';')) throw refusal('tags', 'tag.semicolon', { tag: t.slice(0, 12) });
    if (t.length > TAG_MAX) throw refusal('tags', 'tag.tooLong', { tag: t.slice(0, 12), max: TAG_MAX });
  }
  const note = (input.note ?? '').trim();
  if (note.length > NOTE_MAX) throw refusal('note', 'text.tooLong', { field: 'note', max: NOTE_MAX });
  const noteUnsafe = unsafeChars(note.replace(/\r?\n/g, ' '));
  if (noteUnsafe) throw refusal('note', 'text.unsafe', { field: 'note', ...noteUnsafe });
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
