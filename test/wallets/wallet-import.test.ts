import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { cliAsync } from '../support/hostile-service.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { CSV_COLUMNS } from '../../src/main/core/reports/csv-reports.ts';
import { WALLET_CSV_COLUMNS } from '../../src/main/core/wallets/csv.ts';

/**
 * Watched wallets in bulk (issue 40, item 1): a CSV read row by row into what an import writes,
 * all rows in one transaction or none; Safe's address book and the address book's "ours"
 * entries read too; exported in the form it reads back. Through the core as the app calls it, and
 * through `folioscope wallet import` as a process, a thousand wallets at once.
 */
const A = '0x' + 'a1'.repeat(20);
const B = '0x' + 'b2'.repeat(20);
const C = '0x' + 'c3'.repeat(20);

let core: Core;
beforeAll(async () => {
  core = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0 });
});
afterAll(() => core?.close());

const csv = (...lines: string[]) => lines.join('\n');

describe('a wallets CSV', () => {
  it('reads its columns (any order, ; between chains, tags and groups, EIP-3770 prefixes), imports every row in one step with the groups, audited', async () => {
    const text = csv(
      'label,address,chains,tags,groups',
      `Treasury,${A.toUpperCase().replace('0X', '0x')},eth;arb,ops;2026,Fund I`,
      `Cold,arb1:${B},,cold,Fund I;Reserves`,
      `"Grants, multisig",${C},oeth;base,,`,
    );
    const preview = await core.request('wallets.preview', { text });
    expect(preview).toMatchObject({ format: 'folioscope', applicable: true, applied: false, counts: { add: 3, error: 0, conflict: 0 } });
    expect(preview.rows.map((r) => [r.row, r.address, r.chains, r.groups])).toEqual([
      [2, A, ['eth', 'arb'], ['Fund I']],
      [3, B, ['arb'], ['Fund I', 'Reserves']],
      [4, C, ['op', 'base'], []],
    ]);
    // A preview writes nothing.
    expect(await core.call('wallets.list', undefined)).toEqual([]);
    const done = await core.request('wallets.import', { text });
    expect(done).toMatchObject({ applied: true, counts: { add: 3 } });
    const wallets = await core.call('wallets.list', undefined);
    expect(wallets.map((w) => [w.address, w.label, w.chains, w.tags])).toEqual(
      expect.arrayContaining([
        [A, 'Treasury', ['eth', 'arb'], ['ops', '2026']],
        [B, 'Cold', ['arb'], ['cold']],
        [C, 'Grants, multisig', ['op', 'base'], []],
      ]),
    );
    const groups = await core.call('groups.list', undefined);
    expect(groups.map((g) => [g.name, [...g.wallets].sort()])).toEqual([
      ['Fund I', [A, B].sort()],
      ['Reserves', [B]],
    ]);
    const created = (await core.call('audit.list', { entity: 'wallet' })).entries.filter((e) => e.action === 'create');
    expect(created).toHaveLength(3);
  });

  it('the same file again changes nothing; exported, it reads back as it is', async () => {
    const { csv: out, count } = await core.request('wallets.export', undefined);
    expect(count).toBe(3);
    const again = await core.request('wallets.preview', { text: out });
    expect(again.counts).toMatchObject({ add: 0, update: 0, same: 3, error: 0, conflict: 0 });
  });

  it('one row in error, or a wallet watched under another label: nothing at all is written, each row says why', async () => {
    const before = await core.call('wallets.list', undefined);
    const auditBefore = (await core.call('audit.list', {})).entries.length;
    const D = '0x' + 'd4'.repeat(20);
    const bad = csv(
      'address,label,chains',
      `${D},New one,eth`,
      `0x1234,Short,eth`,
      `${'0x' + 'e5'.repeat(20)},Nowhere,solana`,
      `${'0x' + 'f6'.repeat(20)},No chain,`,
      `${A},Renamed treasury,eth`,
    );
    const res = await core.request('wallets.import', { text: bad });
    expect(res.applied).toBe(false);
    expect(res.applicable).toBe(false);
    expect(res.rows.map((r) => [r.row, r.outcome])).toEqual([
      [2, 'add'],
      [3, 'error'],
      [4, 'error'],
      [5, 'error'],
      [6, 'conflict'],
    ]);
    expect(res.rows[1]!.problem).toMatch(/not an evm address/i);
    expect(res.rows[2]!.problem).toMatch(/unknown chain "solana"/);
    expect(res.rows[3]!.problem).toMatch(/names no chain/);
    expect(res.rows[4]!.problem).toMatch(/watched as "Treasury" \(import with replace/);
    expect(await core.call('wallets.list', undefined)).toEqual(before);
    expect((await core.call('audit.list', {})).entries).toHaveLength(auditBefore);
    // With replace, the label is the file's (the other rows mended).
    const replaced = await core.request('wallets.import', { text: csv('address,label,chains', `${A},Renamed treasury,eth`), replace: true });
    expect(replaced).toMatchObject({ applied: true, counts: { update: 1 } });
    // A chains column states the wallet's chains whole.
    expect((await core.call('wallets.list', undefined)).find((w) => w.address === A)).toMatchObject({ label: 'Renamed treasury', chains: ['eth'] });
  });

  it('reads Safe\'s address book (a row per chain, joined) and an address-book export (its "ours" entries; the others skipped)', async () => {
    const E = '0x' + 'e7'.repeat(20);
    const safe = await core.request('wallets.preview', { text: csv('address,name,chainId', `${E},Ops safe,1`, `${E},Ops safe,42161`, `${E},Ops safe,10`) });
    expect(safe).toMatchObject({ format: 'safe', applicable: true, counts: { add: 1, merged: 2 } });
    expect(safe.rows[0]!.chains).toEqual(['eth', 'arb', 'op']);
    const book = await core.request('wallets.preview', {
      text: csv('address,name,tags,ours,chains,note', `${E},Ops safe,,true,eth;base,`, `${'0x' + '99'.repeat(20)},Exchange,cex,false,,`),
    });
    expect(book).toMatchObject({ format: 'address-book', applicable: true, counts: { add: 1, skipped: 1 } });
    expect(book.rows[1]!.problem).toMatch(/not one of yours/);
  });

  it("the export job (the UI's Export) writes the columns import reads, as wallets.export does", () => {
    expect(CSV_COLUMNS.wallets).toEqual([...WALLET_CSV_COLUMNS]);
  });

  it('refuses a file that is not a wallets CSV, naming what it expected', async () => {
    const res = await core.dispatch('wallets.preview', { text: 'name,balance\nx,1\n' });
    expect(res).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/Line 1 is not a wallets header: expected address,label,chains,tags,groups/) },
    });
    const empty = await core.dispatch('wallets.import', { text: '' });
    expect(empty).toMatchObject({ ok: false, error: { message: expect.stringMatching(/The file is empty/) } });
  });
});

describe('many wallets edited in one step (wallets.bulkEdit)', () => {
  it('adds and removes tags, chains and group membership across the wallets named, each change audited; one it cannot apply to refuses all', async () => {
    const c = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0 });
    try {
      await c.request('wallets.import', { text: csv('address,label,chains,tags,groups', `${A},A,eth,Ops,G1`, `${B},B,eth;arb,,`, `${C},C,base,ops;cold,`) });
      const g1 = (await c.call('groups.list', undefined)).find((g) => g.name === 'G1')!;
      const g2 = await c.request('groups.save', { name: 'G2', wallets: [C] });
      const audited = (await c.call('audit.list', {})).entries.length;
      const done = await c.request('wallets.bulkEdit', {
        addresses: [A, B, C, A.toUpperCase().replace('0X', '0x')],
        addTags: ['Audited'],
        removeTags: ['OPS'],
        addChains: ['arb'],
        addToGroups: [g1.id],
        removeFromGroups: [g2.id],
      });
      expect(done).toEqual({ wallets: 3, changed: 3, removed: 0, groupsChanged: 2 });
      const byAddress = new Map((await c.call('wallets.list', undefined)).map((w) => [w.address, w]));
      expect([A, B, C].map((a) => [byAddress.get(a)!.tags, byAddress.get(a)!.chains])).toEqual([
        [['Audited'], ['eth', 'arb']],
        [['Audited'], ['eth', 'arb']],
        [
          ['cold', 'Audited'],
          ['base', 'arb'],
        ],
      ]);
      const groups = new Map((await c.call('groups.list', undefined)).map((g) => [g.name, [...g.wallets].sort()]));
      expect(groups.get('G1')).toEqual([A, B, C].sort());
      expect(groups.get('G2')).toEqual([]);
      // A wallet edit per wallet and one per group, as by hand.
      expect((await c.call('audit.list', {})).entries.length - audited).toBe(5);

      // Left on no chain, or a wallet not watched: the whole edit is refused, nothing changed.
      const before = await c.call('wallets.list', undefined);
      const noChain = await c.dispatch('wallets.bulkEdit', { addresses: [A, C], removeChains: ['base', 'arb'], addTags: ['x'] });
      expect(noChain).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(new RegExp(`${C} would be left on no chain\\. Nothing was changed`)) },
      });
      const unknown = await c.dispatch('wallets.bulkEdit', { addresses: [A, '0x' + '77'.repeat(20)], addTags: ['x'] });
      expect(unknown).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^Not watched: 0x7777.*Nothing was changed\.$/) } });
      const nothing = await c.dispatch('wallets.bulkEdit', { addresses: [A] });
      expect(nothing).toMatchObject({ ok: false, error: { message: expect.stringMatching(/say what to change/) } });
      expect(await c.call('wallets.list', undefined)).toEqual(before);

      const removed = await c.request('wallets.bulkEdit', { addresses: [A, B], remove: true });
      expect(removed).toMatchObject({ wallets: 2, removed: 2 });
      expect((await c.call('wallets.list', undefined)).map((w) => w.address)).toEqual([C]);
    } finally {
      c.close();
    }
  });
});

describe('folioscope wallet import, as cron or a person runs it', { timeout: 120_000 }, () => {
  it('imports a thousand wallets in one step, and a file with one bad row imports nothing and exits 1', async () => {
    const dir = tempDir();
    const file = join(dir, 'wallets.csv');
    const rows = Array.from({ length: 1000 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')},Wallet ${i + 1},eth;arb,,${i % 2 ? 'Odd' : 'Even'}`);
    writeFileSync(file, ['address,label,chains,tags,groups', ...rows].join('\n'));
    const base = ['--data-dir', dir];
    const ok = await cliAsync([...base, 'wallet', 'import', file]);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^Imported \(CSV\): 1000 wallets added, 0 updated, 0 unchanged, 0 merged, 0 skipped, 0 conflicts, 0 errors\.$/m);
    const listed = JSON.parse((await cliAsync([...base, 'wallet', 'list', '--json'])).stdout) as unknown[];
    expect(listed).toHaveLength(1000);
    const groups = (await cliAsync([...base, 'group', 'list'])).stdout;
    expect(groups).toMatch(/\tEven\t/);
    expect(groups).toMatch(/\tOdd\t/);

    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, ['address,label,chains', `0x${'ab'.repeat(20)},New,eth`, '0xnothex,Broken,eth'].join('\n'));
    const refused = await cliAsync([...base, 'wallet', 'import', bad]);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toMatch(/^line 3\tERROR\t0xnothex\tBroken\t.*EVM address/m);
    expect(refused.stdout).toMatch(/^Nothing was imported: 1 wallet to add, .* 1 error\. Correct the rows in error, then run it again\.$/m);
    expect(JSON.parse((await cliAsync([...base, 'wallet', 'list', '--json'])).stdout)).toHaveLength(1000);

    const out = join(dir, 'out.csv');
    const exported = await cliAsync([...base, 'wallet', 'export', '--out', out]);
    expect(exported.stdout).toMatch(/^Wrote 1000 wallets to /);
    const again = await cliAsync([...base, 'wallet', 'import', out, '--dry-run']);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/^Would import: 0 wallets to add, 0 to update, 1000 unchanged,/m);

    // The odd half tagged and moved from Odd to Even in one step, their addresses on standard input.
    const odd = rows.filter((_, i) => i % 2).map((r) => r.split(',')[0]!);
    const edited = await cliAsync([...base, 'wallet', 'edit', '--from', '-', '--add-tags', 'audited', '--add-group', 'even', '--remove-group', 'Odd'], {
      input: `# odd ones\n${odd.join('\n')}\n`,
    });
    expect(edited.stderr).toBe('');
    expect(edited.stdout).toMatch(/^Edited 500 wallets: 500 changed, 0 already so; 2 groups changed\.$/m);
    const after = JSON.parse((await cliAsync([...base, 'group', 'list', '--json'])).stdout) as Array<{ name: string; wallets: string[] }>;
    expect(after.map((g) => [g.name, g.wallets.length])).toEqual(
      expect.arrayContaining([
        ['Even', 1000],
        ['Odd', 0],
      ]),
    );
    const refused2 = await cliAsync([...base, 'wallet', 'edit', odd[0]!, '0xnotwatched', '--add-tags', 'x']);
    expect(refused2.status).not.toBe(0);
    expect(refused2.stderr).toMatch(/Not watched: 0xnotwatched\. Nothing was changed\./);
  });
});
