import { describe, expect, it } from 'vitest';
import { SyncEstimator } from '../../src/main/core/sync/estimate.ts';
import { syncRateText, timeLeftText } from '../../src/shared/progress-text.ts';

const DAY = 86_400;

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('sync progress: rate and time left', () => {
  it('gives nothing until a second page and a second of reading', () => {
    const c = clock();
    const e = new SyncEstimator(c.now);
    c.advance(500);
    expect(e.update(1000, 1, { startTime: 100 * DAY, endTime: 200 * DAY }, 190 * DAY)).toEqual({ rate: null, etaSeconds: null });
    c.advance(1500);
    expect(e.update(2000, 2, { startTime: 100 * DAY, endTime: 200 * DAY }, 180 * DAY).rate).toBe(1000);
  });

  it('estimates the time left from the share of the range the newest-first pages have covered', () => {
    const c = clock();
    const e = new SyncEstimator(c.now);
    c.advance(10_000);
    // A quarter of the range covered in 10 s: 30 s left at that pace.
    const r = e.update(5000, 5, { startTime: 100 * DAY, endTime: 200 * DAY }, 175 * DAY);
    expect(r.rate).toBe(500);
    expect(r.etaSeconds).toBeCloseTo(30, 6);
  });

  it('says it cannot tell when the range starts at the epoch (a first sync of all history) or too little is covered', () => {
    const c = clock();
    const e = new SyncEstimator(c.now);
    c.advance(5000);
    const fromEpoch = e.update(50_000, 50, { startTime: 0, endTime: 200 * DAY }, 150 * DAY);
    expect(fromEpoch.rate).toBe(10_000);
    expect(fromEpoch.etaSeconds).toBeNull();
    expect(e.update(1000, 2, { startTime: 100 * DAY, endTime: 200 * DAY }, 199.5 * DAY).etaSeconds).toBeNull();
    expect(e.update(1000, 2, { startTime: 100 * DAY, endTime: 200 * DAY }, null).etaSeconds).toBeNull();
  });

  it('reads as pages, rate and an honest time left', () => {
    expect(syncRateText({ pages: 12, rate: 8123.4, etaSeconds: 95 })).toBe('12 pages · 8,123/s · about 2 min left');
    expect(syncRateText({ pages: 3, rate: 800, etaSeconds: null })).toBe('3 pages · 800/s · time left unknown');
    expect(syncRateText({})).toBe('');
    expect(timeLeftText(3)).toBe('about 5 s left');
    expect(timeLeftText(42)).toBe('about 40 s left');
    expect(timeLeftText(2 * 3600 + 600)).toBe('about 2 h 10 min left');
  });
});
