import { describe, expect, it } from 'vitest';
import { englishCoreSentences, germanCoreSentences, sayCoreSentences } from '../../src/shared/core-sentences.ts';

/**
 * The pack's one finding for what no cached price values (pack.ts, issue 39 Medium 15): the
 * transfers and the changes no transaction explains, each count 0 or more, said once for all the
 * tokens (a fund's month had a line per token: hundreds). The core writes it in English
 * (`englishCoreSentences`, the CLI and the CSV); a German screen or PDF finds it and says it again:
 * every variant must be found, or the German page shows it in English.
 */
const english = englishCoreSentences(String);
const german = germanCoreSentences(String);
const date = (iso: string) => iso;

describe('the finding of the tokens no cached price values', () => {
  const cases: Array<[tokens: number, named: string, more: number, transfers: number, changes: number]> = [
    [1, 'ZKJ (matic)', 0, 1, 0],
    [48, 'SOLV2 (arb), ORBT (op), ZKJ (eth), NXRA (arb), SOLV2 (op)', 43, 510, 0],
    [2, 'KIRA (arb), PNDX (base)', 0, 0, 1],
    [48, 'SOLV2 (arb), ORBT (op), ZKJ (eth), NXRA (arb), SOLV2 (op)', 43, 510, 392],
    [1, 'USDC (eth)', 0, 1, 1],
  ];
  it.each(cases)('%i tokens (%s, %i more): %i transfers, %i changes, in English and found again in German', (tokens, named, more, transfers, changes) => {
    const text = english.noPrice(tokens, named, more, transfers, changes);
    expect(text).toMatch(/^No cached price in the period for /);
    if (transfers) expect(text).toContain(`${transfers} transfer`);
    else expect(text).not.toContain('transfer');
    if (changes) expect(text).toContain(`${changes} change`);
    else expect(text).not.toContain('change');
    expect(sayCoreSentences(text, english, date)).toBe(text);
    const said = sayCoreSentences(text, german, date);
    expect(said).toBe(german.noPrice(tokens, named, more, transfers, changes));
    expect(said).not.toMatch(/No cached|transfer|change|not valued/);
  });
});
