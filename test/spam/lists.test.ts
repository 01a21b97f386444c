import { describe, expect, it } from 'vitest';
import { listEdits } from '../../src/main/core/audit/store/trail.ts';
import { defaultList, ListBook, readSpamList } from '../../src/main/core/spam/lists.ts';
import { listStoredSpamLists } from '../../src/main/core/spam/store/lists.ts';
import { importSpamList, removeSpamList } from '../../src/main/core/spam/verdicts.ts';
import defaults from '../../src/main/core/spam/default-list.json' with { type: 'json' };
import { createDB } from '../support/store.ts';

/**
 * Spam lists (docs/spam.md, "Lists"): the format read whole before anything is kept, a fault named
 * by its line and member; the shipped list valid and holding the real Ethereum contracts; an
 * import kept by name, replaced, removed, each an audited edit.
 */
const CID = '0x' + 'ab'.repeat(20);
const good = `{
  "format": "folioscope-spam-list",
  "version": 1,
  "name": "Ops list",
  "tokens": [
    { "chain": "eth", "cid": "0x${'AB'.repeat(20)}", "verdict": "spam", "note": "airdrop" },
    { "chain": null, "cid": "0x${'cd'.repeat(20)}", "verdict": "genuine" }
  ],
  "addresses": [{ "address": "0x${'12'.repeat(20)}", "verdict": "spam" }],
  "symbolPatterns": [{ "pattern": "*free mint*" }]
}
`;

describe('reading a list file', () => {
  it('reads the documented format, contracts in lower case, members optional', () => {
    const list = readSpamList(good);
    expect(list.tokens[0]).toEqual({ chain: 'eth', cid: CID, verdict: 'spam', note: 'airdrop' });
    expect(list.addresses).toHaveLength(1);
    expect(readSpamList('{ "version": 1 }')).toEqual({ version: 1, tokens: [], addresses: [], symbolPatterns: [] });
  });

  it('refuses a fault, naming its line and member, with nothing imported', () => {
    const bad = (text: string) => {
      try {
        readSpamList(text);
      } catch (err) {
        return (err as Error).message;
      }
      return 'read';
    };
    expect(bad('{ "version": 1,\n  "tokens": [\n  }')).toMatch(/^This spam list is not JSON \(line 3, column 3: unexpected "}"\)\. Nothing was imported\.$/);
    expect(bad('{ "version": 1, "tokens": [ { "cid": "0x1", } ] }')).toMatch(/not JSON \(line 1, column .*expected a member name/);
    expect(bad(good.replace(`"0x${'cd'.repeat(20)}"`, '"0xnothex"'))).toBe(
      'This spam list is not valid (line 7, tokens[1].cid: expected 0x and 40 hex digits). Nothing was imported.',
    );
    expect(bad(good.replace('"verdict": "spam", "note"', '"verdict": "maybe", "note"'))).toMatch(/line 6, tokens\[0\]\.verdict: /);
    expect(bad(good.replace('"version": 1', '"version": 2'))).toMatch(/line 3, version: expected version 1/);
    expect(bad(good.replace('"symbolPatterns"', '"patterns"'))).toMatch(/line 1, the file: .*patterns/);
    expect(bad(good.replace('*free mint*', '*'))).toMatch(/line 10, symbolPatterns\[0\]\.pattern: a pattern needs at least 2 characters/);
    expect(bad(good.replace('"note": "airdrop"', '"note": "evil\\u202e"'))).toMatch(/tokens\[0\]\.note: the note .*U\+202E/);
    expect(bad(good.replace(`"chain": null, "cid": "0x${'cd'.repeat(20)}"`, `"chain": "eth", "cid": "0x${'ab'.repeat(20)}"`))).toBe(
      'This spam list is not valid (line 7, tokens[1]: the same entry as tokens[0]). Nothing was imported.',
    );
    expect(bad('['.repeat(10_000))).toMatch(/nested more than 64 deep/);
  });

  it('the shipped list is a valid list: the real Ethereum contracts of USDC, USDT, DAI, WETH and WBTC as genuine, and link and claim patterns', () => {
    expect(readSpamList(JSON.stringify(defaults))).toEqual(defaultList());
    const list = defaultList();
    expect(list.tokens.map((t) => [t.chain, t.symbol, t.cid, t.verdict])).toEqual([
      ['eth', 'USDC', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', 'genuine'],
      ['eth', 'USDT', '0xdac17f958d2ee523a2206206994597c13d831ec7', 'genuine'],
      ['eth', 'DAI', '0x6b175474e89094c44da98b954eedeac495271d0f', 'genuine'],
      ['eth', 'WETH', '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', 'genuine'],
      ['eth', 'WBTC', '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599', 'genuine'],
    ]);
    const book = new ListBook([{ name: 'd', list }]);
    expect(book.token('eth', CID, 'Claim your ETH', null)?.spam).toBe(true);
    expect(book.token('eth', CID, 'UNI', 'Uniswap')).toBeNull();
    expect(book.genuineToken('eth', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48')).toBe(true);
    // On another chain that address is another contract.
    expect(book.genuineToken('arb', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48')).toBe(false);
  });

  it('the first list given decides a token, its chain’s entry before every chain’s', () => {
    const mine = readSpamList(`{ "version": 1, "tokens": [{ "chain": null, "cid": "${CID}", "verdict": "genuine" }] }`);
    const theirs = readSpamList(`{ "version": 1, "tokens": [{ "chain": "eth", "cid": "${CID}", "verdict": "spam" }] }`);
    expect(
      new ListBook([
        { name: 'mine', list: mine },
        { name: 'theirs', list: theirs },
      ]).token('eth', CID, null, null),
    ).toMatchObject({ spam: true });
    expect(
      new ListBook([
        { name: 'mine', list: mine },
        { name: 'theirs', list: theirs },
      ]).token('arb', CID, null, null),
    ).toMatchObject({ spam: false });
    expect(
      new ListBook([
        { name: 'theirs', list: theirs },
        { name: 'mine', list: mine },
      ]).token('eth', CID, null, null),
    ).toMatchObject({ spam: true });
  });
});

describe('importing a list into the cache', () => {
  it('keeps it by name (the file’s, or the one given), replaces it, removes it; each an edit in the audit trail; a bad file changes nothing', () => {
    const db = createDB();
    expect(importSpamList(db, good, undefined, new Date('2026-11-01T00:00:00Z'))).toEqual({
      name: 'Ops list',
      source: 'user',
      importedAt: '2026-11-01T00:00:00.000Z',
      tokens: 2,
      addresses: 1,
      symbolPatterns: 1,
    });
    expect(() => importSpamList(db, good.replace('"version": 1', '"version": "1"'), undefined)).toThrow(/line 3, version/);
    expect(() => importSpamList(db, '{ "version": 1 }', undefined)).toThrow(/Name the list/);
    expect(() => importSpamList(db, '{ "version": 1 }', 'Folioscope defaults')).toThrow(/the shipped list's name/);
    importSpamList(db, '{ "version": 1, "tokens": [] }', 'Ops list', new Date('2026-11-02T00:00:00Z'));
    expect(listStoredSpamLists(db).map((l) => [l.name, l.tokens])).toEqual([['Ops list', 0]]);
    expect(removeSpamList(db, 'Ops list')).toBe(true);
    expect(removeSpamList(db, 'Ops list')).toBe(false);
    expect(listEdits(db, { entity: 'spam-list' }).map((e) => [e.action, e.key, (e.after as { tokens?: number } | null)?.tokens ?? null])).toEqual([
      ['delete', 'Ops list', null],
      ['update', 'Ops list', 0],
      ['create', 'Ops list', 2],
    ]);
  });
});
