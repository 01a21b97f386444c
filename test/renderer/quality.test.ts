import { describe, expect, it } from 'vitest';
import type { PositionsResult } from '../../src/shared/contract.ts';
import { positionRows, totals } from '../../src/shared/portfolio/rows.ts';
import { invalidNote, resultsQuality } from '../../src/shared/quality.ts';
import { positionSnapshot } from '../../src/shared/service/schemas.ts';
import { parseEnvelope } from '../../src/main/core/service/client.ts';

/** The views' data-quality logic: a position with an unreadable member, as parsed from a body. */
const body = JSON.stringify({
  status: 'OK',
  message: 'Get Positions (ID: 01) succeed.',
  data: [
    {
      wallet_id: '0xabc',
      date: '2025-06-01T00:00:00Z',
      positions: [
        { name: 'Good', principal_nav: 100.1, reward_nav: 0.2, underlying: [] },
        { name: 'Broken', principal_nav: 'NaN', reward_nav: 5, underlying: [] },
      ],
    },
  ],
});
const parsed = parseEnvelope('allPositions', positionSnapshot, body, 'http://x/', '2025-06-05T00:00:00.000Z', 1);
const snapshot = {
  id: 1,
  endpoint: 'allPositions',
  wallet: '0xabc',
  chain: 'eth',
  requestedDate: '2025-06-01',
  asOf: '2025-06-01',
  serviceDate: '2025-06-01T00:00:00Z',
  quality: parsed.flags!,
  requestId: '01',
  fetchedAt: '',
  sha256: '',
  data: parsed.data,
  totalNav: null,
  principalNav: null,
  rewardNav: null,
  positionCount: 2,
};
const results = [{ wallet: '0xabc', date: '2025-06-01', view: 'all', chains: [{ chain: 'eth', snapshot }] }] as unknown as PositionsResult[];

describe('data quality in the views', () => {
  it('a position with an unreadable member has no value; the totals add its known part', () => {
    const rows = positionRows(results);
    expect(rows.map((r) => [r.position.name, r.total])).toEqual([
      ['Good', 100.1 + 0.2],
      ['Broken', null],
    ]);
    const t = totals(rows);
    expect(t.principal).toBe(100.1);
    expect(t.reward).toBe(5.2);
    expect(t.total).toBe(100.1 + 5.2);
  });

  it('names the position and what was sent', () => {
    expect(resultsQuality(results)).toEqual([
      {
        wallet: '0xabc',
        chain: 'eth',
        values: 1,
        note: 'Data quality: 1 value the service sent could not be read (Broken: principal_nav = "NaN"); shown as "—" and left out of totals.',
      },
    ]);
    expect(invalidNote(['position.', parsed.data[0]!.positions[1]])).toBe('position.principal_nav unreadable ("NaN")');
    expect(invalidNote(['position.', parsed.data[0]!.positions[0]])).toBe('');
  });
});
