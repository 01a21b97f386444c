import { describe, expect, it } from 'vitest';
import { saveCounterparty } from '../../src/main/core/counterparties/book.ts';
import { listEdits } from '../../src/main/core/audit/store/trail.ts';
import { listCounterparties } from '../../src/main/core/counterparties/store/counterparties.ts';
import { applyUserData } from '../../src/main/core/userdata/store/user-data.ts';
import { readUserDataFile, writeUserDataFile } from '../../src/main/core/userdata/format.ts';
import { exportUserData, planImport } from '../../src/main/core/userdata/plan.ts';
import { createDB } from '../support/store.ts';

/** The user's data file carries the address book: exported whole, imported entry by entry with its conflicts. */
const A = '0x' + 'a1'.repeat(20);
const B = '0x' + 'b2'.repeat(20);
const C = '0x' + 'c3'.repeat(20);
const strip = (db: Parameters<typeof listCounterparties>[0]) => listCounterparties(db).map(({ createdAt: _c, updatedAt: _u, ...e }) => e);

function source() {
  const db = createDB();
  saveCounterparty(db, { address: A, name: 'Grantee X', tags: ['grants'], chains: ['eth'], note: 'two\nlines' });
  saveCounterparty(db, { address: B, name: 'Cold signer', ours: true });
  return db;
}

describe('the address book in the data file', () => {
  it('is written whole and read back into an empty cache equal, each entry an edit in the audit trail', async () => {
    const db = source();
    const doc = exportUserData(db, 't', new Date('2026-01-01T00:00:00Z'));
    expect(doc.data.counterparties).toEqual(strip(db));
    const { doc: read } = await readUserDataFile(await writeUserDataFile(doc));
    const target = createDB();
    const { preview, writes } = planImport(target, read, { encrypted: false, replace: false });
    expect(preview.items.filter((i) => i.kind === 'counterparty').map((i) => [i.key, i.state])).toEqual([
      [B, 'added'],
      [A, 'added'],
    ]);
    applyUserData(target, writes);
    expect(strip(target)).toEqual(strip(db));
    expect(listEdits(target, { entity: 'counterparty' })).toHaveLength(2);
  });

  it('reads a file written before the book was carried: it imports, adding none', async () => {
    const file = JSON.parse(await writeUserDataFile(exportUserData(source(), 't')));
    delete file.data.counterparties;
    const { doc } = await readUserDataFile(JSON.stringify(file));
    expect(doc.data.counterparties).toEqual([]);
  });

  it('another name for an address here is a conflict that blocks the import unless replace; other fields a change; nothing half-imported', async () => {
    const doc = exportUserData(source(), 't');
    const here = createDB();
    saveCounterparty(here, { address: A, name: 'Grantee X' }); // other tags, chains and note: changed
    saveCounterparty(here, { address: B, name: 'Someone else' }); // another name: a conflict
    saveCounterparty(here, { address: C, name: 'Only here' }); // never removed
    const before = strip(here);
    const { preview } = planImport(here, doc, { encrypted: false, replace: false });
    const items = preview.items.filter((i) => i.kind === 'counterparty');
    expect(items.map((i) => [i.key, i.state])).toEqual([
      [B, 'conflict'],
      [A, 'changed'],
    ]);
    expect(items[0]!.detail).toBe('named "Someone else" here; "Cold signer" in the file');
    expect(preview.applicable).toBe(false);
    expect(strip(here)).toEqual(before);
    const replaced = planImport(here, doc, { encrypted: false, replace: true });
    applyUserData(here, replaced.writes);
    expect(strip(here).map((c) => [c.address, c.name])).toEqual([
      [B, 'Cold signer'],
      [A, 'Grantee X'],
      [C, 'Only here'],
    ]);
  });

  it('refuses a file whose entry breaks the rules (a bad address, a text-moving character), naming it, before writing anything', async () => {
    const doc = exportUserData(source(), 't');
    const bad = structuredClone(doc);
    bad.data.counterparties[1]!.name = 'Evil\u202Ename';
    const target = createDB();
    expect(() => planImport(target, bad, { encrypted: false, replace: false })).toThrow(/Address-book entry 2 of the file .*U\+202E.*Nothing was imported/);
    const twice = structuredClone(doc);
    twice.data.counterparties.push(twice.data.counterparties[0]!);
    expect(() => planImport(target, twice, { encrypted: false, replace: false })).toThrow(/lists the address-book entry .* twice/);
    expect(listCounterparties(target)).toEqual([]);
  });
});
