import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { insertSnapshots } from '../../src/main/core/positions/store/snapshots.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { markSpam } from '../../src/main/core/spam/verdicts.ts';
import { describeEdit } from '../../src/shared/audit.ts';
import type { DataChanged } from '../../src/shared/contract.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { SIM_NOW, WALLET as W } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { holdingViews, txn } from './support.ts';

/**
 * Spam through the core as every shell drives it (the contract's operations): verdicts marked,
 * listed and cleared, each an audited edit with before and after and the operation that made it;
 * refusals that change nothing; lists imported and removed; a token and a transaction explained;
 * the views told.
 */
const FAKE = '0x' + 'fa'.repeat(20);
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const G = '0xa1b2' + '3'.repeat(32) + 'c3d4';
const LOOK = '0xa1b2' + '9'.repeat(32) + 'c3d4';
let core: Core;
const changes: DataChanged[] = [];

beforeAll(async () => {
  core = await createCore({
    dataDir: tempDir(),
    shell: 'web',
    baseUrl: null,
    env: {},
    demo: demoStarter({ now: () => SIM_NOW }),
    scheduleEveryMs: 0,
    now: () => SIM_NOW,
  });
  await core.request('wallets.add', { address: W, chains: ['eth'] });
  core.on('data.changed', (c) => changes.push(c));
});
afterAll(() => core.close());

describe('spam in the core', () => {
  it('marks, lists and clears verdicts, each an audited edit; refuses what is wrong and changes nothing', async () => {
    const mark = await core.request('spam.mark', {
      kind: 'token',
      chain: 'eth',
      target: FAKE.toUpperCase().replace('0X', '0x'),
      verdict: 'spam',
      note: 'airdrop',
    });
    expect(mark).toMatchObject({ kind: 'token', chain: 'eth', target: FAKE, wallet: null, verdict: 'spam', note: 'airdrop' });
    await core.request('spam.mark', { kind: 'token', chain: 'eth', target: FAKE, verdict: 'not-spam' });
    await core.request('spam.mark', { kind: 'address', target: G, wallet: W.toUpperCase().replace('0X', '0x'), verdict: 'not-spam' });
    expect((await core.request('spam.verdicts', undefined)).map((m) => [m.kind, m.verdict, m.wallet])).toEqual([
      ['token', 'not-spam', null],
      ['address', 'not-spam', W],
    ]);
    for (const [input, message] of [
      [{ kind: 'token', target: FAKE, verdict: 'spam' }, /give the chain/],
      [{ kind: 'contract', chain: 'eth', target: FAKE, verdict: 'spam' }, /holds on every chain/],
      [{ kind: 'address', target: '0x123', verdict: 'spam' }, /Not an EVM address/],
      [{ kind: 'address', target: G, wallet: '0x' + '9'.repeat(40), verdict: 'spam' }, /is not a watched wallet/],
      [{ kind: 'address', target: G, verdict: 'maybe' }, /verdict/],
      [{ kind: 'address', target: G, verdict: 'spam', note: 'bad\u202e' }, /U\+202E/],
    ] as const) {
      const res = await core.dispatch('spam.mark', input);
      expect(res.ok, JSON.stringify(input)).toBe(false);
      if (!res.ok) expect(res.error.message).toMatch(message);
    }
    expect(await core.request('spam.clear', { kind: 'token', chain: 'eth', target: FAKE })).toBe(true);
    expect(await core.request('spam.clear', { kind: 'token', chain: 'eth', target: FAKE })).toBe(false);
    expect(await core.request('spam.verdicts', { wallet: W })).toHaveLength(1);

    const { entries } = await core.request('audit.list', { entity: 'spam-verdict' });
    expect(entries.map((e) => [e.origin, e.action]).reverse()).toEqual([
      ['spam.mark', 'create'],
      ['spam.mark', 'update'],
      ['spam.mark', 'create'],
      ['spam.clear', 'delete'],
    ]);
    const update = entries.find((e) => e.action === 'update')!;
    expect(update).toMatchObject({
      key: `token eth ${FAKE} (every wallet)`,
      before: { verdict: 'spam', note: 'airdrop' },
      after: { verdict: 'not-spam', note: '' },
      at: new Date(SIM_NOW).toISOString(),
    });
    expect(describeEdit(update)).toBe(`spam-verdict token eth ${FAKE} (every wallet): verdict: "spam" → "not-spam"; note: "airdrop" → ""`);
    expect(changes.filter((c) => c.scope === 'spam')).toHaveLength(4);
  });

  it('imports a list (a bad one refused with its line, nothing kept), lists it first, removes it', async () => {
    const bad = await core.dispatch('spam.importList', { text: '{\n "version": 1,\n "tokens": [{ "cid": "0xno", "verdict": "spam" }]\n}' });
    expect(bad).toMatchObject({
      ok: false,
      error: { message: 'This spam list is not valid (line 3, tokens[0].cid: expected 0x and 40 hex digits). Nothing was imported.' },
    });
    expect((await core.request('spam.lists', undefined)).map((l) => [l.name, l.source])).toEqual([['Folioscope defaults', 'default']]);
    await core.request('spam.importList', { text: JSON.stringify({ version: 1, tokens: [{ cid: FAKE, verdict: 'spam' }] }), name: 'Team list' });
    const lists = await core.request('spam.lists', undefined);
    expect(lists.map((l) => [l.name, l.source, l.tokens])).toEqual([
      ['Team list', 'user', 1],
      ['Folioscope defaults', 'default', 5],
    ]);
    expect(await core.request('spam.removeList', { name: 'Team list' })).toBe(true);
    expect(await core.request('spam.removeList', { name: 'Team list' })).toBe(false);
    expect((await core.request('audit.list', { entity: 'spam-list' })).entries.map((e) => e.origin)).toEqual(['spam.removeList', 'spam.importList']);
  });

  it('explains a token and a transaction as every reader judges them', async () => {
    const db = await cacheOf(core);
    insertSnapshots(
      db,
      holdingViews(W, 'eth', '2026-11-01', [
        { cid: USDC, symbol: 'USDC', name: 'USD Coin', qty: 10, nav: 10 },
        { cid: FAKE, symbol: 'USDC', name: 'USD Coin', qty: 10, nav: 10, slippage: null },
      ]).inputs,
    );
    const paid = txn({ wallet_id: W, from: W, to: G, date: '2026-10-01T00:00:00Z', details: [{ token_cid: USDC, type: 'out', qty: 900, symbol: 'USDC' }] });
    const dust = txn({
      wallet_id: W,
      from: LOOK,
      to: W,
      date: '2026-10-02T00:00:00Z',
      details: [{ token_cid: USDC, type: 'in', qty: 0.000001, symbol: 'USDC' }],
    });
    upsertTransactions(db, W, 'eth', [paid, dust]);
    const token = await core.request('spam.explain', { wallet: W, chain: 'eth', token: FAKE });
    expect(token).toMatchObject({
      subject: { kind: 'token', cid: FAKE, symbol: 'USDC', date: '2026-11-01' },
      verdict: { spam: true, decidedBy: 'rules' },
      poisoning: null,
    });
    expect(token.verdict.reasons.map((r) => r.code)).toEqual(['token.symbol-imitation', 'token.never-acquired', 'token.no-liquidity-entry']);
    // G, paid (and marked not spam for this wallet above), is known: dust from its lookalike is poisoning.
    const txnOf = await core.request('spam.explain', { wallet: W, chain: 'eth', txnHash: dust.txn_hash.toUpperCase().replace('0X', '0x') });
    expect(txnOf).toMatchObject({
      subject: { kind: 'transaction', txnHash: dust.txn_hash },
      verdict: { spam: true, reasons: [{ code: 'poison.dust' }] },
      poisoning: null,
      lookalike: { address: LOOK, imitates: G },
    });
    const missing = await core.dispatch('spam.explain', { wallet: W, chain: 'eth', txnHash: '0x' + '0'.repeat(64) });
    expect(missing).toMatchObject({ ok: false, error: { message: expect.stringMatching(/is not a cached transaction/) } });
    expect(await core.dispatch('spam.explain', { wallet: W, chain: 'eth' })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/one of them/) },
    });
  });

  it("judges the timeline's rows with a judge kept until what it reads is written, by any connection", async () => {
    // Another connection, as the sync's write worker or another process writes: the core hears nothing of it.
    const other = await cacheOf(core);
    const dustRow = async () => (await core.request('timeline.page', { wallet: W, limit: 50 })).rows.find((r) => r.from === LOOK)!;
    const dust = await dustRow();
    expect(dust.spam).toMatchObject({ spam: true });
    // A note is nothing the judge reads: the verdict stands.
    await core.request('notes.set', { wallet: W, chain: 'eth', txnHash: dust.txnHash, note: 'looked at' });
    expect((await dustRow()).spam).toMatchObject({ spam: true });
    // The user vouches for the sender through that other connection: the next page judges with it.
    markSpam(other, { kind: 'address', target: LOOK, verdict: 'not-spam' });
    expect((await dustRow()).spam).toMatchObject({ spam: false, decidedBy: 'user' });
  });
});
