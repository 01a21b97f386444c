import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listEdits } from '../../src/main/core/audit/store/trail.ts';
import { listSpamMarks, listStoredSpamLists, spamJudge } from '../../src/main/core/spam/index.ts';
import { importSpamList, markSpam } from '../../src/main/core/spam/verdicts.ts';
import { applyUserData } from '../../src/main/core/userdata/store/user-data.ts';
import { readUserDataFile, writeUserDataFile } from '../../src/main/core/userdata/format.ts';
import { exportUserData, planImport } from '../../src/main/core/userdata/plan.ts';
import type { WritableDB } from '../../src/main/core/store/handles.ts';
import { runCliHere } from '../support/cli-in-process.ts';
import { runCli } from '../support/cli-process.ts';
import { SIM_NOW } from '../support/sim.ts';
import { createDB, tempDir } from '../support/store.ts';

/**
 * The user's data file carries the spam verdicts and the spam lists the user imported: exported
 * whole, imported item by item with their conflicts, each an audited edit; a list checked as `spam
 * lists import` checks a file, the whole file refused when one fails. A backup holds the lists too.
 */
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

const TOK = '0x' + 'fc'.repeat(20);
const OPS = {
  version: 1,
  name: 'Ops list',
  tokens: [{ chain: 'eth', cid: TOK, verdict: 'spam', note: 'fake USDC airdrop' }],
  symbolPatterns: [{ pattern: '*claim*' }],
};
const TEAM = { version: 1, tokens: [{ chain: null, cid: TOK, verdict: 'genuine' }], addresses: [{ address: G, verdict: 'genuine', note: 'vendor' }] };
/** Two lists: the team's first, then the ops list (newer: it decides first). */
function withLists() {
  const db = source();
  importSpamList(db, JSON.stringify(TEAM), 'team', new Date('2026-10-01T00:00:00Z'));
  importSpamList(db, JSON.stringify(OPS, null, 2), undefined, new Date('2026-10-02T00:00:00Z'));
  return db;
}
const lists = (db: WritableDB) => listStoredSpamLists(db);

describe('spam lists in the data file', () => {
  it('are written whole, newest first, and read back equal (time, hash, entries), so the same list decides; each an edit; again: unchanged', async () => {
    const db = withLists();
    const doc = exportUserData(db, 't', new Date('2026-11-01T00:00:00Z'));
    expect(doc.data.spamLists.map((l) => [l.name, l.importedAt])).toEqual([
      ['Ops list', '2026-10-02T00:00:00.000Z'],
      ['team', '2026-10-01T00:00:00.000Z'],
    ]);
    expect(doc.data.spamLists[0]!.list).toMatchObject({ name: 'Ops list', tokens: [{ cid: TOK, verdict: 'spam' }] });
    const { doc: read } = await readUserDataFile(await writeUserDataFile(doc));
    const target = createDB();
    const { preview, writes } = planImport(target, read, { encrypted: false, replace: false });
    expect(preview.items.filter((i) => i.kind === 'spam-list').map((i) => [i.key, i.state, i.detail])).toEqual([
      ['Ops list', 'added', '1 tokens, 0 addresses, 1 symbol patterns'],
      ['team', 'added', '1 tokens, 1 addresses, 0 symbol patterns'],
    ]);
    applyUserData(target, writes);
    expect(lists(target)).toEqual(lists(db));
    expect(listEdits(target, { entity: 'spam-list' })).toHaveLength(2);
    // The newer list decides first, here as there: the token is spam by the ops list, the address genuine by the team's.
    const token = (d: WritableDB) => spamJudge(d).token(W, 'eth', { cid: TOK, symbol: 'USDC' });
    expect(token(target)).toMatchObject({ spam: true, decidedBy: 'list', reasons: [{ code: 'list.spam' }] });
    expect(token(target).reasons[0]!.text).toBe(token(db).reasons[0]!.text);
    const again = planImport(target, read, { encrypted: false, replace: false });
    expect(again.preview.items.filter((i) => i.kind === 'spam-list').map((i) => i.state)).toEqual(['unchanged', 'unchanged']);
    expect(again.writes.saveSpamLists).toEqual([]);
  });

  it('reads a file written before lists were carried: it imports, adding none', async () => {
    const file = JSON.parse(await writeUserDataFile(exportUserData(withLists(), 't')));
    delete file.data.spamLists;
    const { doc } = await readUserDataFile(JSON.stringify(file));
    expect(doc.data.spamLists).toEqual([]);
    const target = createDB();
    applyUserData(target, planImport(target, doc, { encrypted: false, replace: false }).writes);
    expect(lists(target)).toEqual([]);
    expect(listSpamMarks(target)).toHaveLength(3);
  });

  it('another list of that name here is a conflict that blocks the import unless replace, which takes the file’s with its time', () => {
    const doc = exportUserData(withLists(), 't');
    const here = createDB();
    importSpamList(
      here,
      JSON.stringify({ version: 1, tokens: [{ chain: 'eth', cid: TOK, verdict: 'genuine' }] }),
      'Ops list',
      new Date('2026-11-05T00:00:00Z'),
    );
    const before = lists(here);
    const { preview } = planImport(here, doc, { encrypted: false, replace: false });
    expect(preview.items.find((i) => i.kind === 'spam-list' && i.key === 'Ops list')).toMatchObject({
      state: 'conflict',
      detail:
        'another list here (imported 2026-11-05T00:00:00.000Z: 1 tokens, 0 addresses, 0 symbol patterns); in the file imported 2026-10-02T00:00:00.000Z: 1 tokens, 0 addresses, 1 symbol patterns',
    });
    expect(preview.applicable).toBe(false);
    expect(lists(here)).toEqual(before);
    applyUserData(here, planImport(here, doc, { encrypted: false, replace: true }).writes);
    expect(lists(here)).toEqual(lists(withLists()));
  });

  it('refuses a file whose list breaks the list format (a member, an entry twice, an unknown member, its name), or names one twice, before writing anything', async () => {
    const doc = exportUserData(withLists(), 't');
    const target = createDB();
    const refused = (edit: (d: typeof doc) => void) => {
      const bad = structuredClone(doc);
      edit(bad);
      return () => planImport(target, bad, { encrypted: false, replace: false });
    };
    expect(refused((d) => ((d.data.spamLists[0]!.list['tokens'] as Array<{ cid: string }>)[0]!.cid = '0x12'))).toThrow(
      'Spam list 1 of the file ("Ops list") is not valid (tokens[0].cid: expected 0x and 40 hex digits). Nothing was imported.',
    );
    expect(
      refused((d) => (d.data.spamLists[1]!.list['tokens'] as unknown[]).push({ chain: null, cid: TOK.toUpperCase().replace('0X', '0x'), verdict: 'spam' })),
    ).toThrow('Spam list 2 of the file ("team") is not valid (tokens[1]: the same entry as tokens[0]). Nothing was imported.');
    expect(refused((d) => (d.data.spamLists[1]!.list['why'] = 'x'))).toThrow(/Spam list 2 of the file \("team"\) is not valid \(the list: .*why/);
    expect(refused((d) => (d.data.spamLists[1]!.list['version'] = 2))).toThrow(/Spam list 2 .*\(version: expected version 1/);
    expect(refused((d) => (d.data.spamLists[0]!.name = 'folioscope DEFAULTS'))).toThrow(
      /Spam list 1 of the file: "Folioscope defaults" is the shipped list's name/,
    );
    expect(refused((d) => (d.data.spamLists[0]!.name = 'a\u202eb'))).toThrow(/Spam list 1 of the file: The name .*Nothing was imported/);
    expect(refused((d) => (d.data.spamLists[1]!.name = 'Ops list'))).toThrow('The file lists the spam list "Ops list" twice. Nothing was imported.');
    const file = JSON.parse(await writeUserDataFile(doc));
    file.data.spamLists[0].why = 'x';
    await expect(readUserDataFile(JSON.stringify(file))).rejects.toThrow(/spamLists\.0/);
    expect(lists(target)).toEqual([]);
    expect(listSpamMarks(target)).toEqual([]);
  });

  it(
    'on the command line: exported, imported elsewhere (a bad list refused whole, exit 1), and held by a backup that restores it',
    { timeout: 180_000 },
    async () => {
      const env = { FOLIOSCOPE_ACCESS_KEY: '' };
      const now = () => SIM_NOW;
      const run = (dir: string, ...args: string[]) => runCliHere(['--data-dir', dir, ...args], { env, now });
      const ok = async (r: Promise<{ status: number | null; stdout: string; stderr: string }>) => {
        const done = await r;
        expect(done.status, done.stdout + done.stderr).toBe(0);
        return done.stdout;
      };
      const a = tempDir();
      const listFile = join(a, 'ops.json');
      writeFileSync(listFile, JSON.stringify(OPS, null, 2));
      await ok(run(a, 'spam', 'lists', 'import', listFile));
      await ok(run(a, 'spam', 'mark', 'address', G, '--not-spam'));
      const dataFile = join(a, 'mine.json');
      await ok(run(a, 'data', 'export', '--out', dataFile));
      // A list's `version` is its newest edit in that cache's own trail (store/versions.ts), not the list's: left out.
      const listsOf = async (dir: string) =>
        (JSON.parse(await ok(run(dir, 'spam', 'lists', '--json'))) as Array<{ name: string; importedAt: string | null; version?: number }>).map(
          ({ version: _, ...l }) => l,
        );
      const listedA = await listsOf(a);

      const b = tempDir();
      const imported = await ok(run(b, 'data', 'import', dataFile));
      expect(imported).toMatch(/^add {7}spam-list {2}Ops list {2}1 tokens, 0 addresses, 1 symbol patterns$/m);
      expect(await listsOf(b)).toEqual(listedA);

      // The same file with its list broken: refused whole as a process would show it (exit 1, why), nothing imported.
      const broken = JSON.parse(readFileSync(dataFile, 'utf8'));
      broken.data.spamLists[0].list.tokens[0].verdict = 'maybe';
      const brokenFile = join(a, 'broken.json');
      writeFileSync(brokenFile, JSON.stringify(broken));
      const c = tempDir();
      const refused = await runCli(['--data-dir', c, 'data', 'import', brokenFile], env);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(
        /^folioscope: Spam list 1 of the file \("Ops list"\) is not valid \(tokens\[0\]\.verdict: .*\)\. Nothing was imported\.$/m,
      );
      expect((await listsOf(c)).map((l) => l.name)).toEqual(['Folioscope defaults']);
      expect(JSON.parse(await ok(run(c, 'spam', 'list', '--json')))).toEqual([]);

      // A backup holds the list: removed after it, restored with it.
      await ok(run(a, 'backup', 'create'));
      const [backup] = readdirSync(join(a, 'backups')).filter((f) => f.endsWith('.sqlite'));
      await ok(run(a, 'spam', 'lists', 'remove', 'Ops list'));
      expect((await listsOf(a)).map((l) => l.name)).toEqual(['Folioscope defaults']);
      await ok(run(a, 'backup', 'restore', backup!));
      expect(await listsOf(a)).toEqual(listedA);
    },
  );
});
