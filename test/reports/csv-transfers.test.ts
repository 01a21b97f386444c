import { describe, expect, it } from 'vitest';
import { numberCell, parsedTransferCells, transferCells } from '../../src/main/core/reports/csv-transfers.ts';
import { csvCell, csvNumber } from '../../src/main/core/reports/csv.ts';
import { plainDecimal } from '../../src/shared/decimal.ts';

/**
 * The transfers' cells read from their JSON text (the export's fast way) are the cells
 * JSON.parse and csvCell give (the way it was), for every value, or the fast way declines.
 */

/** A deterministic generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Any finite double, from random bits: every exponent, subnormals and 17-digit values included. */
function anyDouble(next: () => number): number {
  const bits = new Uint32Array(2);
  const view = new Float64Array(bits.buffer);
  do {
    bits[0] = next() * 2 ** 32;
    bits[1] = next() * 2 ** 32;
  } while (!Number.isFinite(view[0]!));
  return view[0]!;
}

/** Doubles as quantities usually are: a few decimals, or what a token amount in wei gives. */
function usualDouble(next: () => number): number {
  const r = next();
  if (r < 0.4) return Number((next() * 10 ** Math.floor(next() * 8)).toFixed(Math.floor(next() * 9)));
  if (r < 0.7) return Math.floor(next() * 1e18) / 1e18;
  if (r < 0.8) return -Number((next() * 1000).toFixed(3));
  return anyDouble(next);
}

const TEXTS = [
  'in',
  'out',
  'USDC',
  '',
  '=1+1',
  '+x',
  '-x',
  '@x',
  '\tx',
  '\rx',
  'a,b',
  'say "hi"',
  'two\nlines',
  'back\\slash',
  'bidi\u202eevil',
  'nul\u0000x',
  'esc\u001b[31m',
  'bom\ufeff',
  'zwj\u200d',
  'emoji 😀',
  'lone \ud800 surrogate',
  'c1\u0085',
  'line\u2028sep',
  'é',
  '0x' + 'a'.repeat(40),
];

function cells(json: string): { fast: string[] | null; parsed: string[] } {
  const a: string[] = [];
  const b: string[] = [];
  const n = transferCells(json, a);
  const m = parsedTransferCells(json, b);
  return { fast: n < 0 ? null : a.slice(0, n), parsed: b.slice(0, m) };
}

describe('transfer cells read from JSON text', () => {
  it('read the stored shape the fast way, with the cells JSON.parse and csvCell give', () => {
    const json = JSON.stringify([
      { token_cid: '0xae198c6ab0c8f1c8cc95ca62beaca569bfabf337', type: 'out', qty: 3052.85451, symbol: 'USDC' },
      { token_cid: null, type: 'in', qty: 262.483852, symbol: 'LINK' },
      { type: '=cmd', qty: 1e-7, symbol: 'a,b', extra: true, more: null },
      {},
    ]);
    const { fast, parsed } = cells(json);
    expect(fast).toEqual(['out,USDC,0xae198c6ab0c8f1c8cc95ca62beaca569bfabf337,3052.85451', 'in,LINK,,262.483852', `'=cmd,"a,b",,0.0000001`, ',,,']);
    expect(fast).toEqual(parsed);
    expect(cells('[]')).toEqual({ fast: [], parsed: [] });
    // A member given twice counts with its last value, as in JSON.parse.
    expect(cells('[{"qty":1,"type":"in","qty":2.5}]')).toEqual({ fast: ['in,,,2.5'], parsed: ['in,,,2.5'] });
  });

  it('agree with JSON.parse on 20,000 random transfers: any double, awkward text, any member order', () => {
    const next = random(16);
    let declined = 0;
    for (let k = 0; k < 5000; k++) {
      const transfers: Array<Record<string, unknown>> = [];
      for (let j = Math.floor(next() * 5); j > 0; j--) {
        const members: Array<[string, unknown]> = [];
        const value = () => {
          const r = next();
          if (r < 0.45) return next() < 0.5 ? usualDouble(next) : anyDouble(next);
          if (r < 0.85) return TEXTS[Math.floor(next() * TEXTS.length)];
          if (r < 0.9) return null;
          if (r < 0.95) return next() < 0.5;
          return `${usualDouble(next)}`; // a quantity sent as text stays text
        };
        for (const key of ['token_cid', 'type', 'qty', 'symbol', 'other']) if (next() < 0.85) members.push([key, value()]);
        members.sort(() => next() - 0.5);
        const t: Record<string, unknown> = {};
        for (const [key, v] of members) t[key] = v;
        transfers.push(t);
      }
      const json = JSON.stringify(transfers);
      const { fast, parsed } = cells(json);
      if (fast === null) declined++;
      else expect(fast).toEqual(parsed);
    }
    // The fast way is the usual way: it declines only for text with escapes (quotes, backslashes, controls).
    expect(declined).toBeLessThan(5000 * 0.6);
    expect(declined).toBeGreaterThan(0);
  });

  it('decline what is not the flat JSON the store writes, so JSON.parse decides (and throws on invalid JSON)', () => {
    for (const json of [
      '[{"qty":01}]',
      '[{"qty":1.}]',
      '[{"qty":-}]',
      '[{"qty":1.5.2}]',
      '[{"qty":1e}]',
      '[{"type":"a\u0001b"}]',
      '[{"ty\u0001pe":"a"}]',
      '[{"qty":1}] ',
      ' [{"qty":1}]',
      '[{"qty": 1}]',
      '[{"qty":1},]',
      '[{"qty":1}',
      '[{"qty":nul}]',
      '[{"qty":truex}]',
      '[null]',
      '[1]',
      '{"qty":1}',
      '[{"nested":{"qty":1}}]',
      '[{"list":[1]}]',
      '[{"type":"say \\"hi\\""}]',
      '[{"ty\\u0070e":"in"}]',
      '',
      '[',
    ]) {
      expect(transferCells(json, []), json).toBe(-1);
    }
    // Declined but valid: JSON.parse reads them, and the escape is decoded.
    expect(cells('[{"ty\\u0070e":"in","symbol":"say \\"hi\\""}]').parsed).toEqual(['in,"say ""hi""",,']);
  });
});

describe('a JSON number is its own cell only when that is provably plainDecimal of its double', () => {
  it('for every double JSON.stringify writes', () => {
    const next = random(7);
    for (let k = 0; k < 50_000; k++) {
      const d = k % 2 ? anyDouble(next) : usualDouble(next);
      expect(numberCell(JSON.stringify(d))).toBe(plainDecimal(d));
    }
    for (const d of [0, -0, 1, -1, 0.1, 0.1 + 0.2, 1e21, 1e-7, 1.5e-7, 2 ** 53, Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE, 123456789.12345679])
      expect(numberCell(JSON.stringify(d))).toBe(plainDecimal(d));
  });

  it('for number text another writer might have stored', () => {
    for (const raw of [
      '1.50',
      '0.10000000000000001',
      '1E5',
      '1e+21',
      '-0',
      '-0.0',
      '0.0',
      '1e400',
      '-1e400',
      '1e-400',
      '100000000000000000000000',
      '0.000000000000000000000000000001',
      '123456789012345',
      '1234567890123456',
      '12345678901234567890',
      '9007199254740993',
      '0.3',
      '0.30000000000000004',
    ]) {
      expect(numberCell(raw), raw).toBe(csvCell(Number(raw)));
    }
  });
});

describe('csvNumber, the number cell of every CSV export', () => {
  it('is plainDecimal of the number, for a million doubles of every kind', () => {
    const next = random(3);
    const check = (v: number) => {
      if (csvNumber(v) !== (Number.isFinite(v) ? plainDecimal(v) : '')) expect(csvNumber(v), String(v)).toBe(plainDecimal(v));
    };
    for (let k = 0; k < 1_000_000; k++) {
      const r = k % 4;
      if (r === 0) check(anyDouble(next));
      else if (r === 1) check(usualDouble(next));
      // At most 9 decimals, the short way's own ground, and its edges.
      else if (r === 2) check(Number(((next() - 0.5) * 10 ** Math.floor(next() * 8)).toFixed(Math.floor(next() * 10))));
      else check(Math.round((next() - 0.5) * 2e15) / 1e9);
    }
    for (const v of [
      0,
      -0,
      0.1,
      0.1 + 0.2,
      -5.5,
      1e-9,
      1e-10,
      999999.999999999,
      1e21,
      -1e21,
      2 ** 53,
      1e20 + 0.5,
      5e-324,
      Number.MAX_VALUE,
      0.000000001,
      123456.123456789,
    ])
      expect(csvNumber(v), String(v)).toBe(plainDecimal(v));
    expect([csvNumber(Number.NaN), csvNumber(Infinity), csvNumber(-Infinity)]).toEqual(['', '', '']);
  });
});
