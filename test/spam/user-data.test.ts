import { describe, expect, it } from 'vitest';
import { listEdits } from '../../src/main/core/audit/store/trail.ts';
import { listSpamMarks } from '../../src/main/core/spam/index.ts';
import { markSpam } from '../../src/main/core/spam/verdicts.ts';
import { applyUserData } from '../../src/main/core/userdata/store/user-data.ts';
import { readUserDataFile, writeUserDataFile } from '../../src/main/core/userdata/format.ts';
import { exportUserData, planImport } from '../../src/main/core/userdata/plan.ts';
import type { WritableDB } from '../../src/main/core/store/handles.ts';
import { createDB } from '../support/store.ts';

/** The user's data file carries the spam verdicts: exported whole, imported verdict by verdict with its conflicts, each an audited edit. */
const W = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const FAKE = '0x' + 'fa'.repeat(20);
const G = '0x' + 'a1'.repeat(20);
const strip = (db: WritableDB) => listSpamMarks(db).map(({ createdAt: _c, updatedAt: _u, ...m }) => m);

function source() {
  const db = createDB();
  markSpam(db, { kind: 'token', chain: 'eth', target: FAKE, verdict: 'spam', note: 'airdrop' });
  markSpam(db, { kind: 'address', target: G, wallet: W, verdict: 'not-spam' });
  markSpam(db, { kind: 'contract', target: FAKE.replace('fa', 'fb'), verdict: 'spam' });
  return db;
}

describe('spam verdicts in the data file', () => {
  it('are written whole and read back into an empty cache equal (a wallet not watched there keeps its verdict), each an edit in the audit trail', async () => {
    const db = source();
    const doc = exportUserData(db, 't', new Date('2026-11-01T00:00:00Z'));
    expect(doc.data.spamVerdicts).toEqual(strip(db));
    const { doc: read } = await readUserDataFile(await writeUserDataFile(doc));
    const target = createDB();
    const { preview, writes } = planImport(target, read, { encrypted: false, replace: false });
    expect(preview.items.filter((i) => i.kind === 'spam').map((i) => [i.key, i.state, i.detail])).toEqual([
      [`contract 0xfbfafafafafafafafafafafafafafafafafafafa (every wallet)`, 'added', 'spam'],
      [`token eth ${FAKE} (every wallet)`, 'added', 'spam ("airdrop")'],
      [`address ${G} (wallet ${W})`, 'added', 'not-spam'],
    ]);
    applyUserData(target, writes);
    expect(strip(target)).toEqual(strip(db));
    expect(listEdits(target, { entity: 'spam-verdict' })).toHaveLength(3);
    // Imported again: unchanged, nothing written.
    const again = planImport(target, read, { encrypted: false, replace: false });
    expect(again.preview.items.filter((i) => i.kind === 'spam').map((i) => i.state)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(again.writes.saveSpamVerdicts).toEqual([]);
  });

  it('reads a file written before spam was carried: it imports, adding none', async () => {
    const file = JSON.parse(await writeUserDataFile(exportUserData(source(), 't')));
    delete file.data.spamVerdicts;
    const { doc } = await readUserDataFile(JSON.stringify(file));
    expect(doc.data.spamVerdicts).toEqual([]);
  });

  it('the other verdict here is a conflict that blocks the import unless replace; another note a change; nothing half-imported', async () => {
    const doc = exportUserData(source(), 't');
    const here = createDB();
    markSpam(here, { kind: 'token', chain: 'eth', target: FAKE, verdict: 'not-spam', note: 'ours' });
    markSpam(here, { kind: 'address', target: G, wallet: W, verdict: 'not-spam', note: 'vendor' });
    const before = strip(here);
    const { preview } = planImport(here, doc, { encrypted: false, replace: false });
    const items = preview.items.filter((i) => i.kind === 'spam');
    expect(items.map((i) => [i.state, i.detail])).toEqual([
      ['added', 'spam'],
      ['conflict', 'not-spam ("ours") here; spam ("airdrop") in the file'],
      ['changed', 'note "vendor" → ""'],
    ]);
    expect(preview.applicable).toBe(false);
    expect(strip(here)).toEqual(before);
    applyUserData(here, planImport(here, doc, { encrypted: false, replace: true }).writes);
    expect(strip(here)).toEqual(strip(source()));
  });

  it('refuses a file whose verdict breaks the rules (a token without its chain, a bad address, twice), naming it, before writing anything', async () => {
    const doc = exportUserData(source(), 't');
    const target = createDB();
    const noChain = structuredClone(doc);
    noChain.data.spamVerdicts[1]!.chain = null;
    expect(() => planImport(target, noChain, { encrypted: false, replace: false })).toThrow(
      /Spam verdict 2 of the file .*give the chain.*Nothing was imported/,
    );
    const badAddress = structuredClone(doc);
    badAddress.data.spamVerdicts[0]!.target = '0x12';
    expect(() => planImport(target, badAddress, { encrypted: false, replace: false })).toThrow(/Spam verdict 1 of the file .*Not an EVM/);
    const twice = structuredClone(doc);
    twice.data.spamVerdicts.push(twice.data.spamVerdicts[0]!);
    expect(() => planImport(target, twice, { encrypted: false, replace: false })).toThrow(/lists the spam verdict on .* twice/);
    const unknown = JSON.parse(await writeUserDataFile(doc));
    unknown.data.spamVerdicts[0].why = 'x';
    await expect(readUserDataFile(JSON.stringify(unknown))).rejects.toThrow(/spamVerdicts\.0/);
    expect(listSpamMarks(target)).toEqual([]);
  });
});
