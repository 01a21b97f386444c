/**
 * The one request budget every call to a service shares (syncs, backfills, logs, the service
 * check): at most `limit` requests in flight, sent no faster than the pace the service has
 * shown it accepts, and fairly across lanes (a lane is a wallet), so a whale's pages do not
 * queue ahead of every small wallet's.
 *
 * The pace is learned, not configured: no pace at all until the service refuses a request
 * for its rate (a 429, or a 503, which gateways use the same way), then additive increase,
 * multiplicative decrease, the scheme TCP uses to find a link's capacity without being told
 * it:
 * - a refusal sets the pace to a share of what the service served in the last second (its
 *   quota as it stands), or lowers it by that share when the pace was already lower; refusals
 *   of requests sent before that cut, or within a second after it (the refusing window is
 *   still full), are the same overload, not new evidence;
 * - each request served while others wait raises the pace by about one request per second
 *   each second, and by a tenth of that near the pace last refused, so the pace climbs back
 *   quickly and then probes the quota gently (a probe that fails costs a refusal and any
 *   Retry-After hold);
 * - a Retry-After holds every send until the time it names;
 * - a service that refuses everything (refusal after refusal, nothing served between) is asked
 *   ever more slowly, one request at a time: each wave of refusals pauses every send twice as
 *   long as the last (capped), however short a wait each answer asks for, since a Retry-After
 *   that is always too short would otherwise be honoured for ever; the first request served
 *   ends the pause. Listeners hear each pause (a job says it is waiting). When the refusals have
 *   lasted too long (the caller's policy), the caller gives up: requests then fail without being
 *   sent for as long again, so the work under way ends instead of asking on.
 * Requests are spaced evenly at the pace (no bursts after a pause), since a quota counted
 * over a rolling second refuses a burst that an average allows. A send the process could not
 * make on time (its event loop busy parsing and writing a page) keeps its slot, up to half an
 * interval late: the next one is due an interval after the slot, not after the late send, or
 * every late wake-up would lower the pace actually sent below the pace (at 20/s with the loop
 * ~25 ms late on average, strict spacing sent 13/s). Never more than half an interval is made
 * up, so no burst follows a pause.
 */

/** Share of the refused pace that is kept (multiplicative decrease). */
const DECREASE = 0.9;
/** Requests per second added per second while the pace binds (additive increase)... */
const INCREASE_PER_SECOND = 1;
/** ...and near the pace last refused, where a probe costs a refusal (and any Retry-After hold). */
const PROBE_PER_SECOND = 0.1;
/** "Near": above this share of the pace last refused. */
const NEAR = 0.95;
/** Refusals of requests sent within this long after a cut are the same overload (see refused). */
const REACT_MS = 1000;
/** The pause after the second refusal in a row (the first waits only what the service asks)... */
const BACKOFF_BASE_MS = 1000;
/** ...doubled with each refusal after it, up to this. */
export const BACKOFF_MAX_MS = 60_000;
/** The pace never drops below this: one request every ten seconds still finishes a job. */
export const MIN_RATE = 0.1;
/** How late a send may be, in intervals at the pace, and still keep its slot (see the top). */
const CATCH_UP = 0.5;

export interface PacerOptions {
  /** Requests in flight at once. */
  concurrency: number;
  /** A pace learned before (requests per second), or none. */
  rate?: number | null;
  now?: () => number;
  /** Told when the pace changes after a refusal (to remember it per service). */
  onRateChange?: (rate: number | null) => void;
  /** Runs `fn` in `ms` and returns what cancels it (setTimeout by default; a test's clock may jump ahead instead). */
  setTimer?: (fn: () => void, ms: number) => () => void;
}

export interface PacerState {
  /** Requests per second, or null while the service has refused nothing. */
  rate: number | null;
  /** Whether requests are waiting for the pace (or a Retry-After), not for a free slot. */
  waitingForPace: boolean;
  /** Until when a Retry-After, or the pause of refusals in a row, holds every send (ms since the epoch), or null. */
  holdUntil: number | null;
  /** Requests waiting to be sent. */
  queued: number;
}

type Waiter = () => void;

export class RequestPacer {
  readonly limit: number;
  private running = 0;
  private rateNow: number | null;
  /** The earliest moment the next request may be sent at the pace. */
  private nextAt = 0;
  private holdUntil = 0;
  /** Until when the refusals in a row pause every send (a request served ends it; a Retry-After's hold stays). */
  private pauseUntil = 0;
  /** When the pace was last lowered: a refusal of a request sent before it is already answered. */
  private loweredAt = -Infinity;
  /** The pace at the last refusal, before it was lowered (where probing slows down). */
  private refusedAt = 0;
  private readonly lanes = new Map<string, Waiter[]>();
  /** Lanes in turn order (round robin); a lane leaves when it has no one waiting. */
  private readonly turn: string[] = [];
  private queuedCount = 0;
  /** Times requests were answered, not refused for the rate, in the last second (to read the service's quota). */
  private readonly servedTimes: number[] = [];
  /** When each request in flight was sent: those sent before a refused one met the window before it filled. */
  private readonly inFlightSent: number[] = [];
  private timer: (() => void) | null = null;
  private timerAt = 0;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => () => void;
  /** Waves of refusals since a request was last served (a wave: refusals of requests sent before the last one counted). */
  private refusedInARow = 0;
  /** When the first of those refusals came; null while the service serves. */
  private refusingSince: number | null = null;
  /** When the last wave was counted: a refusal of a request sent before it belongs to that wave. */
  private waveAt = -Infinity;
  /** Until when requests fail without being sent, once the caller gave up (see giveUp). */
  private givenUpUntil = 0;
  private readonly pauseListeners = new Set<(waitMs: number) => void>();

  constructor(private readonly o: PacerOptions) {
    if (!Number.isInteger(o.concurrency) || o.concurrency < 1) throw new RangeError('concurrency limit must be a positive integer');
    this.limit = o.concurrency;
    this.rateNow = o.rate && Number.isFinite(o.rate) && o.rate > 0 ? Math.max(MIN_RATE, o.rate) : null;
    this.now = o.now ?? Date.now;
    this.setTimer =
      o.setTimer ??
      ((fn, ms) => {
        const t = setTimeout(fn, ms);
        return () => clearTimeout(t);
      });
  }

  /**
   * Runs `task` once a slot is free and the pace allows, in `lane`'s turn. `task` is given the
   * moment it was sent, which `refused` takes back.
   */
  async run<T>(task: (sentAt: number) => Promise<T>, lane = '', signal?: AbortSignal): Promise<T> {
    const sentAt = await this.acquire(lane, signal);
    this.inFlightSent.push(sentAt);
    try {
      return await task(sentAt);
    } finally {
      this.inFlightSent.splice(this.inFlightSent.indexOf(sentAt), 1);
      this.running--;
      this.pump();
    }
  }

  /** The service answered a request as served. */
  served(): void {
    const at = this.now();
    this.refusedInARow = 0;
    this.refusingSince = null;
    this.givenUpUntil = 0;
    this.pauseUntil = 0;
    this.servedTimes.push(at);
    while (this.servedTimes.length && this.servedTimes[0]! <= at - 1000) this.servedTimes.shift();
    // The pace rises only while it binds (someone waits for it): an idle pace stays as learned.
    if (this.rateNow !== null && this.queuedCount > 0) {
      const step = this.rateNow < this.refusedAt * NEAR ? INCREASE_PER_SECOND : PROBE_PER_SECOND;
      this.rateNow += step / this.rateNow;
    }
  }

  /**
   * The service answered a request with an error that is not about its rate (a 400, a 500): it
   * let the request through its quota, which the quota read at the next refusal counts.
   */
  letThrough(): void {
    this.servedTimes.push(this.now());
  }

  /** The service refused a request sent at `sentAt` for its rate; `retryAfterMs` when it said how long. */
  refused(sentAt: number, retryAfterMs: number | null): void {
    const at = this.now();
    if (retryAfterMs !== null && retryAfterMs > 0) this.holdUntil = Math.max(this.holdUntil, at + retryAfterMs);
    this.refusingSince ??= at;
    // Requests in flight together are refused together: one wave, counted once.
    if (sentAt >= this.waveAt) {
      this.refusedInARow++;
      this.waveAt = at;
      const pause = this.refusedInARow < 2 ? 0 : Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (this.refusedInARow - 1));
      this.pauseUntil = Math.max(this.pauseUntil, at + pause);
      const waitMs = Math.max(this.holdUntil, this.pauseUntil) - at;
      if (waitMs > 0) for (const listener of this.pauseListeners) listener(waitMs);
    }
    while (this.servedTimes.length && this.servedTimes[0]! <= at - 1000) this.servedTimes.shift();
    // What the service let through in the last second: the answers back, and the requests still
    // in flight that were sent before this one (a gateway counts on arrival, so they were let in
    // before the window filled). Answers alone read the quota low by the requests in flight (17
    // for a quota of 20 at a first refusal), and the pace then probed for the quota from there,
    // a tenth of a request per second each second.
    const lastSecond = this.servedTimes.length + (this.servedTimes.length ? this.inFlightSent.filter((t) => t < sentAt).length : 0);
    // A first refusal with nothing served lately and a Retry-After says when, not how fast:
    // the hold alone answers it (a pace read from no traffic would be a guess).
    const noEvidence = this.rateNow === null && lastSecond === 0 && retryAfterMs !== null;
    // A window that refused stays full for a while (a second, for a quota over a rolling
    // second): requests sent just after a cut meet the same full window, and cutting again for
    // each would take the pace far below the quota. So at most one cut per REACT_MS of sends.
    if (sentAt >= this.loweredAt + REACT_MS && !noEvidence) {
      // Nothing served in the last second (a quota counted over a longer window): the pace alone is lowered.
      const current = this.rateNow ?? Math.max(lastSecond, 1);
      const base = lastSecond > 0 ? Math.min(current, lastSecond) : current;
      // The pace that was refused, not what was served (which lags the pace by the round trip).
      this.refusedAt = current;
      this.rateNow = Math.max(MIN_RATE, base * DECREASE);
      this.loweredAt = at;
      // The next send waits a full interval at the new pace: the window that refused must drain.
      this.nextAt = Math.max(this.nextAt, at + 1000 / this.rateNow);
      this.o.onRateChange?.(this.rateNow);
    }
    this.pump();
  }

  /** Hears each pause the refusals set (how long every send now waits); returns what stops it listening. */
  onPause(listener: (waitMs: number) => void): () => void {
    this.pauseListeners.add(listener);
    return () => this.pauseListeners.delete(listener);
  }

  /** How long the service has refused every request (since the last one it served); 0 while it serves. */
  refusingForMs(): number {
    return this.refusingSince === null ? 0 : this.now() - this.refusingSince;
  }

  /**
   * The caller stops asking a service that has refused everything for too long: for `forMs`,
   * requests fail without being sent (`givenUp`), and those waiting for the pause go now to
   * fail. After it, one request asks again; served, everything is as before.
   */
  giveUp(forMs: number): void {
    this.givenUpUntil = this.now() + forMs;
    this.holdUntil = 0;
    this.pauseUntil = 0;
    this.nextAt = 0;
    this.pump();
  }

  /** Whether requests fail without being sent (see giveUp). */
  get givenUp(): boolean {
    return this.now() < this.givenUpUntil;
  }

  /** How long a request queued now waits for the pace or a Retry-After (not for a free slot). */
  waitMs(): number {
    const start = Math.max(this.holdUntil, this.pauseUntil, this.rateNow === null ? 0 : this.nextAt);
    return Math.max(0, Math.round(start - this.now()));
  }

  get active(): number {
    return this.running;
  }

  get state(): PacerState {
    const at = this.now();
    const hold = Math.max(this.holdUntil, this.pauseUntil);
    const start = Math.max(this.nextAt, hold);
    return {
      rate: this.rateNow,
      waitingForPace: this.queuedCount > 0 && this.running < this.limit && start > at,
      holdUntil: hold > at ? hold : null,
      queued: this.queuedCount,
    };
  }

  /** Waits for a slot in `lane`'s turn; a request cancelled while it waits leaves the queue (its reason thrown). */
  private acquire(lane: string, signal?: AbortSignal): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      let waiters = this.lanes.get(lane);
      if (!waiters) {
        waiters = [];
        this.lanes.set(lane, waiters);
        this.turn.push(lane);
      }
      const onAbort = () => {
        const list = this.lanes.get(lane);
        const i = list ? list.indexOf(waiter) : -1;
        if (i < 0) return;
        list!.splice(i, 1);
        this.queuedCount--;
        if (!list!.length) {
          this.lanes.delete(lane);
          this.turn.splice(this.turn.indexOf(lane), 1);
        }
        reject(signal!.reason);
      };
      const waiter = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.now());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiters.push(waiter);
      this.queuedCount++;
      this.pump();
    });
  }

  private pump(): void {
    // While everything is refused, one request at a time asks (a probe), not every slot.
    while (this.queuedCount > 0 && this.running < (this.refusedInARow > 0 && !this.givenUp ? 1 : this.limit)) {
      const at = this.now();
      const start = this.givenUp ? 0 : Math.max(this.holdUntil, this.pauseUntil, this.rateNow === null ? 0 : this.nextAt);
      if (start > at) return this.wake(start - at);
      const lane = this.turn.shift()!;
      const waiters = this.lanes.get(lane)!;
      const next = waiters.shift()!;
      if (waiters.length) this.turn.push(lane);
      else this.lanes.delete(lane);
      this.queuedCount--;
      this.running++;
      if (this.rateNow !== null) this.nextAt = Math.max(this.nextAt, at - (CATCH_UP * 1000) / this.rateNow) + 1000 / this.rateNow;
      next();
    }
  }

  /** One timer for the next send; it holds the process open, since a caller waits on it. */
  private wake(inMs: number): void {
    // A timer fires after at most ~24.8 days (2^31 - 1 ms); a longer delay would fire at once,
    // again and again. The pump looks again when it fires and waits on.
    inMs = Math.min(inMs, MAX_TIMER_MS);
    const at = this.now() + inMs;
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) this.timer();
    this.timerAt = at;
    this.timer = this.setTimer(() => {
      this.timer = null;
      this.pump();
    }, Math.ceil(inMs));
  }
}

const MAX_TIMER_MS = 2 ** 31 - 1;
