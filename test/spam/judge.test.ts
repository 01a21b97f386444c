import { describe, expect, it } from 'vitest';
import {
  decide,
  judgeProtocolPosition,
  judgeToken,
  judgeTransaction,
  KnownParties,
  knownParties,
  poisoningGuard,
  SPAM_THRESHOLD,
  WEIGHTS,
  type RuleResult,
  type SpamTxnRow,
  type TokenFacts,
  type TxnContext,
} from '../../src/main/core/spam/index.ts';
import { withNeverAcquired } from '../../src/main/core/spam/judge.ts';
import { globTest, textSignals } from '../../src/main/core/spam/text.ts';

/**
 * The judge on hand-made rows (src/main/core/spam/judge.ts, docs/spam.md): every reason, what
 * they add up to, and the genuine cases that must stay genuine whatever weak signal they carry.
 */
const W = '0x' + '1'.repeat(40);
const USDC = '0x' + 'a0'.repeat(20);
const FAKE = '0x' + 'fa'.repeat(20);
const NATIVE = '0x' + 'e'.repeat(40);
const G = '0xa1b2' + '0'.repeat(32) + 'c3d4'; // a known counterparty
const LOOK = '0xa1b2' + '9'.repeat(32) + 'c3d4'; // its lookalike
const STRANGER = '0x' + '7'.repeat(40);

const token = (o: Partial<TokenFacts>): TokenFacts => ({
  chain: 'eth',
  cid: FAKE,
  symbol: 'ABC',
  name: 'Abc Token',
  valued: true,
  market: null,
  genuine: false,
  acquired: false,
  seen: true,
  firstHeld: '2026-01-01',
  ...o,
});
const codes = (r: RuleResult) => r.reasons.map((x) => x.code);

describe('the token rules', () => {
  it('a plain genuine token has no reason; the native coin is never spam', () => {
    expect(judgeToken(token({}))).toEqual({ score: 0, reasons: [] });
    for (const cid of [NATIVE, '', '0x' + '0'.repeat(40), 'eth'])
      expect(judgeToken(token({ cid, symbol: 'ETH', name: 'Ether' }))).toMatchObject({ score: WEIGHTS['token.native'], reasons: [{ code: 'token.native' }] });
    expect(judgeToken(token({ chain: 'matic', cid: '0x0000000000000000000000000000000000001010', symbol: 'POL' })).score).toBeLessThan(0);
  });

  it('a link or a domain in the symbol or name is spam alone; "Curve.fi" and "yearn.finance" are not links', () => {
    for (const symbol of ['Visit claim-eth.com', 'www.uni-airdrop.xyz', 't.me/free_usdt', 'https://usdc.fund', 'ETH-reward.io']) {
      const r = judgeToken(token({ symbol }));
      expect(codes(r), symbol).toContain('token.url');
      expect(r.score, symbol).toBeGreaterThanOrEqual(SPAM_THRESHOLD);
    }
    expect(judgeToken(token({ symbol: 'CRV', name: 'Curve.fi DAI/USDC/USDT' })).score).toBe(0);
    expect(judgeToken(token({ symbol: 'YFI', name: 'yearn.finance' })).score).toBe(0);
    expect(judgeToken(token({ symbol: 'stETH', name: 'Liquid staked Ether 2.0' })).score).toBe(0);
    expect(judgeToken(token({ symbol: 'USDC.e', name: 'Bridged USDC' })).score).toBe(0);
  });

  it('bait in the symbol is spam alone, in the name only counts; an amount, emoji, a $ prefix, look-alike letters', () => {
    expect(judgeToken(token({ symbol: 'CLAIM REWARDS' })).score).toBeGreaterThanOrEqual(SPAM_THRESHOLD);
    expect(codes(judgeToken(token({ symbol: 'AIRDROP' })))).toEqual(['token.bait-symbol']);
    const name = judgeToken(token({ symbol: 'ABC', name: 'Airdrop pass' }));
    expect(name).toMatchObject({ score: WEIGHTS['token.bait-name'] });
    expect(codes(judgeToken(token({ symbol: '$5000 USDC' })))).toEqual(['token.amount']);
    expect(codes(judgeToken(token({ symbol: '$PEPE' })))).toEqual(['token.dollar']);
    expect(codes(judgeToken(token({ symbol: '🎁 GIFT' })))).toEqual(['token.bait-symbol', 'token.emoji']);
    // Cyrillic S and C in "USDC": read as USDC, compared as USDC, and said.
    expect(codes(judgeToken(token({ symbol: 'UЅDС' })))).toEqual(['token.confusable']);
    expect(codes(judgeToken(token({ symbol: 'US\u200bDC' })))).toEqual(['token.confusable']);
    // A name in Cyrillic is a name, not a disguise.
    expect(judgeToken(token({ symbol: 'RUB', name: 'Рубль' })).score).toBe(0);
  });

  it('a token calling itself the chain’s native coin from a contract is spam alone, on that chain only', () => {
    const fake = judgeToken(token({ symbol: 'ETH', name: 'Ether' }));
    expect(codes(fake)).toEqual(['token.native-imitation']);
    expect(fake.score).toBeGreaterThanOrEqual(SPAM_THRESHOLD);
    expect(codes(judgeToken(token({ symbol: 'ЕТН' })))).toContain('token.native-imitation');
    expect(codes(judgeToken(token({ chain: 'bsc', symbol: 'BNB' })))).toEqual(['token.native-imitation']);
    // ETH on BNB Chain is a bridged token, not BNB Chain's coin; WETH is not ETH.
    expect(judgeToken(token({ chain: 'bsc', symbol: 'ETH', name: 'Binance-Peg Ethereum Token' })).score).toBe(0);
    expect(judgeToken(token({ symbol: 'WETH', name: 'Wrapped Ether' })).score).toBe(0);
    // A chain the judge does not know has no native check.
    expect(judgeToken(token({ chain: 'zz', symbol: 'ETH' })).score).toBe(0);
    // On a genuine list: not an impersonation.
    expect(judgeToken(token({ symbol: 'ETH', genuine: true })).score).toBe(0);
  });

  it('a copy of a held token’s symbol from another contract: strong against a genuine-looking one, weaker by age alone, none when both have markets', () => {
    const real = token({ cid: USDC, symbol: 'USDC', market: 'listed', firstHeld: '2025-01-01' });
    const copy = token({ symbol: 'usdc', market: 'absent', firstHeld: '2026-06-01' });
    const r = judgeToken(copy, [real, copy]);
    expect(codes(r)).toEqual(['token.symbol-imitation', 'token.no-liquidity-entry']);
    expect(r.score).toBeGreaterThanOrEqual(SPAM_THRESHOLD);
    expect(r.reasons[0]!.text).toMatch(/copies the token at 0xa0a0…a0a0 \(listed by the liquidity view/);
    // On a genuine list, bought by the wallet, or held where the copy never was: each strong.
    expect(codes(judgeToken(token({ symbol: 'USDC', market: null }), [token({ cid: USDC, symbol: 'USDC', genuine: true })]))).toEqual([
      'token.symbol-imitation',
    ]);
    expect(codes(judgeToken(token({ symbol: 'USDC', market: null }), [token({ cid: USDC, symbol: 'USDC', acquired: true })]))).toEqual([
      'token.symbol-imitation',
    ]);
    expect(codes(judgeToken(token({ symbol: 'USDC', market: null, seen: false }), [token({ cid: USDC, symbol: 'USDC' })]))).toEqual(['token.symbol-imitation']);
    // Only older: 4, under the threshold alone.
    const older = judgeToken(token({ symbol: 'USDC', market: null, firstHeld: '2026-06-01' }), [token({ cid: USDC, symbol: 'USDC', firstHeld: '2025-01-01' })]);
    expect(older).toMatchObject({ score: WEIGHTS['token.symbol-imitation-older'], reasons: [{ code: 'token.symbol-imitation-older' }] });
    // Two genuine tokens of one symbol, both with a market (bridged and native USDC): neither is a copy.
    expect(
      judgeToken(token({ symbol: 'USDC', market: 0.01, firstHeld: '2026-06-01' }), [
        token({ cid: USDC, symbol: 'USDC', market: 0.01, firstHeld: '2025-01-01' }),
      ]).score,
    ).toBe(0);
    // The same symbol on two chains is two tokens, never compared (peers are of one chain).
    expect(judgeToken(token({ chain: 'arb', symbol: 'USDC', cid: FAKE }), []).score).toBe(0);
  });

  it('value claimed with no market: slippage of 0.5 and more counts 3, a missing liquidity entry 1; never spam alone', () => {
    expect(judgeToken(token({ market: 0.9 }))).toMatchObject({ score: 3, reasons: [{ code: 'token.no-market' }] });
    expect(judgeToken(token({ market: 0.49 })).score).toBe(0);
    expect(judgeToken(token({ market: 'absent' }))).toMatchObject({ score: 1, reasons: [{ code: 'token.no-liquidity-entry' }] });
    // Worth nothing and unsellable counts too, below the threshold alone; never acquired, it reaches it.
    expect(judgeToken(token({ market: 0.9, valued: false }))).toMatchObject({ score: 3, reasons: [{ code: 'token.no-market' }] });
    expect(withNeverAcquired(judgeToken(token({ market: 0.9, valued: false })), 'ABC').score).toBe(5);
    // Never bought by the wallet: counted only beside another reason.
    expect(withNeverAcquired(judgeToken(token({ market: 0.9 })), 'ABC').score).toBe(5);
    expect(withNeverAcquired(judgeToken(token({})), 'ABC').score).toBe(0);
  });

  it('a protocol position: its name’s link or emoji counts, not bait words ("Rewards" is a genuine pool’s name)', () => {
    expect(judgeProtocolPosition({ chain: 'eth', cid: FAKE, symbol: 'Rewards', name: 'Claim rewards', slippages: null }).score).toBe(0);
    expect(judgeProtocolPosition({ chain: 'eth', cid: FAKE, symbol: 'LP', name: 'Pool at claim-lp.com', slippages: null }).score).toBeGreaterThanOrEqual(
      SPAM_THRESHOLD,
    );
    expect(codes(judgeProtocolPosition({ chain: 'eth', cid: FAKE, symbol: 'LP', name: 'A/B LP', slippages: [0.7, 0.9] }))).toEqual(['token.no-market']);
    expect(judgeProtocolPosition({ chain: 'eth', cid: FAKE, symbol: 'LP', name: 'A/B LP', slippages: [0.7, 0.1] }).score).toBe(0);
  });

  it('reads bounded text: a symbol of a million characters is judged at once', () => {
    const start = textSignals('a'.repeat(1_000_000) + '.com');
    expect(start.url).toBe(false); // past the 300 characters looked at
    expect(globTest('*a*a*a*b')('a'.repeat(1_000_000))).toBe(false);
    expect(globTest('claim*')('Claim your ETH')).toBe(true);
    expect(globTest('*t.me/*')('join T.ME/scam now')).toBe(true);
    expect(globTest('*.com*')('Compound')).toBe(false);
    expect(globTest('usd?')('usdc')).toBe(false);
  });
});

describe('the counterparties', () => {
  it('a lookalike shares at least 4 hex digits at each end with a known address; the shared ends are named', () => {
    const known = new KnownParties([G.toUpperCase().replace('0X', '0x'), W]);
    expect(known.has(G)).toBe(true);
    expect(known.lookalikeOf(LOOK)).toEqual({ imitates: G, prefix: '0xa1b2', suffix: 'c3d4' });
    // Longer shared ends are named whole.
    const closer = '0xa1b20' + '9'.repeat(30) + '0c3d4';
    expect(known.lookalikeOf(closer)).toEqual({ imitates: G, prefix: '0xa1b20', suffix: '0c3d4' });
    // Three digits at one end is not enough; the address itself is not its own lookalike.
    expect(known.lookalikeOf('0xa1b3' + '9'.repeat(32) + 'c3d4')).toBeNull();
    expect(known.lookalikeOf('0xa1b2' + '9'.repeat(32) + 'c3d5')).toBeNull();
    expect(known.lookalikeOf(G)).toBeNull();
    expect(known.lookalikeOf('not-an-evm-address')).toBeNull();
  });

  it('an address paid after a known one it imitates is not known: the poisoner paid once stays a lookalike', () => {
    const { parties, demoted } = knownParties(
      [W],
      [
        { address: LOOK, first: 2000 },
        { address: G, first: 1000 },
        { address: STRANGER, first: 1500 },
      ],
    );
    expect(parties.has(G)).toBe(true);
    expect(parties.has(STRANGER)).toBe(true);
    expect(parties.has(LOOK)).toBe(false);
    expect(demoted.get(LOOK)).toBe(G);
    // An anchor (the address book) is known whatever came first.
    expect(knownParties([G], [{ address: LOOK, first: 1 }]).parties.has(LOOK)).toBe(false);
  });

  it('an anchor takes its place in the order: it makes a lookalike of what came after it, never of what came before', () => {
    // The user vouches for LOOK, which appeared after the wallet first dealt with G: both known.
    const after = knownParties([{ address: LOOK, first: 2000 }], [{ address: G, first: 1000 }]);
    expect(after.parties.has(G)).toBe(true);
    expect(after.parties.has(LOOK)).toBe(true);
    expect(after.demoted.size).toBe(0);
    // G named before LOOK was first paid: LOOK, paid, is still the imitation.
    const before = knownParties([{ address: G, first: 500 }], [{ address: LOOK, first: 1000 }]);
    expect(before.parties.has(LOOK)).toBe(false);
    expect(before.demoted.get(LOOK)).toBe(G);
    // A vouch that never appeared stands after all (Infinity): known, and a lookalike of it not dealt with still shows.
    const never = knownParties([{ address: G, first: Infinity }], [{ address: STRANGER, first: 1 }]);
    expect(never.parties.has(G)).toBe(true);
    expect(never.parties.lookalikeOf(LOOK)).toEqual({ imitates: G, prefix: '0xa1b2', suffix: 'c3d4' });
    // An anchor whose own address had been left out as a lookalike is known from its place on.
    const both = knownParties(
      [{ address: LOOK, first: 3000 }],
      [
        { address: G, first: 1000 },
        { address: LOOK, first: 2000 },
      ],
    );
    expect(both.parties.has(LOOK)).toBe(true);
    expect(both.demoted.has(LOOK)).toBe(false);
  });
});

describe('the transaction rules', () => {
  const parties = new KnownParties([W, G]);
  const ctx = (o: Partial<TxnContext> = {}): TxnContext => ({
    parties,
    token: (_chain, cid) => ({ rules: { score: 0, reasons: [] }, established: cid === USDC || cid === NATIVE }),
    dust: (_chain, _cid, qty) => qty < 0.0001,
    ...o,
  });
  const row = (o: Partial<SpamTxnRow>): SpamTxnRow => ({ wallet: W, chain: 'eth', txnHash: '0xh', from: G, to: W, methodHex: '0xa9059cbb', details: [], ...o });
  const inOf = (cid: string, qty: number, symbol = 'USDC') => [{ token_cid: cid, type: 'in', qty, symbol }];

  it('a genuine transfer from a known counterparty is not spam; one from a stranger of a known token neither', () => {
    expect(judgeTransaction(row({ details: inOf(USDC, 500) }), ctx())).toMatchObject({ score: -2, reasons: [{ code: 'txn.known-sender' }] });
    expect(judgeTransaction(row({ from: STRANGER, details: inOf(USDC, 500) }), ctx()).score).toBe(0);
  });

  it('a genuine new token from a new sender is 2 (never held, a stranger): not spam', () => {
    const r = judgeTransaction(row({ from: STRANGER, details: inOf(FAKE, 100, 'ARB') }), ctx());
    expect(codes(r)).toEqual(['txn.unseen-token', 'txn.stranger']);
    expect(r.score).toBe(2);
  });

  it('a multi-send of a token never held from a stranger is spam; of a held token (a payroll), not', () => {
    const r = judgeTransaction(row({ from: STRANGER, methodHex: '0xc73a2d60aa', details: inOf(FAKE, 100, 'GLDX') }), ctx());
    expect(codes(r)).toEqual(['txn.multisend', 'txn.unseen-token', 'txn.stranger']);
    expect(r.score).toBeGreaterThanOrEqual(SPAM_THRESHOLD);
    expect(judgeTransaction(row({ from: STRANGER, methodHex: '0xe63d38ed', details: inOf(USDC, 1000) }), ctx()).score).toBe(3);
  });

  it('address poisoning: zero, dust or a fake from a lookalike; a zero transferFrom the wallet did not send', () => {
    const zeroIn = judgeTransaction(row({ from: LOOK, methodHex: '0x23b872dd', details: inOf(USDC, 0) }), ctx());
    expect(codes(zeroIn)).toEqual(['poison.zero-value']);
    expect(zeroIn.lookalike).toEqual({ address: LOOK, imitates: G, prefix: '0xa1b2', suffix: 'c3d4' });
    expect(zeroIn.reasons[0]!.text).toMatch(/0xa1b2…c3d4 imitates 0xa1b2…c3d4, a known counterparty \(the same 0xa1b2 … c3d4/);
    // The transferFrom's Transfer log as the wallet's "out" of zero to the lookalike.
    const zeroOut = judgeTransaction(
      row({ from: W, to: LOOK, methodHex: '0x23b872dd', details: [{ token_cid: USDC, type: 'out', qty: 0, symbol: 'USDC' }] }),
      ctx(),
    );
    expect(codes(zeroOut)).toEqual(['poison.zero-value']);
    expect(judgeTransaction(row({ from: LOOK, details: inOf(USDC, 0.000001) }), ctx())).toMatchObject({ score: 6, reasons: [{ code: 'poison.dust' }] });
    expect(judgeTransaction(row({ from: LOOK, methodHex: '0x', details: inOf(NATIVE, 1e-9, 'ETH') }), ctx()).score).toBeGreaterThanOrEqual(SPAM_THRESHOLD);
    // A fake token, the real transfer's amount, from the lookalike.
    const fake = judgeTransaction(row({ from: LOOK, details: inOf(FAKE, 2500) }), ctx());
    expect(codes(fake)).toEqual(['poison.lookalike', 'txn.unseen-token']);
    expect(fake.score).toBeGreaterThanOrEqual(SPAM_THRESHOLD);
    // No lookalike to name: a zero transferFrom by someone else is still the poisoner's move.
    expect(codes(judgeTransaction(row({ from: STRANGER, methodHex: '0x23b872dd', details: inOf(USDC, 0) }), ctx()))).toEqual(['poison.zero-transfer-from']);
    // A zero transfer alone (no lookalike, not transferFrom) only counts.
    expect(judgeTransaction(row({ from: STRANGER, details: inOf(USDC, 0) }), ctx()).score).toBe(WEIGHTS['txn.zero-value']);
    // Real USDC from a lookalike, not dust: spam all the same (two genuine addresses share 8 hex
    // digits about once in 4 billion pairs).
    expect(judgeTransaction(row({ from: LOOK, details: inOf(USDC, 50) }), ctx())).toMatchObject({ score: 5, reasons: [{ code: 'poison.lookalike' }] });
  });

  it('the tokens received add their own reasons: the mildest received decides (a genuine one beside spam keeps it genuine)', () => {
    const spammy = (_chain: string, cid: string) => ({
      rules: cid === FAKE ? { score: 6, reasons: [{ code: 'token.url', weight: 6, text: 'a link' }] } : { score: 0, reasons: [] },
      established: cid !== FAKE,
    });
    const alone = judgeTransaction(row({ from: STRANGER, details: inOf(FAKE, 1, 'x.com') }), ctx({ token: spammy }));
    expect(alone.score).toBe(8);
    expect(alone.reasons[0]!.text).toBe('x.com: a link');
    const beside = judgeTransaction(row({ from: STRANGER, details: [...inOf(FAKE, 1, 'x.com'), ...inOf(USDC, 100)] }), ctx({ token: spammy }));
    expect(beside.score).toBe(2);
  });

  it('a transaction that moved the wallet’s funds out is never spam by the rules, whatever it brought in', () => {
    const swap = row({
      from: W,
      to: STRANGER,
      details: [
        { token_cid: USDC, type: 'out', qty: 100, symbol: 'USDC' },
        { token_cid: FAKE, type: 'in', qty: 5, symbol: 'claim.com' },
      ],
    });
    expect(judgeTransaction(swap, ctx())).toMatchObject({ score: -100, reasons: [{ code: 'txn.outflow' }] });
  });
});

describe('the poisoning guard', () => {
  const parties = new KnownParties([W, G]);
  const pay = (to: string, qty = 2500) => ({
    wallet: W,
    chain: 'eth',
    txnHash: '0xpay',
    from: W,
    to,
    methodHex: '0xa9059cbb',
    details: [{ token_cid: USDC, type: 'out', qty, symbol: 'USDC' }],
  });
  it('fires on an outflow to a lookalike of a known counterparty, naming both and the shared ends', () => {
    expect(poisoningGuard(pay(LOOK), parties)).toEqual({ lookalike: LOOK, imitates: G, prefix: '0xa1b2', suffix: 'c3d4', txnHash: '0xpay' });
  });
  it('is silent for the known counterparty itself, a stranger, nothing sent, or a receipt', () => {
    expect(poisoningGuard(pay(G), parties)).toBeNull();
    expect(poisoningGuard(pay(STRANGER), parties)).toBeNull();
    expect(poisoningGuard(pay(LOOK, 0), parties)).toBeNull();
    expect(poisoningGuard({ ...pay(W), from: LOOK, details: [{ token_cid: USDC, type: 'in', qty: 5, symbol: 'USDC' }] }, parties)).toBeNull();
  });
});

describe('who decides', () => {
  const rules: RuleResult = { score: 7, reasons: [{ code: 'token.url', weight: 6, text: 'x' }] };
  it('the user over a list over the rules; the rules’ score stays to read', () => {
    expect(decide(rules, null, null)).toMatchObject({ spam: true, decidedBy: 'rules', score: 7 });
    expect(decide({ score: 4, reasons: [] }, null, null)).toMatchObject({ spam: false, decidedBy: 'rules' });
    const list = { spam: false, code: 'list.genuine', text: 'listed' };
    expect(decide(rules, list, null)).toMatchObject({
      spam: false,
      decidedBy: 'list',
      score: 7,
      reasons: [{ code: 'list.genuine', weight: 0 }, { code: 'token.url' }],
    });
    const user = { spam: true, code: 'user.spam', text: 'you' };
    expect(decide({ score: 0, reasons: [] }, list, user)).toMatchObject({ spam: true, decidedBy: 'user', reasons: [{ code: 'user.spam' }] });
  });
});
