import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { spamJudge } from '../../src/main/core/spam/index.ts';
import {
  judgeProtocolPosition,
  judgeToken,
  judgeTransaction,
  KnownParties,
  WEIGHTS,
  withNeverAcquired,
  type SpamTxnRow,
  type TokenFacts,
  type TxnContext,
} from '../../src/main/core/spam/judge.ts';
import { ListBook, readSpamList } from '../../src/main/core/spam/lists.ts';
import { markSpam } from '../../src/main/core/spam/verdicts.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { insertSnapshots } from '../../src/main/core/positions/store/snapshots.ts';
import { setLocale } from '../../src/renderer/src/lib/format.ts';
import { reasonText, reasonTexts } from '../../src/renderer/src/lib/spam.ts';
import { german } from '../../src/renderer/src/lib/words.de.ts';
import { english, setLanguage } from '../../src/renderer/src/lib/words.ts';
import type { SpamReason } from '../../src/shared/spam.ts';
import { holdingViews } from '../spam/support.ts';
import { createDB } from '../support/store.ts';

/**
 * A spam verdict's reasons on a German screen (issue 39, item 2): the core writes each reason in
 * English for the CLI and the CSV, with its code and the values it says; the screen says it again
 * by the code (words.spam.reasons). Held here: every code the core can give has a German text; the
 * values carry the whole sentence (the English said from them is the core's sentence word for
 * word); each German text for real reasons of the core.
 */
afterEach(() => {
  setLocale(null);
  setLanguage('en-US');
});

/** Every code the core gives a reason: the rules' (WEIGHTS) and those written where the user and the lists decide (read from the source, so a new one fails here). */
function coreCodes(): string[] {
  const source = ['reader.ts', 'lists.ts', 'judge.ts'].map((f) => readFileSync(new URL(`../../src/main/core/spam/${f}`, import.meta.url), 'utf8')).join('\n');
  const written = [...source.matchAll(/'((?:user|list|token|txn|poison)\.[a-z-]+)'/g)].map((m) => m[1]!);
  return [...new Set([...Object.keys(WEIGHTS), ...written])].sort();
}

const W = '0x' + '1'.repeat(40);
const USDC = '0x' + 'a0'.repeat(20);
const FAKE = '0x' + 'fa'.repeat(20);
const G = '0xa1b2' + '0'.repeat(32) + 'c3d4';
const LOOK = '0xa1b2' + '9'.repeat(32) + 'c3d4';
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

/** Reasons of the core as it gives them, of every code it has. */
function coreReasons(): SpamReason[] {
  const out: SpamReason[] = [];
  const add = (rs: SpamReason[]) => out.push(...rs);
  add(judgeToken(token({ cid: '0x' + 'e'.repeat(40), symbol: 'ETH' })).reasons);
  add(judgeToken(token({ symbol: 'Visit claim-eth.com', name: '$5000 reward 🎁' })).reasons);
  add(judgeToken(token({ symbol: 'ABC', name: 'Claim at x.io' })).reasons);
  add(judgeToken(token({ symbol: '$ABC', name: 'Claim your reward' })).reasons);
  add(judgeToken(token({ symbol: 'USDС', name: 'Abc' })).reasons); // a Cyrillic С
  add(judgeToken(token({ symbol: 'ETH', name: 'Ether' })).reasons);
  add(judgeToken(token({ symbol: 'USDC', firstHeld: '2026-03-01' }), [token({ cid: USDC, symbol: 'USDC', genuine: true })]).reasons);
  add(judgeToken(token({ symbol: 'LINK', firstHeld: '2026-03-01' }), [token({ cid: USDC, symbol: 'LINK', firstHeld: '2025-01-01' })]).reasons);
  add(judgeToken(token({ symbol: 'UNI' }), [token({ cid: USDC, symbol: 'UNI', acquired: true })]).reasons);
  add(judgeToken(token({ symbol: 'AAA', market: 'absent' }), [token({ cid: USDC, symbol: 'AAA', market: 'listed' })]).reasons);
  add(judgeToken(token({ symbol: 'BBB', seen: false, firstHeld: null }), [token({ cid: USDC, symbol: 'BBB' })]).reasons);
  add(judgeToken(token({ market: 0.9 })).reasons);
  add(judgeToken(token({ valued: false, market: 0.8 })).reasons);
  add(judgeToken(token({ market: 'absent' })).reasons);
  add(withNeverAcquired(judgeToken(token({ symbol: 'x.com' })), 'x.com').reasons);
  add(judgeProtocolPosition({ chain: 'eth', cid: FAKE, symbol: 'LP 🎁', name: 'Pool at pool.io', slippages: [0.7, 0.95] }).reasons);
  add(judgeProtocolPosition({ chain: 'eth', cid: FAKE, symbol: 'LP', name: '$1000 pооl', slippages: null }).reasons); // Cyrillic о

  const parties = new KnownParties([W, G]);
  const ctx = (o: Partial<TxnContext> = {}): TxnContext => ({
    parties,
    token: (_chain, cid) => ({ rules: { score: 0, reasons: [] }, established: cid === USDC }),
    dust: (_chain, _cid, qty) => qty < 0.0001,
    ...o,
  });
  const row = (o: Partial<SpamTxnRow>): SpamTxnRow => ({ wallet: W, chain: 'eth', txnHash: '0xh', from: G, to: W, methodHex: '0xa9059cbb', details: [], ...o });
  const inOf = (cid: string, qty: number, symbol = 'USDC') => [{ token_cid: cid, type: 'in', qty, symbol }];
  add(judgeTransaction(row({ from: W, to: STRANGER, details: [{ token_cid: USDC, type: 'out', qty: 1, symbol: 'USDC' }] }), ctx()).reasons);
  add(judgeTransaction(row({ from: LOOK, methodHex: '0x23b872dd', details: inOf(USDC, 0) }), ctx()).reasons);
  add(judgeTransaction(row({ from: LOOK, details: inOf(USDC, 0.000001) }), ctx()).reasons);
  add(judgeTransaction(row({ from: LOOK, details: inOf(FAKE, 2500, 'USDC') }), ctx()).reasons);
  add(judgeTransaction(row({ from: STRANGER, methodHex: '0x23b872dd', details: inOf(USDC, 0) }), ctx()).reasons);
  add(judgeTransaction(row({ from: STRANGER, details: inOf(USDC, 0) }), ctx()).reasons);
  add(judgeTransaction(row({ from: STRANGER, methodHex: '0xc73a2d60aa', details: inOf(FAKE, 100, 'GLDX') }), ctx()).reasons);
  add(judgeTransaction(row({ details: inOf(USDC, 500) }), ctx()).reasons);
  const spammy = (chain: string, cid: string, symbol: string | null) => ({ rules: judgeToken(token({ chain, cid, symbol })), established: false });
  add(judgeTransaction(row({ from: STRANGER, details: inOf(FAKE, 1, 'claim.com') }), ctx({ token: spammy })).reasons);

  // The lists' rulings, and the user's marks as the reader writes them.
  const list = readSpamList(
    JSON.stringify({
      version: 1,
      tokens: [
        { chain: 'eth', cid: FAKE, symbol: 'FAKE', verdict: 'spam', note: 'a scam' },
        { chain: 'eth', cid: USDC, verdict: 'genuine' },
      ],
      addresses: [{ chain: null, address: STRANGER, verdict: 'spam' }],
      symbolPatterns: [{ pattern: 'claim*', note: 'bait' }],
    }),
  );
  const book = new ListBook([{ name: 'mine', list }]);
  for (const r of [
    book.token('eth', FAKE, null, null),
    book.token('eth', USDC, null, null),
    book.address('eth', STRANGER),
    book.token('eth', W, 'Claim now', null),
  ])
    if (r) add([{ code: r.code, weight: 0, text: r.text, ...(r.values && { values: r.values }) }]);

  const db = createDB();
  addWallet(db, { address: W, chains: ['eth'] }, new Date('2026-01-01T00:00:00Z'));
  const DAY = '2026-10-01';
  const v = holdingViews(W, 'eth', DAY, [{ cid: FAKE, symbol: 'ABC', name: 'ABC', qty: 1, nav: 1 }]);
  insertSnapshots(db, v.inputs);
  markSpam(db, { kind: 'token', chain: 'eth', target: FAKE, verdict: 'spam', note: 'sent by a stranger' });
  add(spamJudge(db).position(W, 'eth', DAY, v.all[0]!).reasons.slice(0, 1));
  markSpam(db, { kind: 'contract', target: FAKE, verdict: 'not-spam', wallet: W });
  add(spamJudge(db).position(W, 'eth', DAY, v.all[0]!).reasons.slice(0, 1));
  return out;
}

describe('a spam reason on a German screen', () => {
  const reasons = coreReasons();

  it('every code the core gives has a German text (a new code fails here, not on a screen)', () => {
    const codes = coreCodes();
    expect(codes.length).toBeGreaterThan(25);
    expect(codes.filter((c) => !Object.hasOwn(german.spam.reasons, c))).toEqual([]);
    expect(codes.filter((c) => !Object.hasOwn(english.spam.reasons, c))).toEqual([]);
    // And no text for a code the core does not give.
    expect(Object.keys(german.spam.reasons).filter((c) => !codes.includes(c))).toEqual([]);
  });

  it('the reasons made here cover every code, each with its values', () => {
    expect([...new Set(reasons.map((r) => r.code))].sort()).toEqual(coreCodes());
    expect(reasons.filter((r) => !r.values).map((r) => r.code)).toEqual([]);
  });

  it('the values carry the whole sentence: said in English from them, each is the core’s own', () => {
    for (const r of reasons) {
      const said = english.spam.reasons[r.code]!(r.values!);
      expect(r.token === undefined ? said : english.spam.reasonOf(r.token, said), r.code).toBe(r.text);
    }
  });

  it('in German: each code its German sentence, with the names, figures and dates', () => {
    setLocale('de-DE');
    setLanguage('de-DE');
    const said = new Map<string, string[]>();
    for (const r of reasons) said.set(r.code, [...(said.get(r.code) ?? []), reasonText(r)]);
    const one = (code: string) => said.get(code)!.join('\n');
    for (const [code, texts] of said)
      for (const t of texts) {
        expect(t, code).not.toBe(reasons.find((r) => reasonText(r) === t)?.text);
        expect(t, code).not.toMatch(/\b(?:the|its|it|wallet never|to slippage|undefined)\b/i);
      }
    expect(one('token.native')).toBe('Es ist der native Token der Chain (ETH).');
    expect(one('token.url')).toContain('Das Symbol „Visit claim-eth.com“ enthält einen Link oder eine Domain: So wirbt ein Airdrop für eine Website.');
    expect(one('token.bait-name')).toContain('Der Name „Claim at x.io“ fordert zum Einlösen oder Besuchen auf');
    expect(one('token.dollar')).toBe('Das Symbol „$ABC“ beginnt mit „$“.');
    expect(one('token.emoji')).toContain('Der Name enthält Emoji.');
    expect(one('token.confusable')).toContain('verwendet Buchstaben einer anderen Schrift');
    expect(one('token.native-imitation')).toBe(
      'Er nennt sich ETH, wie der native Token der Chain, doch sein Vertrag 0xfafa…fafa ist nicht der des nativen Tokens.',
    );
    expect(one('token.symbol-imitation')).toContain('(auf einer Liste echter Token)');
    expect(one('token.symbol-imitation')).toContain('(von der Wallet selbst gekauft oder abgehoben)');
    expect(one('token.symbol-imitation-older')).toContain('(seit 1. Jan. 2025 gehalten, vor diesem (1. März 2026))');
    expect(one('token.no-market')).toContain('Er hat einen Wert, doch ein Verkauf verlöre 90 % durch Slippage: kein nennenswerter Markt.');
    expect(one('token.no-market')).toContain('Eine Abhebung verlöre mindestens 70 % durch Slippage');
    expect(one('token.never-acquired')).toBe('Die Wallet hat „x.com“ nie in einer eigenen Transaktion gekauft, abgehoben oder beansprucht: Er kam von selbst.');
    expect(one('poison.zero-value')).toBe(
      'Eine Überweisung über null mit 0xa1b2…c3d4, einem Doppelgänger von 0xa1b2…c3d4, einer bekannten Gegenpartei (dasselbe 0xa1b2 … c3d4, eine andere Mitte): Address Poisoning, um den Doppelgänger in den Verlauf zu bringen.',
    );
    expect(one('poison.dust')).toMatch(/^Staubbeträge von 0xa1b2…c3d4/);
    expect(one('txn.multisend')).toContain('Über einen Multi-Send empfangen (');
    expect(one('txn.unseen-token')).toContain('Die Wallet hat „GLDX“ nie zuvor gehalten oder gekauft.');
    expect(one('txn.stranger')).toContain('Sie kam von 0x7777…7777, einer Adresse, mit der die Wallet nie zu tun hatte.');
    expect(one('txn.known-sender')).toBe('Sie kam von 0xa1b2…c3d4, einer bekannten Gegenpartei.');
    // A received token's own reason, after its symbol.
    expect(one('token.url')).toContain('claim.com: Das Symbol „claim.com“ enthält einen Link');
    expect(one('list.spam')).toContain('Die Liste „mine“ nennt den Token FAKE Spam: a scam');
    expect(one('list.spam')).toContain('Die Liste „mine“ nennt die Adresse Spam.');
    expect(one('list.genuine')).toBe('Die Liste „mine“ nennt den Token echt.');
    expect(one('list.pattern')).toBe('Das Symbol passt auf „claim*“ der Liste „mine“: bait');
    expect(one('user.spam')).toBe(`Sie haben den Token ${FAKE} auf eth für jede Wallet als Spam markiert: sent by a stranger`);
    expect(one('user.not-spam')).toBe(`Sie haben den Vertrag ${FAKE} für diese Wallet als kein Spam markiert.`);
  });

  it('a verdict’s reasons follow the language; one without values or of an unknown code stays as the core wrote it', () => {
    const verdict = { spam: true, reasons: reasons.filter((r) => r.code === 'txn.known-sender' || r.code === 'txn.multisend') };
    expect(reasonTexts(verdict)).toEqual(verdict.reasons.filter((r) => r.weight >= 0).map((r) => r.text));
    setLanguage('de-DE');
    expect(reasonTexts(verdict).join(' ')).toMatch(/^Über einen Multi-Send/);
    expect(reasonText({ code: 'token.url', weight: 6, text: 'kept from before' })).toBe('kept from before');
    expect(reasonText({ code: 'token.new-rule', weight: 1, text: 'a new rule', values: {} })).toBe('a new rule');
  });
});
