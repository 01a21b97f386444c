import { describe, expect, it } from 'vitest';
import { counterpartiesCsv, parseCsvRecords, planCounterpartyImport } from '../../src/main/core/counterparties/csv.ts';
import type { Counterparty } from '../../src/shared/model.ts';

const KNOWN = ['eth', 'arb', 'op', 'base', 'matic', 'bsc'];
const A = '0x' + 'a1'.repeat(20);
const B = '0x' + 'b2'.repeat(20);
const C = '0x' + 'c3'.repeat(20);
const entry = (address: string, name: string, more: Partial<Counterparty> = {}): Counterparty => ({
  address,
  name,
  tags: [],
  ours: false,
  chains: [],
  note: '',
  createdAt: 't',
  updatedAt: 't',
  ...more,
});

describe('address-book CSV: reading', () => {
  it('reads quoted fields with commas, quotes and line breaks, CRLF or LF, and names each record by its first line', () => {
    const recs = parseCsvRecords('\ufeffa,b\r\n"x, ""y""","multi\nline"\n\nlast,1\n');
    expect(recs).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, "y"', 'multi\nline'] },
      { line: 5, fields: ['last', '1'] },
    ]);
    expect(() => parseCsvRecords('a,b\n"open,1\n')).toThrow(/Line 2: a quoted field is not closed/);
  });

  it("reads Folioscope's columns: address normalised, tags and chains split on ';', EIP-3770 prefixes mapped to the service's chains", () => {
    const text = [
      'address,name,tags,ours,chains,note',
      `eth:${A.toUpperCase().replace('0X', '0x')},Grantee X,grants;2025,false,,paid monthly`,
      `arb1:${B},Treasury cold,,true,matic,`,
      `${C},Exchange,cex,no,oeth;base,`,
    ].join('\n');
    const { preview, entries } = planCounterpartyImport(text, [], KNOWN);
    expect(preview.format).toBe('folioscope');
    expect(preview.applicable).toBe(true);
    expect(preview.rows.map((r) => [r.row, r.outcome, r.address, r.chains])).toEqual([
      [2, 'add', A, ['eth']],
      [3, 'add', B, ['arb', 'matic']],
      [4, 'add', C, ['base', 'op']],
    ]);
    expect(entries).toEqual([
      { address: A, name: 'Grantee X', tags: ['grants', '2025'], ours: false, chains: ['eth'], note: 'paid monthly' },
      { address: B, name: 'Treasury cold', tags: [], ours: true, chains: ['arb', 'matic'], note: '' },
      { address: C, name: 'Exchange', tags: ['cex'], ours: false, chains: ['base', 'op'], note: '' },
    ]);
  });

  it("reads Safe's address book export (address,name,chainId): one entry per address, its chains joined", () => {
    const text = `address,name,chainId\n${A},Multisig,1\n${A},Multisig,137\n${B},Payroll,42161\n`;
    const { preview, entries } = planCounterpartyImport(text, [], KNOWN);
    expect(preview.format).toBe('safe');
    expect(preview.rows.map((r) => r.outcome)).toEqual(['add', 'merged', 'add']);
    expect(preview.rows[1]!.problem).toBe('joined to line 2');
    expect(entries.map((e) => [e.address, e.chains])).toEqual([
      [A, ['eth', 'matic']],
      [B, ['arb']],
    ]);
  });

  it('reports every conflict kind row by row with its line, and is then not applicable', () => {
    const text = [
      'address,name,chains',
      `${A},Grantee X,eth`, // 2: fine
      `${A},Grantee Y,eth`, // 3: same address, another name in the file
      `${A},Grantee X,eth`, // 4: a duplicate row
      `0x1234,Short,`, // 5: bad address
      `zk:${B},Somewhere,`, // 6: unknown EIP-3770 prefix
      `${B},Elsewhere,solana2`, // 7: unknown chain
      `${C},Renamed,`, // 8: the book names it otherwise
      `${'0x' + 'd4'.repeat(20)},Bad\u202Ename,`, // 9: a text-moving character
    ].join('\n');
    const { preview, entries } = planCounterpartyImport(text, [entry(C, 'Exchange')], KNOWN);
    expect(preview.rows.map((r) => [r.row, r.outcome])).toEqual([
      [2, 'add'],
      [3, 'conflict'],
      [4, 'error'],
      [5, 'error'],
      [6, 'error'],
      [7, 'error'],
      [8, 'conflict'],
      [9, 'error'],
    ]);
    const problems = preview.rows.map((r) => r.problem);
    expect(problems[1]).toBe('line 2 names this address "Grantee X"');
    expect(problems[2]).toBe('repeats line 2.');
    expect(problems[3]).toMatch(/not an EVM address/i);
    expect(problems[4]).toMatch(/unknown chain "zk"/);
    expect(problems[5]).toMatch(/unknown chain "solana2"/);
    expect(problems[6]).toMatch(/the address book names it "Exchange"/);
    expect(problems[7]).toMatch(/U\+202E/);
    expect(preview.counts).toEqual({ add: 1, update: 0, same: 0, merged: 0, conflict: 2, error: 5 });
    expect(preview.applicable).toBe(false);
    // What would be written if it were: only the good row; the caller writes nothing when not applicable.
    expect(entries.map((e) => e.address)).toEqual([A]);
  });

  it('takes the file’s name over the book’s with replace; an unchanged entry is "same"', () => {
    const text = `address,name\n${A},New name\n${B},Kept\n`;
    const book = [entry(A, 'Old name'), entry(B, 'Kept')];
    expect(planCounterpartyImport(text, book, KNOWN).preview.applicable).toBe(false);
    const { preview, entries } = planCounterpartyImport(text, book, KNOWN, { replace: true });
    expect(preview.rows.map((r) => r.outcome)).toEqual(['update', 'same']);
    expect(entries.map((e) => e.name)).toEqual(['New name']);
  });

  it("an EIP-3770 prefix or Safe's chainId adds its chain to the book's entry, never narrows it; the chains column states them whole", () => {
    const book = [entry(A, 'Grantee X', { chains: ['arb', 'eth'] }), entry(B, 'Everywhere')];
    // eth:0x… for an entry held on arb and eth: eth is among them, nothing changes.
    const again = planCounterpartyImport(`address,name\neth:${A},Grantee X\n`, book, KNOWN);
    expect(again.preview.rows.map((r) => [r.outcome, r.chains])).toEqual([['same', ['arb', 'eth']]]);
    expect(again.entries).toEqual([]);
    // base:0x… adds base to the two.
    const more = planCounterpartyImport(`address,name\nbase:${A},Grantee X\n`, book, KNOWN);
    expect(more.preview.rows.map((r) => [r.outcome, r.chains])).toEqual([['update', ['arb', 'base', 'eth']]]);
    expect(more.entries.map((e) => e.chains)).toEqual([['arb', 'base', 'eth']]);
    // Safe's rows add their chains the same way; an entry named on every chain stays so.
    const safe = planCounterpartyImport(`address,name,chainId\n${A},Grantee X,1\n${B},Everywhere,1\n`, book, KNOWN);
    expect(safe.preview.rows.map((r) => [r.outcome, r.chains])).toEqual([
      ['same', ['arb', 'eth']],
      ['same', []],
    ]);
    // The chains column (what export writes) is the entry's chains whole: it may narrow them.
    const stated = planCounterpartyImport(`address,name,chains\n${A},Grantee X,eth\n`, book, KNOWN);
    expect(stated.preview.rows.map((r) => [r.outcome, r.chains])).toEqual([['update', ['eth']]]);
  });

  it('refuses a file that is not an address book, naming what it expected', () => {
    expect(() => planCounterpartyImport('', [], KNOWN)).toThrow(/empty/);
    expect(() => planCounterpartyImport('wallet,label\nx,y\n', [], KNOWN)).toThrow(/Line 1 is not an address-book header.*not a column: wallet, label/);
  });

  it('writes what it reads: export, read back, the same entries (formula-like names and multi-line notes too)', () => {
    const book = [
      entry(A, '=SUM(A1)', { tags: ['x', 'y'], ours: true, chains: ['eth', 'op'], note: 'two\nlines, "quoted"' }),
      entry(B, 'Plain', { chains: [] }),
      entry('So1anaAddr3ssCaseKept', 'Solana desk', { chains: ['solana'] }),
    ];
    const csv = counterpartiesCsv(book);
    expect(csv.split('\r\n')[0]).toBe('\ufeffaddress,name,tags,ours,chains,note');
    expect(csv).toContain("'=SUM(A1)");
    const { preview, entries } = planCounterpartyImport(csv, [], [...KNOWN, 'solana']);
    expect(preview.applicable).toBe(true);
    expect(entries).toEqual(book.map(({ createdAt: _c, updatedAt: _u, ...e }) => e));
    // Into the same book: nothing changes.
    expect(planCounterpartyImport(csv, book, [...KNOWN, 'solana']).preview.counts.same).toBe(3);
  });
});
