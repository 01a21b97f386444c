/**
 * The pages of one range read in flight: a sliding window that opens at two pages (the first,
 * and the one that may prove it the last) and doubles with every page taken, up to `max`, so a
 * short incremental read asks for two pages while a long one reaches the full window after two.
 * Pages are taken strictly in order; those requested past the last one are aborted at close.
 */
export class PageWindow<T> {
  private readonly inFlight = new Map<number, Promise<T>>();
  private readonly abandon = new AbortController();
  /** The signal each request is sent with: the caller's, and this window's close. */
  readonly signal: AbortSignal;
  private width: number;
  private nextToRequest: number;

  constructor(
    private readonly fetch: (page: number, signal: AbortSignal) => Promise<T>,
    first: number,
    private readonly max: number,
    outer?: AbortSignal,
  ) {
    this.signal = outer ? AbortSignal.any([outer, this.abandon.signal]) : this.abandon.signal;
    this.width = Math.min(2, max);
    this.nextToRequest = first;
  }

  /** Page `page` (the next in order), with the window kept full ahead of it. */
  take(page: number): Promise<T> {
    while (this.inFlight.size < this.width) {
      const p = this.fetch(this.nextToRequest, this.signal);
      p.catch(() => undefined); // awaited when taken; silence pages abandoned after a failure
      this.inFlight.set(this.nextToRequest, p);
      this.nextToRequest++;
    }
    const p = this.inFlight.get(page)!;
    this.inFlight.delete(page);
    return p;
  }

  /** A page was read whole: the window doubles, up to its maximum. */
  widen(): void {
    this.width = Math.min(this.max, this.width * 2);
  }

  /** The read is over: pages fetched beyond the last one are dropped unread. */
  close(): void {
    this.abandon.abort();
    this.inFlight.clear();
  }
}
