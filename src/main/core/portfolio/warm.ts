/**
 * The answers the screens asked last, asked again once the syncs have ended (issue 40 item 2).
 * A sync moves the counters of what the kept answers read (store/answers.ts), so the first screen
 * after a daily refresh built its view from nothing: seconds at a fund's scale, while the user
 * waited. A core that stays open (the desktop, the web shell, a team server) asks the last
 * requests again in the background as soon as no sync job is queued or running: each is a kept
 * answer already (cheap) or built now, in turns of the event loop, as a screen would build it.
 *
 * A `folioscope` command ends once its own work is done, so it does not wait on the syncs: `sync`
 * and `watch` ask the same requests themselves once their jobs end (`sync.settle` with `warm`),
 * so the app opened after a cron job's refresh finds its first screens kept.
 */
import type { ReadableDB } from '../store/handles.ts';
import { KEPT_OPERATIONS, lastRequests } from './store/answers.ts';

/** The requests asked again: a screen's scope and date (its summary and first pages) and the one before. */
export const WARMED = 8;
/** A request of another operation than those kept (in a file written by hand) is not asked. */
const ASKED = new Set<string>(KEPT_OPERATIONS);
/** How long the warmer waits after a sync ends (and between looks while syncs are still queued). */
const SETTLE_MS = 1_000;

export interface AnswerWarmer {
  /** Asks the last requests again once no sync job is queued or running (a burst of calls is one run). */
  queue(): void;
  /** The same now, without waiting for the syncs (a shell whose syncs have ended): resolves with how many were asked. */
  now(): Promise<number>;
  /** Stops the run under way and asks nothing more (the core is closing). */
  stop(): void;
}

export function answerWarmer(o: {
  /** The cache whose kept answers are asked again; null when there is none to write (read-only). */
  db: () => ReadableDB | null;
  /** Asks an operation as a screen does (its input checked by the contract); a refusal or failure is ignored. */
  ask: (op: string, input: unknown, signal: AbortSignal) => Promise<unknown>;
  /** Whether sync jobs are queued or running. */
  busy: () => boolean;
}): AnswerWarmer {
  const stopped = new AbortController();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<number> | null = null;
  let again = false;

  const run = async (): Promise<number> => {
    let requests: Array<{ op: string; input: unknown }>;
    try {
      const db = o.db();
      if (!db?.open) return 0;
      requests = lastRequests(db, WARMED);
    } catch {
      return 0; // no cache open (a switch of service), closed under it, or busy: the next sync asks again
    }
    let asked = 0;
    for (const r of requests.filter((q) => ASKED.has(q.op))) {
      // A sync started meanwhile moves the counters again: its end asks again.
      if (stopped.signal.aborted || o.busy()) break;
      try {
        await o.ask(r.op, r.input, stopped.signal);
        asked++;
      } catch {
        // A group since deleted, a cache closed: nothing to keep.
      }
    }
    return asked;
  };
  const start = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = run().finally(() => {
      running = null;
      if (again && !stopped.signal.aborted) {
        again = false;
        queue();
      }
    });
    return running;
  };
  const look = () => {
    timer = null;
    if (stopped.signal.aborted) return;
    if (o.busy()) {
      timer = setTimeout(look, SETTLE_MS);
      timer.unref?.();
      return;
    }
    void start();
  };
  const queue = () => {
    if (stopped.signal.aborted || timer) return;
    timer = setTimeout(look, SETTLE_MS);
    timer.unref?.();
  };
  return {
    queue,
    now: start,
    stop: () => {
      stopped.abort(new DOMException('The core is closing.', 'AbortError'));
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
