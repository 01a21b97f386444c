import { afterEach, describe, expect, it } from 'vitest';
import { syncRateText } from '../../src/shared/progress-text.ts';
import { sizeText } from '../../src/main/cli/progress.ts';
import { compactUnit, decimal, fileSize, integer, pct, ratio, setLocale, share, tickLabels, usd } from '../../src/renderer/src/lib/format.ts';
import { words } from '../../src/renderer/src/lib/words.ts';

/** Intl separates a number from "%" and "$" with no-break spaces; the assertions read plain ones. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

afterEach(() => setLocale(null));

describe('one notation: ratios and percentages follow the locale', () => {
  it('writes a ratio with the digits a column needs, in the locale', () => {
    setLocale('de-DE');
    expect(ratio(2.201, 4)).toBe('2,2010');
    expect(ratio(0.825)).toBe('0,825');
    expect(ratio(2.2969, 3)).toBe('2,297');
    expect(ratio(null, 4)).toBe('—');
    setLocale('en-US');
    expect(ratio(2.201, 4)).toBe('2.2010');
    expect(ratio(1234.5, 1)).toBe('1,234.5');
  });

  it('writes shares and percentages in the locale ("44,9 %", "44.9%")', () => {
    setLocale('de-DE');
    expect(plain(share(0.449))).toBe('44,9 %');
    expect(plain(share(0.2, 1))).toBe('20,0 %');
    expect(plain(pct(25, 0))).toBe('25 %');
    expect(plain(pct(12.3456))).toBe('12,35 %');
    setLocale('en-US');
    expect(share(0.449)).toBe('44.9%');
    expect(pct(25, 0)).toBe('25%');
  });

  it('never shows a share that is not zero as 0 %, nor one that is not the whole as 100 %', () => {
    setLocale('de-DE');
    expect(plain(share(0.0004))).toBe('<0,1 %');
    expect(plain(share(0.00049))).toBe('<0,1 %');
    expect(plain(share(0.0005))).toBe('0,1 %');
    expect(plain(share(0))).toBe('0,0 %');
    expect(plain(share(0.9996))).toBe('>99,9 %');
    expect(plain(share(1))).toBe('100,0 %');
    expect(plain(share(-0.0001))).toBe('>-0,1 %');
    expect(plain(pct(0.00001, 4))).toBe('<0,0001 %');
    expect(plain(pct(99.99, 1))).toBe('>99,9 %');
    setLocale('en-US');
    expect(share(0.0004)).toBe('<0.1%');
    expect(pct(0.2, 0)).toBe('<1%');
  });

  it('counts in sentences are grouped as the locale groups them', () => {
    setLocale('de-DE');
    expect(words.overview.cachedRange(12345, 'a', 'b')).toBe('12.345 cached dates from a to b');
    expect(words.risk.nearMisses(54, 0, ratio(1.15), '')).toBe('54 cached dates; no near-miss (health stayed above 1,15).');
    expect(plain(words.risk.crossing(pct(25, 0), 'WETH', integer(2), false, usd(1234.5)))).toBe(
      'A 25 % fall in WETH reaches the threshold of 2 loans worth 1.234,50 $',
    );
    setLocale('en-US');
    expect(words.overview.cachedRange(12345, 'a', 'b')).toBe('12,345 cached dates from a to b');
  });

  it("a sync's pages and rate use the count it is given: the locale in the app, English in the CLI", () => {
    setLocale('de-DE');
    expect(syncRateText({ pages: 1200, rate: 81234.4, etaSeconds: 95 }, integer)).toBe('1.200 pages · 81.234/s · about 2 min left');
    expect(syncRateText({ pages: 1200, rate: 81234.4, etaSeconds: 95 })).toBe('1,200 pages · 81,234/s · about 2 min left');
  });
});

describe("a conversion's sizes", () => {
  it("writes a part in its whole's unit, in the locale, on a screen and a terminal alike", () => {
    setLocale('de-DE');
    expect(plain(fileSize(2_400_000_000))).toBe('2,4 GB');
    expect(plain(fileSize(600_000_000, 2_400_000_000))).toBe('0,6 GB');
    expect(plain(fileSize(0, 761_000_000))).toBe('0 MB');
    expect(plain(fileSize(812_000))).toBe('812 kB');
    setLocale('en-US');
    expect(plain(fileSize(1_425_408))).toBe('1.4 MB');
    expect(plain(fileSize(0, 1_425_408))).toBe('0.0 MB');
    expect(plain(fileSize(999))).toBe('999 byte');
    expect([sizeText(2_400_000_000), sizeText(600_000_000, 2_400_000_000), sizeText(0, 761_000_000), sizeText(999)]).toEqual([
      '2.4 GB',
      '0.6 GB',
      '0 MB',
      '999 B',
    ]);
  });
});

describe('axis ticks', () => {
  const money = (values: number[]) =>
    tickLabels(values, (v, min, max) => usd(v, { compact: true, digits: [min, max] }), new Set(values.map(compactUnit)).size === 1).map(plain);
  const ratios = (values: number[]) => tickLabels(values, (v, min, max) => decimal(v, min, max), true);

  it('never repeat a label on a narrow range: the precision follows the step', () => {
    setLocale('en-US');
    // What a 30-day range of a $4M portfolio gave: "$4.1M, $4.1M, $4M".
    expect(money([4_000_000, 4_050_000, 4_100_000, 4_150_000])).toEqual(['$4.00M', '$4.05M', '$4.10M', '$4.15M']);
    expect(money([3_900_000, 4_000_000, 4_100_000])).toEqual(['$3.9M', '$4.0M', '$4.1M']);
    expect(money([4_100_000, 4_100_500, 4_101_000])).toEqual(['$4.1000M', '$4.1005M', '$4.1010M']);
    setLocale('de-DE');
    expect(money([3_080_000, 3_100_000, 3_120_000])).toEqual(['3,08 Mio. $', '3,10 Mio. $', '3,12 Mio. $']);
  });

  it('keep whole labels whole, and do not pad labels of different units', () => {
    setLocale('en-US');
    expect(money([0, 1000, 2000, 3000])).toEqual(['$0', '$1K', '$2K', '$3K']);
    expect(money([0, 500, 1000, 1500])).toEqual(['$0', '$500', '$1K', '$1.5K']);
    setLocale('de-DE');
    expect(money([0, 2000, 4000])).toEqual(['0 $', '2000 $', '4000 $']);
    expect(money([950_000, 1_000_000, 1_050_000])).toEqual(['950.000 $', '1 Mio. $', '1,05 Mio. $']);
  });

  it('label ratios with the same decimals, exact and distinct', () => {
    setLocale('de-DE');
    expect(ratios([1, 1.5, 2, 2.5])).toEqual(['1,0', '1,5', '2,0', '2,5']);
    expect(ratios([0.1 + 0.2, 0.4, 0.5])).toEqual(['0,3', '0,4', '0,5']);
    expect(ratios([1, 1.05, 1.1])).toEqual(['1,00', '1,05', '1,10']);
    setLocale('en-US');
    expect(ratios([1, 2, 3])).toEqual(['1', '2', '3']);
    for (const step of [0.001, 0.02, 0.25, 5, 1000]) {
      const values = Array.from({ length: 7 }, (_, i) => 1 + i * step);
      expect(new Set(ratios(values)).size).toBe(values.length);
    }
  });
});
