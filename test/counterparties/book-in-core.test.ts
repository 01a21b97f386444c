import { parse } from 'csv-parse/sync';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { counterpartyNamer } from '../../src/main/core/counterparties/namer.ts';
import { listEdits } from '../../src/main/core/audit/store/trail.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import type { TimelineRow } from '../../src/shared/model.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET as A, WALLET_2 as B } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';

/**
 * The address book through the core as every shell drives it: names on the timeline's rows, a
 * search by name, the transactions CSV's last columns read back from the written file, an
 * import that fails on one row changing nothing, and every edit in the audit trail.
 */
let core: Core;
let dir: string;
let rows: TimelineRow[];
/** The address A dealt with most, not a watched wallet: the one the book names. */
let grantee: string;

beforeAll(async () => {
  dir = tempDir();
  core = await createCore({ dataDir: dir, shell: 'web', baseUrl: null, demo: demoStarter({ txnsPerWallet: 150, now: () => SIM_NOW }) });
  await core.call('wallets.add', { address: A, chains: ['eth'], label: 'Ops' });
  await core.call('wallets.add', { address: B, chains: ['eth'], label: 'Cold' });
  await waitForJobs(core, [await core.call('sync.transactions', { wallet: A }), await core.call('sync.transactions', { wallet: B })]);
  rows = (await core.call('timeline.page', { wallet: A, limit: 1000 })).rows;
  const counts = new Map<string, number>();
  for (const r of rows) for (const x of [r.from, r.to]) if (x && x !== A && x !== B) counts.set(x, (counts.get(x) ?? 0) + 1);
  grantee = [...counts].sort((x, y) => y[1] - x[1])[0]![0];
});
afterAll(() => core.close());

describe('the address book in the core', () => {
  it('an import with one bad row writes nothing; fixed, it writes every row, each edit in the audit trail', async () => {
    const bad = `address,name,tags,ours,chains,note\neth:${grantee.toUpperCase().replace('0X', '0x')},Grantee X,grants,false,,\nzz:0x${'e5'.repeat(20)},Nowhere,,,,\n`;
    const refused = await core.call('counterparties.import', { text: bad });
    expect(refused.applied).toBe(false);
    expect(refused.rows.map((r) => [r.row, r.outcome])).toEqual([
      [2, 'add'],
      [3, 'error'],
    ]);
    expect(await core.call('counterparties.list', undefined)).toEqual([]);
    const db = await cacheOf(core);
    expect(listEdits(db, { entity: 'counterparty' })).toEqual([]);

    const good = bad.split('\n').slice(0, 2).join('\n') + `\n0x${'e5'.repeat(20)},Cold storage 2,,true,,kept offline\n`;
    const done = await core.call('counterparties.import', { text: good });
    expect(done.applied).toBe(true);
    const book = await core.call('counterparties.list', undefined);
    expect(book.map((c) => [c.address, c.name, c.chains, c.ours])).toEqual([
      [`0x${'e5'.repeat(20)}`, 'Cold storage 2', [], true],
      [grantee, 'Grantee X', ['eth'], false],
    ]);
    const edits = listEdits(db, { entity: 'counterparty' });
    expect(edits.map((e) => [e.key, e.action, e.origin, e.before])).toEqual(
      expect.arrayContaining([
        [grantee, 'create', 'counterparties.import', null],
        [`0x${'e5'.repeat(20)}`, 'create', 'counterparties.import', null],
      ]),
    );
    expect(edits).toHaveLength(2);

    // Edited and removed by hand: each recorded with before and after.
    await core.call('counterparties.save', { address: `0x${'e5'.repeat(20)}`, name: 'Cold storage 3', ours: true });
    expect(await core.call('counterparties.remove', { address: `0x${'E5'.repeat(20)}` })).toBe(true);
    const [removed, renamed] = listEdits(db, { entity: 'counterparty' });
    expect(renamed).toMatchObject({ action: 'update', before: { name: 'Cold storage 2' }, after: { name: 'Cold storage 3', ours: true } });
    expect(removed).toMatchObject({ action: 'delete', before: { name: 'Cold storage 3' }, after: null });
    // Bad input is refused whole, with the field.
    expect(await core.dispatch('counterparties.save', { address: grantee, name: 'Evil\u202Ename' })).toMatchObject({
      ok: false,
      error: { kind: 'validation' },
    });
    expect(await core.dispatch('counterparties.save', { address: '0x12', name: 'Short' })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/EVM address/) },
    });
    db.close();
  });

  it("names both ends on the timeline's rows, marks transfers between watched wallets internal and outflows to nobody named", async () => {
    const page = await core.call('timeline.page', { wallet: A, limit: 1000 });
    const toGrantee = page.rows.filter((r) => r.to === grantee || r.from === grantee);
    expect(toGrantee.length).toBeGreaterThan(0);
    for (const r of toGrantee) {
      expect(r.parties?.kind).toBe('book');
      expect(r.to === grantee ? r.parties?.to : r.parties?.from).toEqual({ name: 'Grantee X', ours: false, kind: 'book' });
      expect(r.parties?.toUnknown).toBe(false);
    }
    // The wallet itself is named by its label, as ours.
    // A plain transfer out to nobody named is the control flag; a protocol's call (a swap) is not.
    const others = page.rows.filter((r) => r.from === A && r.to !== A && r.to !== grantee && r.to !== B);
    const sent = others.find((r) => r.protocolId === 'wallet' && r.details.some((d) => d.type === 'out'))!;
    expect(sent.parties).toMatchObject({ from: { name: 'Ops', ours: true, kind: 'wallet' }, to: null, kind: 'unknown', toUnknown: true });
    const call = others.find((r) => r.protocolId !== 'wallet' && r.protocolId !== null)!;
    expect(call.parties).toMatchObject({ kind: 'unknown', toUnknown: false });
    // The namer the monthly pack uses says the same, and an entry's chains bound it.
    const db = await cacheOf(core);
    const namer = counterpartyNamer(db);
    expect(namer(grantee, 'eth')).toEqual({ name: 'Grantee X', ours: false, kind: 'book' });
    expect(namer(grantee, 'arb')).toBeNull();
    expect(namer(B.toUpperCase().replace('0X', '0x'), 'eth')).toEqual({ name: 'Cold', ours: true, kind: 'wallet' });
    db.close();
    // An address marked ours makes a transfer to it internal.
    await core.call('counterparties.save', { address: sent.to!, name: 'Our signer', ours: true });
    const again = (await core.call('timeline.page', { wallet: A, limit: 1000 })).rows.find((r) => r.id === sent.id)!;
    expect(again.parties).toMatchObject({ to: { name: 'Our signer', ours: true, kind: 'book' }, kind: 'internal', toUnknown: false });
    await core.call('counterparties.remove', { address: sent.to! });
  });

  it("the monthly pack's flows by counterparty carry the book's names", async () => {
    const pack = await core.call('pack.get', { wallet: A, from: '2025-11-20', to: '2026-11-20' });
    const line = pack.byCounterparty.find((l) => l.label === 'Grantee X');
    expect(line?.kind).toBe('book');
  });

  it("a search by a counterparty's name finds its transactions, and counts what the CSV holds", async () => {
    const found = await core.call('timeline.page', { search: 'grantee', limit: 1000 });
    const expected = (await core.call('timeline.page', { search: grantee, limit: 1000 })).rows.map((r) => r.id);
    expect(found.rows.map((r) => r.id)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
    expect(await core.call('timeline.count', { search: 'Grantee X' })).toBe(expected.length);
    // A watched wallet's label is a name too.
    const cold = await core.call('timeline.page', { search: 'Cold', limit: 1000 });
    expect(cold.rows.length).toBeGreaterThan(0);
    for (const r of cold.rows) expect([r.from, r.to, r.wallet]).toContain(B);
  });

  it('the transactions CSV ends with from_name, to_name and counterparty_kind, read back from the written file', async () => {
    const job = await core.call('export.start', { format: 'csv', report: 'transactions', wallet: A });
    const [done] = await waitForJobs(core, [job!]);
    expect(done!.state).toBe('done');
    const downloads = join(dir, 'downloads');
    const file = readdirSync(downloads).find((f) => f.endsWith('.csv'))!;
    const [header, ...lines] = parse(readFileSync(join(downloads, file)), { bom: true }) as string[][];
    // The books' columns (issue 28, item 2: category, category_source, note) were appended after these.
    expect(header!.slice(-8, -4)).toEqual(['restated', 'from_name', 'to_name', 'counterparty_kind']);
    // Then spam's verdict (docs/spam.md), last.
    expect(header!.slice(-4)).toEqual(['category', 'category_source', 'note', 'spam']);
    const at = (name: string) => header!.indexOf(name);
    const toGrantee = lines.filter((l) => l[at('to')] === grantee);
    expect(toGrantee.length).toBeGreaterThan(0);
    for (const l of toGrantee) expect([l[at('from_name')], l[at('to_name')], l[at('counterparty_kind')]]).toEqual(['Ops', 'Grantee X', 'book']);
    const kinds = new Set(lines.map((l) => l[at('counterparty_kind')]));
    expect([...kinds].every((k) => ['internal', 'book', 'unknown'].includes(k!))).toBe(true);
    expect(kinds.has('unknown')).toBe(true);
  });
});
