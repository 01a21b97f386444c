import { describe, expect, it } from 'vitest';
import { saveCounterparty } from '../../src/main/core/counterparties/book.ts';
import { insertSnapshots, latestSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { spamJudge, SPAM_THRESHOLD } from '../../src/main/core/spam/index.ts';
import { clearSpam, importSpamList, markSpam } from '../../src/main/core/spam/verdicts.ts';
import type { WritableDB } from '../../src/main/core/store/handles.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import type { Transaction } from '../../src/shared/service/schemas.ts';
import { createDB } from '../support/store.ts';
import { holdingViews, type Holding, judgedRow, txn } from './support.ts';

/**
 * The judge of a read over a real cache (spam/reader.ts): positions with their day's views, a
 * wallet's counterparties from its history, who decides (the user, for a wallet or every wallet;
 * a list; the rules), and clearing a verdict. Data laid by hand, with fixed dates.
 */
const W = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const ARB_USDC = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';
const LINK = '0x514910771af9ca656af840dff83e8264ecf986ca';
const FAKE = '0x' + 'fa'.repeat(20);
const NATIVE = '0x' + 'e'.repeat(40);
const G = '0xa1b2' + '3'.repeat(32) + 'c3d4';
const LOOK = '0xa1b2' + '9'.repeat(32) + 'c3d4';
const SPAMMER = '0x' + '5'.repeat(40);
const DAY = '2026-10-01';

function cache(): WritableDB {
  const db = createDB();
  addWallet(db, { address: W, chains: ['eth', 'arb'] }, new Date('2026-01-01T00:00:00Z'));
  return db;
}
const hold = (o: Partial<Holding> & { cid: string; symbol: string }): Holding => ({ name: o.symbol, qty: 100, nav: 100, ...o });
function lay(db: WritableDB, chain: string, day: string, holdings: Holding[]) {
  const v = holdingViews(W, chain, day, holdings);
  insertSnapshots(db, v.inputs);
  return v.all;
}
/** The wallet's swap of USDC for `cid` on eth: a token it got by its own hand. */
function swapInto(db: WritableDB, cid: string): void {
  upsertTransactions(db, W, 'eth', [
    txn({
      wallet_id: W,
      from: W,
      to: G,
      action_type: 'swap',
      details: [
        { token_cid: USDC, type: 'out', qty: 50, symbol: 'USDC' },
        { token_cid: cid, type: 'in', qty: 100, symbol: 'THIN' },
      ],
    }),
  ]);
}
const rowOf = (t: Transaction) => judgedRow(t, W);

describe('positions, judged with their day’s views', () => {
  it('a copy of USDC left out of the liquidity view, a fake ETH, a link: spam; the real ones and USDC on another chain: not', () => {
    const db = cache();
    const eth = lay(db, 'eth', DAY, [
      hold({ cid: NATIVE, symbol: 'ETH', name: 'Ether' }),
      hold({ cid: USDC, symbol: 'USDC', name: 'USD Coin' }),
      hold({ cid: LINK, symbol: 'LINK' }),
      hold({ cid: FAKE, symbol: 'USDC', name: 'USD Coin', slippage: null }),
      hold({ cid: '0x' + 'fb'.repeat(20), symbol: 'ETH', name: 'Ether', slippage: null }),
      hold({ cid: '0x' + 'fc'.repeat(20), symbol: 'Visit eth-claim.com', name: 'Visit eth-claim.com' }),
    ]);
    const arb = lay(db, 'arb', DAY, [hold({ cid: ARB_USDC, symbol: 'USDC', name: 'USD Coin' })]);
    const judge = spamJudge(db);
    const verdicts = judge.positions(W, 'eth', DAY, eth);
    expect(verdicts.map((v) => v.spam)).toEqual([false, false, false, true, true, true]);
    expect(verdicts[0]).toMatchObject({ decidedBy: 'rules', reasons: [{ code: 'token.native' }] });
    // The real USDC is on the shipped list of genuine tokens: the list decides it.
    expect(verdicts[1]).toMatchObject({ spam: false, decidedBy: 'list', reasons: [{ code: 'list.genuine' }] });
    expect(verdicts[3]!.reasons.map((r) => r.code)).toEqual(['token.symbol-imitation', 'token.no-liquidity-entry']);
    expect(verdicts[3]!.reasons[0]!.text).toMatch(/on a list of genuine tokens/);
    expect(verdicts[4]!.reasons.map((r) => r.code)).toContain('token.native-imitation');
    // A list's pattern decides the link (a list is above the rules), the rules' reasons kept to read.
    expect(verdicts[5]!.decidedBy).toBe('list');
    expect(verdicts[5]!.reasons.map((r) => r.code)).toEqual(['list.pattern', 'token.url', 'token.bait-symbol']);
    expect(judge.position(W, 'arb', DAY, arb[0]!)).toMatchObject({ spam: false, score: 0 });
  });

  it('a token with no market that arrived by itself is spam; one the wallet bought is not; without any history only its market counts', () => {
    const db = cache();
    const THIN = '0x' + 'c1'.repeat(20);
    const BOUGHT = '0x' + 'c2'.repeat(20);
    const all = lay(db, 'eth', DAY, [hold({ cid: THIN, symbol: 'GLDX', slippage: 0.9 }), hold({ cid: BOUGHT, symbol: 'THIN', slippage: 0.8 })]);
    expect(spamJudge(db).position(W, 'eth', DAY, all[0]!)).toMatchObject({ spam: false, score: 3 });
    swapInto(db, BOUGHT);
    const [arrived, bought] = spamJudge(db).positions(W, 'eth', DAY, all);
    expect(arrived).toMatchObject({ spam: true, score: 5 });
    expect(arrived!.reasons.map((r) => r.code)).toEqual(['token.no-market', 'token.never-acquired']);
    expect(bought).toMatchObject({ spam: false, score: 3 });
  });

  it('a token’s verdict does not hang on which token of its day was judged first: a twin of one the wallet bought is told by that, judged first or after a suspect', () => {
    const db = cache();
    const BOUGHT = '0x' + 'c2'.repeat(20);
    const TWIN = '0x' + 'c3'.repeat(20);
    const BAIT = '0x' + 'c4'.repeat(20);
    const all = lay(db, 'eth', DAY, [
      hold({ cid: BOUGHT, symbol: 'THIN', slippage: 0.01 }),
      hold({ cid: TWIN, symbol: 'THIN', slippage: 0.01 }),
      hold({ cid: BAIT, symbol: 'Visit thin-claim.com', slippage: null }),
    ]);
    swapInto(db, BOUGHT);
    const twin = { cid: TWIN, symbol: 'THIN', name: 'THIN' };
    // Alone, then after the suspect whose judging read what the wallet acquired; as a position, then as a token.
    const alone = spamJudge(db).token(W, 'eth', twin, DAY);
    const afterBait = spamJudge(db);
    afterBait.position(W, 'eth', DAY, all[2]!);
    expect(afterBait.token(W, 'eth', twin, DAY)).toEqual(alone);
    const positionsFirst = spamJudge(db).positions(W, 'eth', DAY, [all[1]!, all[2]!]);
    const positionsAfter = spamJudge(db).positions(W, 'eth', DAY, [all[2]!, all[1]!]);
    expect(positionsAfter[1]).toEqual(positionsFirst[0]);
    // What it is: the copy of a token the wallet bought by its own hand, where it got this one by no act of its own.
    expect(alone.reasons.map((r) => r.code)).toContain('token.symbol-imitation');
    expect(alone.reasons.find((r) => r.code === 'token.symbol-imitation')!.text).toMatch(/bought or withdrawn by the wallet itself/);
  });

  it('a token never held is judged by the name it is asked with, whether or not a transaction moving it was judged before under no name', () => {
    const db = cache();
    const GIFT = '0x' + 'c5'.repeat(20);
    const gift = txn({ wallet_id: W, from: SPAMMER, to: W, details: [{ token_cid: GIFT, type: 'in', qty: 1000, symbol: 'GIFT' }] });
    upsertTransactions(db, W, 'eth', [gift]);
    const asked = { cid: GIFT, symbol: 'GIFT', name: 'Visit gift-claim.com to claim' };
    const alone = spamJudge(db).token(W, 'eth', asked);
    const afterRow = spamJudge(db);
    afterRow.transaction(rowOf(gift));
    expect(afterRow.token(W, 'eth', asked)).toEqual(alone);
    expect(alone.reasons.map((r) => r.code)).toContain('token.url');
    // And the other way: the row, judged after the token was asked with its name, as it is alone.
    const rowAlone = spamJudge(db).transaction(rowOf(gift));
    const afterToken = spamJudge(db);
    afterToken.token(W, 'eth', asked);
    expect(afterToken.transaction(rowOf(gift))).toEqual(rowAlone);
  });

  it('with no by-underlying view cached, a holding’s contract is read from its internal id; with no liquidity view, its market is not known', () => {
    const db = cache();
    const v = holdingViews(W, 'eth', DAY, [hold({ cid: USDC, symbol: 'USDC' }), hold({ cid: FAKE, symbol: 'Claim $1000', slippage: null })]);
    insertSnapshots(db, [v.inputs[0]!]);
    const judge = spamJudge(db);
    expect(judge.position(W, 'eth', DAY, v.all[0]!)).toMatchObject({ spam: false, decidedBy: 'list' });
    const bait = judge.position(W, 'eth', DAY, v.all[1]!);
    expect(bait.spam).toBe(true);
    expect(bait.reasons.map((r) => r.code)).not.toContain('token.no-liquidity-entry');
  });

  it('a protocol position is judged by its own name and its tokens’ markets, and can be marked by its contract', () => {
    const db = cache();
    const pool = {
      asset_type: 'liquidity_pool',
      protocol_id: 'uniswap_v3',
      cid: FAKE,
      name: 'Uniswap V3 WETH/USDC LP',
      symbol: 'WETH-USDC-LP',
      principal_nav: 900,
      underlying: [],
    };
    const lure = { ...pool, name: 'Claim at pool-rewards.com', cid: '0x' + 'fd'.repeat(20) };
    const judge = spamJudge(db);
    expect(judge.position(W, 'eth', DAY, pool)).toMatchObject({ spam: false, score: 0 });
    // A pool named like a claim is not matched by the shipped "claim*" pattern: patterns are for tokens.
    expect(judge.position(W, 'eth', DAY, { ...pool, name: 'Claimable rewards', symbol: 'Rewards' })).toMatchObject({ spam: false, decidedBy: 'rules' });
    expect(judge.position(W, 'eth', DAY, lure).spam).toBe(true);
    markSpam(db, { kind: 'contract', target: FAKE, verdict: 'spam' });
    expect(spamJudge(db).position(W, 'eth', DAY, pool)).toMatchObject({ spam: true, decidedBy: 'user' });
  });
});

describe('transactions, judged with the wallet’s counterparties', () => {
  function history(db: WritableDB) {
    upsertTransactions(db, W, 'eth', [
      // The wallet pays G: G is known.
      txn({
        wallet_id: W,
        from: W,
        to: G,
        action_type: 'transfer_out',
        date: '2026-03-01T00:00:00Z',
        details: [{ token_cid: USDC, type: 'out', qty: 1200, symbol: 'USDC' }],
      }),
      // An airdrop of a link token: its sender must not become known.
      txn({
        wallet_id: W,
        from: SPAMMER,
        to: W,
        date: '2026-03-02T00:00:00Z',
        details: [{ token_cid: FAKE, type: 'in', qty: 5000, symbol: 'claim-usdc.com' }],
      }),
    ]);
  }

  it('zero and dust from a lookalike of a paid address are spam; the poisoner paid later is still a lookalike to the guard', () => {
    const db = cache();
    history(db);
    const zero = txn({ wallet_id: W, from: LOOK, to: W, method_hex: '0x23b872dd', details: [{ token_cid: USDC, type: 'in', qty: 0, symbol: 'USDC' }] });
    const dust = txn({ wallet_id: W, from: LOOK, to: W, details: [{ token_cid: USDC, type: 'in', qty: 0.000001, symbol: 'USDC' }] });
    upsertTransactions(db, W, 'eth', [zero, dust]);
    const judge = spamJudge(db);
    expect(judge.transaction(rowOf(zero))).toMatchObject({
      spam: true,
      decidedBy: 'rules',
      poisoning: null,
      lookalike: { address: LOOK, imitates: G, prefix: '0xa1b2', suffix: 'c3d4' },
      reasons: [{ code: 'poison.zero-value' }],
    });
    expect(judge.transaction(rowOf(dust))).toMatchObject({ spam: true, reasons: [{ code: 'poison.dust' }] });
    // The wallet then pays the lookalike: a genuine outflow (not spam), and the guard says whom it imitates.
    const paid = txn({ wallet_id: W, from: W, to: LOOK, date: '2026-10-02T00:00:00Z', details: [{ token_cid: USDC, type: 'out', qty: 1200, symbol: 'USDC' }] });
    upsertTransactions(db, W, 'eth', [paid]);
    const after = spamJudge(db);
    expect(after.transaction(rowOf(paid))).toMatchObject({
      spam: false,
      poisoning: { lookalike: LOOK, imitates: G, prefix: '0xa1b2', suffix: 'c3d4', txnHash: paid.txn_hash },
    });
    expect(after.poisoning(rowOf(paid))).toMatchObject({ imitates: G });
    // The airdrop is spam, and its sender was never made a known counterparty.
    const drop = txn({ wallet_id: W, from: SPAMMER, to: W, details: [{ token_cid: FAKE, type: 'in', qty: 1, symbol: 'claim-usdc.com' }] });
    expect(after.transaction(rowOf(drop)).spam).toBe(true);
    const spammerLike = '0x5555' + '0'.repeat(32) + '5555';
    const fromSpammerLike = txn({ wallet_id: W, from: W, to: spammerLike, details: [{ token_cid: USDC, type: 'out', qty: 5, symbol: 'USDC' }] });
    expect(after.poisoning(rowOf(fromSpammerLike))).toBeNull();
  });

  it('a lookalike the user vouches for (not spam, or named in the address book) never makes the counterparty it imitates a lookalike of it', () => {
    const db = cache();
    history(db); // W paid G on 2026-03-01
    const dust = txn({
      wallet_id: W,
      from: LOOK,
      to: W,
      date: '2026-03-05T00:00:00Z',
      details: [{ token_cid: USDC, type: 'in', qty: 0.000001, symbol: 'USDC' }],
    });
    const zero = txn({
      wallet_id: W,
      from: W,
      to: LOOK,
      method_hex: '0x23b872dd',
      date: '2026-03-06T00:00:00Z',
      details: [{ token_cid: USDC, type: 'out', qty: 0, symbol: 'USDC' }],
    });
    const toLook = txn({
      wallet_id: W,
      from: W,
      to: LOOK,
      date: '2026-04-01T00:00:00Z',
      details: [{ token_cid: USDC, type: 'out', qty: 900, symbol: 'USDC' }],
    });
    const toG = txn({ wallet_id: W, from: W, to: G, date: '2026-05-01T00:00:00Z', details: [{ token_cid: USDC, type: 'out', qty: 1200, symbol: 'USDC' }] });
    upsertTransactions(db, W, 'eth', [dust, zero, toLook, toG]);
    // As the judge had it: the payment to LOOK is to a lookalike of G, the one to G is not.
    expect(spamJudge(db).poisoning(rowOf(toLook))).toMatchObject({ lookalike: LOOK, imitates: G });
    expect(spamJudge(db).poisoning(rowOf(toG))).toBeNull();

    // The user calls LOOK not spam (every wallet): LOOK is known, and G, paid before LOOK ever showed up, is no lookalike of it.
    markSpam(db, { kind: 'address', target: LOOK, verdict: 'not-spam' });
    let judge = spamJudge(db, { whole: true });
    expect(judge.poisoning(rowOf(toG))).toBeNull();
    expect(judge.poisoning(rowOf(toLook))).toBeNull();
    expect(judge.transaction(rowOf(toG))).toMatchObject({ spam: false, poisoning: null, lookalike: null });
    expect(judge.transaction(rowOf(dust))).toMatchObject({ spam: false, decidedBy: 'user', lookalike: null });
    // The same read a page at a time (a bucket's range, not the history whole).
    judge = spamJudge(db);
    expect(judge.poisoning(rowOf(toG))).toBeNull();
    expect(judge.transaction(rowOf(toG)).lookalike).toBeNull();

    // Another watched wallet that paid G and never met LOOK: the vouch (for every wallet) makes no lookalike of G there either.
    const W2 = '0x' + '7'.repeat(40);
    addWallet(db, { address: W2, chains: ['eth'] });
    const w2ToG = txn({ wallet_id: W2, from: W2, to: G, date: '2026-06-01T00:00:00Z', details: [{ token_cid: USDC, type: 'out', qty: 10, symbol: 'USDC' }] });
    upsertTransactions(db, W2, 'eth', [w2ToG]);
    expect(spamJudge(db, { whole: true }).poisoning({ ...rowOf(w2ToG), wallet: W2 })).toBeNull();
    expect(spamJudge(db).poisoning({ ...rowOf(w2ToG), wallet: W2 })).toBeNull();

    // The verdict cleared and LOOK named in the address book instead: the same.
    clearSpam(db, { kind: 'address', target: LOOK });
    expect(spamJudge(db).poisoning(rowOf(toLook))).toMatchObject({ lookalike: LOOK });
    saveCounterparty(db, { address: LOOK, name: 'Looks like G' });
    judge = spamJudge(db, { whole: true });
    expect(judge.poisoning(rowOf(toG))).toBeNull();
    expect(judge.poisoning(rowOf(toLook))).toBeNull();
    expect(spamJudge(db).poisoning({ ...rowOf(w2ToG), wallet: W2 })).toBeNull();
  });

  it('a vouch or an address-book entry for an address the wallet never dealt with still shows its lookalikes; one it dealt with first does too', () => {
    const db = cache();
    // G named in the book, never dealt with: the poisoner's dust and the payment it won are still to a lookalike.
    saveCounterparty(db, { address: G, name: 'Grantee X' });
    const dust = txn({
      wallet_id: W,
      from: LOOK,
      to: W,
      date: '2026-03-05T00:00:00Z',
      details: [{ token_cid: USDC, type: 'in', qty: 0.000001, symbol: 'USDC' }],
    });
    const toLook = txn({
      wallet_id: W,
      from: W,
      to: LOOK,
      date: '2026-04-01T00:00:00Z',
      details: [{ token_cid: USDC, type: 'out', qty: 900, symbol: 'USDC' }],
    });
    upsertTransactions(db, W, 'eth', [dust, toLook]);
    expect(spamJudge(db).poisoning(rowOf(toLook))).toMatchObject({ lookalike: LOOK, imitates: G });
    expect(spamJudge(db, { whole: true }).transaction(rowOf(dust))).toMatchObject({ spam: true, lookalike: { address: LOOK, imitates: G } });
    // LOOK called not spam for another wallet only: for this one it is still a lookalike.
    const W2 = '0x' + '7'.repeat(40);
    addWallet(db, { address: W2, chains: ['eth'] });
    markSpam(db, { kind: 'address', target: LOOK, wallet: W2, verdict: 'not-spam' });
    expect(spamJudge(db).poisoning(rowOf(toLook))).toMatchObject({ lookalike: LOOK, imitates: G });
    expect(spamJudge(db).poisoning({ ...rowOf(toLook), wallet: W2 })).toBeNull();
    // An address the user called not spam and that the wallet dealt with before its lookalike showed up: the lookalike paid is still one.
    const OTHER = '0xb1b2' + '3'.repeat(32) + 'c3d4';
    const OTHER_LOOK = '0xb1b2' + '8'.repeat(32) + 'c3d4';
    markSpam(db, { kind: 'address', target: OTHER, wallet: W, verdict: 'not-spam' });
    const fromOther = txn({
      wallet_id: W,
      from: OTHER,
      to: W,
      date: '2026-02-01T00:00:00Z',
      details: [{ token_cid: USDC, type: 'in', qty: 0.5, symbol: 'USDC' }],
    });
    const toOtherLook = txn({
      wallet_id: W,
      from: W,
      to: OTHER_LOOK,
      date: '2026-04-02T00:00:00Z',
      details: [{ token_cid: USDC, type: 'out', qty: 70, symbol: 'USDC' }],
    });
    upsertTransactions(db, W, 'eth', [fromOther, toOtherLook]);
    expect(spamJudge(db).poisoning(rowOf(toOtherLook))).toMatchObject({ lookalike: OTHER_LOOK, imitates: OTHER });
    expect(spamJudge(db, { whole: true }).poisoning(rowOf(toOtherLook))).toMatchObject({ lookalike: OTHER_LOOK, imitates: OTHER });
  });

  it('an address-book entry or a watched wallet is known without any history', () => {
    const db = cache();
    saveCounterparty(db, { address: G, name: 'Grantee X' });
    const dust = txn({ wallet_id: W, from: LOOK, to: W, details: [{ token_cid: USDC, type: 'in', qty: 0.000001, symbol: 'USDC' }] });
    expect(spamJudge(db).transaction(rowOf(dust))).toMatchObject({ spam: true, reasons: [{ code: 'poison.dust' }] });
  });

  it('a genuine new token from a new sender, and a genuine stablecoin of the same symbol on another chain, are not spam', () => {
    const db = cache();
    history(db);
    lay(db, 'eth', DAY, [hold({ cid: USDC, symbol: 'USDC' })]);
    const fresh = txn({
      wallet_id: W,
      from: '0x' + '6'.repeat(40),
      to: W,
      details: [{ token_cid: '0x' + '61'.repeat(20), type: 'in', qty: 250, symbol: 'ENA' }],
    });
    const arb = txn({
      wallet_id: W,
      chain_id: 'arb',
      from: '0x' + '6'.repeat(40),
      to: W,
      details: [{ token_cid: ARB_USDC, type: 'in', qty: 250, symbol: 'USDC' }],
    });
    const judge = spamJudge(db);
    expect(judge.transaction(rowOf(fresh))).toMatchObject({ spam: false, score: 2 });
    expect(judge.transaction(rowOf(arb))).toMatchObject({ spam: false });
    expect(judge.transaction(rowOf(arb)).score).toBeLessThan(SPAM_THRESHOLD);
    // The same symbol from another contract on the chain where USDC is held: a copy.
    const copy = txn({
      wallet_id: W,
      from: '0x' + '6'.repeat(40),
      to: W,
      details: [{ token_cid: FAKE.replace('fa', 'fe'), type: 'in', qty: 250, symbol: 'USDC' }],
    });
    expect(judge.transaction(rowOf(copy)).reasons.map((r) => r.code)).toContain('token.symbol-imitation');
    expect(judge.transaction(rowOf(copy)).spam).toBe(true);
  });
});

describe('who decides: the user, then a list, then the rules', () => {
  it('a verdict for one wallet wins over one for every wallet; a token’s over its contract’s; clearing returns to the list and the rules', () => {
    const db = cache();
    const all = lay(db, 'eth', DAY, [hold({ cid: FAKE, symbol: 'AIRDROP' })]);
    const p = all[0]!;
    const judge = () => spamJudge(db).position(W, 'eth', DAY, p);
    expect(judge()).toMatchObject({ spam: true, decidedBy: 'rules' });
    markSpam(db, { kind: 'contract', target: FAKE, verdict: 'not-spam' });
    expect(judge()).toMatchObject({ spam: false, decidedBy: 'user' });
    expect(judge().reasons[0]).toMatchObject({ code: 'user.not-spam', text: `You marked the contract ${FAKE} not spam for every wallet.` });
    markSpam(db, { kind: 'token', chain: 'eth', target: FAKE, verdict: 'spam' });
    expect(judge()).toMatchObject({ spam: true, decidedBy: 'user' });
    markSpam(db, { kind: 'contract', target: FAKE, wallet: W, verdict: 'not-spam', note: 'our own test token' });
    expect(judge()).toMatchObject({ spam: false, decidedBy: 'user' });
    expect(judge().reasons[0]!.text).toBe(`You marked the contract ${FAKE} not spam for this wallet: our own test token`);
    // Another wallet is not this one: every wallet's verdict holds there.
    const other = '0x' + '2'.repeat(40);
    addWallet(db, { address: other, chains: ['eth'] });
    expect(spamJudge(db).token(other, 'eth', { cid: FAKE, symbol: 'AIRDROP' })).toMatchObject({ spam: true, decidedBy: 'user' });
    // A list calls it genuine: the user's verdicts still win; cleared, the list decides; the list removed, the rules.
    importSpamList(db, JSON.stringify({ version: 1, tokens: [{ chain: 'eth', cid: FAKE, verdict: 'genuine', note: 'our test token' }] }), 'ours');
    expect(judge()).toMatchObject({ decidedBy: 'user' });
    clearSpam(db, { kind: 'contract', target: FAKE, wallet: W });
    clearSpam(db, { kind: 'token', chain: 'eth', target: FAKE });
    clearSpam(db, { kind: 'contract', target: FAKE });
    expect(judge()).toMatchObject({ spam: false, decidedBy: 'list' });
    expect(judge().reasons[0]).toMatchObject({ code: 'list.genuine', text: 'The list "ours" calls the token genuine: our test token' });
  });

  it('a transaction: an address marked spam makes it spam, a token marked spam only when all it brought in is; never a transaction that paid out', () => {
    const db = cache();
    const both = txn({
      wallet_id: W,
      from: SPAMMER,
      to: W,
      details: [
        { token_cid: FAKE, type: 'in', qty: 5, symbol: 'ABC' },
        { token_cid: USDC, type: 'in', qty: 5, symbol: 'USDC' },
      ],
    });
    const alone = txn({ wallet_id: W, from: SPAMMER, to: W, details: [{ token_cid: FAKE, type: 'in', qty: 5, symbol: 'ABC' }] });
    const swap = txn({
      wallet_id: W,
      from: W,
      to: SPAMMER,
      details: [
        { token_cid: USDC, type: 'out', qty: 5, symbol: 'USDC' },
        { token_cid: FAKE, type: 'in', qty: 5, symbol: 'ABC' },
      ],
    });
    markSpam(db, { kind: 'token', chain: 'eth', target: FAKE, verdict: 'spam' });
    let judge = spamJudge(db);
    expect(judge.transaction(rowOf(alone))).toMatchObject({ spam: true, decidedBy: 'user' });
    expect(judge.transaction(rowOf(both))).toMatchObject({ spam: false, decidedBy: 'rules' });
    expect(judge.transaction(rowOf(swap))).toMatchObject({ spam: false, decidedBy: 'rules' });
    markSpam(db, { kind: 'address', target: SPAMMER, verdict: 'spam' });
    judge = spamJudge(db);
    expect(judge.transaction(rowOf(both))).toMatchObject({ spam: true, decidedBy: 'user' });
    expect(judge.transaction(rowOf(both)).reasons[0]!.text).toBe(`You marked the address ${SPAMMER} spam for every wallet.`);
    expect(judge.transaction(rowOf(swap)).spam).toBe(false);
    // This wallet's "not spam" for the address beats every wallet's "spam".
    markSpam(db, { kind: 'address', target: SPAMMER, wallet: W, verdict: 'not-spam' });
    expect(spamJudge(db).transaction(rowOf(both))).toMatchObject({ spam: false, decidedBy: 'user' });
  });

  it('a token judged by history when no day is given: its last held day’s views', () => {
    const db = cache();
    lay(db, 'eth', '2026-09-01', [hold({ cid: USDC, symbol: 'USDC' }), hold({ cid: FAKE, symbol: 'USDC', slippage: null })]);
    const judge = spamJudge(db);
    expect(judge.token(W, 'eth', { cid: FAKE })).toMatchObject({ spam: true, decidedBy: 'rules' });
    expect(judge.token(W, 'eth', { cid: FAKE }, '2026-09-01').spam).toBe(true);
    expect(judge.token(W, 'eth', { cid: USDC })).toMatchObject({ spam: false, decidedBy: 'list' });
    expect(judge.notes(W)).toEqual([expect.stringMatching(/No transactions of this wallet are cached/)]);
  });
});

describe('a judge that keeps one day at a time (NAV over dates) says what one keeping every day says', () => {
  it('days asked in turn, one asked again after another, a day told by its views first, and a day whose tokens were enriched', () => {
    const db = cache();
    const THIN = '0x' + 'c1'.repeat(20);
    const BOUGHT = '0x' + 'c2'.repeat(20);
    const days = ['2026-08-01', '2026-09-01', DAY];
    const laid = new Map<string, ReturnType<typeof lay>>();
    for (const [i, day] of days.entries())
      laid.set(
        `eth|${day}`,
        lay(db, 'eth', day, [
          hold({ cid: USDC, symbol: 'USDC' }),
          // Two contracts of one symbol on a day: the held history is read for it.
          hold({ cid: FAKE, symbol: 'USDC', slippage: null, nav: 10 + i }),
          hold({ cid: THIN, symbol: 'GLDX', slippage: 0.9 }),
          hold({ cid: BOUGHT, symbol: 'THIN', slippage: 0.8 }),
        ]),
      );
    laid.set(`arb|${DAY}`, lay(db, 'arb', DAY, [hold({ cid: ARB_USDC, symbol: 'USDC' }), hold({ cid: THIN, symbol: 'GLDX', slippage: 0.9 })]));
    // The wallet bought one of the thin tokens by its own hand: a suspect token's day is enriched with that.
    swapInto(db, BOUGHT);
    const order = [`eth|${days[0]}`, `eth|${days[1]}`, `arb|${DAY}`, `eth|${DAY}`, `eth|${days[0]}`, `arb|${DAY}`, `eth|${days[1]}`];
    const every = spamJudge(db);
    const oneAtATime = spamJudge(db, { dayByDay: true });
    const verdicts = (judge: ReturnType<typeof spamJudge>) =>
      order.map((k) => {
        const [chain, day] = k.split('|') as [string, string];
        return judge.positions(W, chain, day, laid.get(k)!);
      });
    const expected = verdicts(every);
    expect(verdicts(oneAtATime)).toEqual(expected);
    // Some of each: the judge has something to say on these days.
    expect(expected.flat().filter((v) => v.spam).length).toBeGreaterThan(0);
    expect(expected.flat().filter((v) => !v.spam).length).toBeGreaterThan(0);
    // A day told by its views first (as the portfolio view tells it), then judged.
    const told = spamJudge(db, { dayByDay: true });
    const under = (day: string) => latestSnapshot(db, 'positionsByUnderlying', W, 'eth', day)!.data;
    const liq = (day: string) => latestSnapshot(db, 'liquidityAnalysis', W, 'eth', day)!.data;
    const fromViews = order.map((k) => {
      const [chain, day] = k.split('|') as [string, string];
      told.knowDay(W, chain, day, { underlying: chain === 'eth' ? under(day) : null, liquidity: chain === 'eth' ? liq(day) : null });
      return chain === 'eth' ? told.positions(W, chain, day, laid.get(k)!) : null;
    });
    expect(fromViews.filter((v) => v !== null)).toEqual(expected.filter((_, i) => order[i]!.startsWith('eth|')));
  });
});

describe('one judge over many rows (an export) says of each row what a judge of that row alone says', () => {
  it('rows of one shape share a verdict, and a quantity, a symbol or a hash that differs is never read as another row’s', () => {
    const db = cache();
    upsertTransactions(db, W, 'eth', [
      txn({ wallet_id: W, from: W, to: G, date: '2026-03-01T00:00:00Z', details: [{ token_cid: USDC, type: 'out', qty: 1200, symbol: 'USDC' }] }),
    ]);
    lay(db, 'eth', DAY, [hold({ cid: USDC, symbol: 'USDC', qty: 1000, nav: 1000 })]);
    const rows = [
      // The same sender and token, every class of quantity: a real amount, dust, zero, negative, none.
      ...[250, 0.5, 0, -3, null].map((qty) => txn({ wallet_id: W, from: LOOK, to: W, details: [{ token_cid: USDC, type: 'in', qty, symbol: 'USDC' }] })),
      ...[250, 0.5, 0].map((qty) => txn({ wallet_id: W, from: G, to: W, details: [{ token_cid: USDC, type: 'in', qty, symbol: 'USDC' }] })),
      // A symbol written so that, joined up without lengths, it reads as the next row's two transfers.
      txn({ wallet_id: W, from: SPAMMER, to: W, details: [{ token_cid: FAKE, type: 'in', qty: 5, symbol: `USDCp${FAKE}inclaim-usdc.com` }] }),
      txn({
        wallet_id: W,
        from: SPAMMER,
        to: W,
        details: [
          { token_cid: FAKE, type: 'in', qty: 5, symbol: 'USDC' },
          { token_cid: FAKE, type: 'in', qty: 5, symbol: 'claim-usdc.com' },
        ],
      }),
      // Two payments to the lookalike: each finding names its own transaction.
      ...[1, 2].map((i) =>
        txn({ wallet_id: W, from: W, to: LOOK, date: `2026-10-0${i}T00:00:00Z`, details: [{ token_cid: USDC, type: 'out', qty: 100, symbol: 'USDC' }] }),
      ),
      // Failed, and of a transfer call with no transfers listed.
      txn({ wallet_id: W, from: LOOK, to: W, status: 0, method_hex: '0xa9059cbb', details: [] }),
      txn({ wallet_id: W, from: LOOK, to: W, status: 1, method_hex: '0xa9059cbb', details: [] }),
    ];
    const shared = spamJudge(db, { whole: true });
    const seen = rows.map((t) => shared.transaction(rowOf(t)));
    // Again, in the other order: what was judged first must not decide what is judged after.
    const again = [...rows]
      .reverse()
      .map((t) => shared.transaction(rowOf(t)))
      .reverse();
    rows.forEach((t, i) => {
      const alone = spamJudge(db).transaction(rowOf(t));
      expect(seen[i], `row ${i}`).toEqual(alone);
      expect(again[i], `row ${i}, in reverse`).toEqual(alone);
    });
    // The judge did see them as different: dust and a real amount from the lookalike, zero and a real amount from G.
    expect(seen.slice(0, 3).map((v) => v.reasons[0]?.code)).toEqual(['poison.lookalike', 'poison.dust', 'poison.zero-value']);
    expect(seen[5]!.spam).toBe(false);
    expect(seen[10]!.poisoning?.txnHash).toBe(rows[10]!.txn_hash);
    expect(seen[11]!.poisoning?.txnHash).toBe(rows[11]!.txn_hash);
    expect(seen[12]).not.toEqual(seen[13]);
  });
});
