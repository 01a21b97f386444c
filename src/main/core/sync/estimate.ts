/**
 * Rate and time left of a transaction sync, from what the pages tell: rows per second since
 * the first page, and the share of the requested time range covered so far (pages come
 * newest first, so the oldest row read marks how far back the read has come).
 */
export interface SyncEstimate {
  /** Rows per second; null before a second of reading or a second page. */
  rate: number | null;
  /** Seconds left; null while there is not enough to estimate. */
  etaSeconds: number | null;
}

/** Below this share covered, an extrapolation is mostly noise. */
const MIN_SHARE = 0.02;

export class SyncEstimator {
  private readonly started: number;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.started = now();
  }

  /**
   * `rows`/`pages` read so far; the range read (Unix seconds) and the oldest row time reached.
   * A range that starts at the epoch (a first sync of all history) gives no meaningful share:
   * its history may begin at any time, so only the rate is estimated.
   */
  update(rows: number, pages: number, range: { startTime: number; endTime: number }, oldestTime: number | null): SyncEstimate {
    const seconds = (this.now() - this.started) / 1000;
    if (pages < 2 || seconds < 1) return { rate: null, etaSeconds: null };
    const rate = rows / seconds;
    const span = range.endTime - range.startTime;
    if (range.startTime <= 0 || span <= 0 || oldestTime === null) return { rate, etaSeconds: null };
    const share = Math.min(1, Math.max(0, (range.endTime - oldestTime) / span));
    if (share < MIN_SHARE) return { rate, etaSeconds: null };
    return { rate, etaSeconds: Math.max(0, (seconds * (1 - share)) / share) };
  }
}
