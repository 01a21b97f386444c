import { CancelledError } from '../service/index.ts';
import { Emitter } from '../util/emitter.ts';
import { serializeError } from '../util/errors.ts';
import type { JobKind, JobInfo, JobTitle } from '../../../shared/model.ts';
import type { Completeness } from '../../../shared/conventions.ts';

/** Finished jobs kept for the job list (the newest). */
export const KEEP_FINISHED = 100;

/**
 * A request identical to a job that finished this recently joins it rather than fetching
 * again, where the job says it may (`joinFinished`: a dated snapshot, which a moment later is
 * the same): a burst of identical requests (double clicks, a client that retries) straddling a
 * job's end is one fetch. Short, so a deliberate "sync again" a moment later is new work; never
 * for what moves with time (the latest snapshot, new transactions).
 */
export const JOIN_FINISHED_MS = 2_000;

export interface JobContext {
  signal: AbortSignal;
  progress(
    update: { done?: number; total?: number | null; phase?: string } & Partial<Pick<JobInfo, 'rows' | 'pages' | 'rate' | 'etaSeconds' | 'restated'>>,
  ): void;
  /** Says how complete the job's result is (shown with the finished job). */
  judge(completeness: Completeness): void;
}

export interface Job<T> {
  info: JobInfo;
  result: Promise<T>;
}

export interface QueueEvents extends Record<string, unknown> {
  progress: JobInfo;
  /** A job's error as thrown (its code intact), for the owner of the cache (app.ts: noteDamage). */
  failure: unknown;
}

/**
 * One queue for the core's jobs (syncs, and the exports of reports/ and userdata/, which is
 * why it lives beside them, not in sync/): jobs run at most `concurrency` at a time, report
 * progress as events, and can be cancelled. A failed job's error is kept in its info in a form the
 * UI can show; the job's own steps are what keep the cache consistent.
 */
export class JobQueue extends Emitter<QueueEvents> {
  private readonly jobs = new Map<
    string,
    { info: JobInfo; abort: AbortController; start: () => void; reject: (e: unknown) => void; result: Promise<unknown>; key: string | null }
  >();
  private readonly waiting: string[] = [];
  private readonly settling = new Set<Promise<unknown>>();
  private running = 0;
  private seq = 0;

  constructor(private readonly concurrency = 2) {
    super();
  }

  /** The job an identical request joins: one queued or running, or (if it may be) done within JOIN_FINISHED_MS. */
  private joinable(key: string, finished: boolean): { info: JobInfo; result: Promise<unknown> } | null {
    for (const j of this.jobs.values()) {
      if (j.key !== key) continue;
      if (j.info.state === 'queued' || j.info.state === 'running') return j;
      // Only a success is joined: after a failure or a cancel, asking again means trying again.
      // Done but not yet stamped (the stamp follows in the same turn): finished just now.
      if (finished && j.info.state === 'done' && (j.info.finishedAt === null || Date.now() - Date.parse(j.info.finishedAt) <= JOIN_FINISHED_MS)) return j;
    }
    return null;
  }

  /**
   * Adds a job. With a `key` (what the job will fetch), a request identical to one already
   * queued or running, or (with `joinFinished`) done a moment ago, joins that job instead of
   * making another: 500 identical clicks are one sync, not 500 syncs writing the same snapshots.
   */
  enqueue<T>(
    kind: JobKind,
    label: string,
    run: (ctx: JobContext) => Promise<T>,
    wallet: string | null = null,
    options: { key?: string; joinFinished?: boolean; title?: JobTitle } = {},
  ): Job<T> {
    const joined = options.key === undefined ? null : this.joinable(options.key, options.joinFinished ?? false);
    if (joined) return { info: joined.info, result: joined.result as Promise<T> };
    const id = `job-${++this.seq}`;
    const abort = new AbortController();
    const info: JobInfo = {
      id,
      kind,
      label,
      ...(options.title && { title: options.title }),
      wallet,
      state: 'queued',
      phase: 'waiting',
      done: 0,
      total: null,
      error: null,
      queuedAt: new Date().toISOString(),
      finishedAt: null,
    };
    let resolve!: (v: T) => void;
    let reject!: (e: unknown) => void;
    const result = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Callers may not await the result (progress events suffice): never an unhandled rejection.
    result.catch(() => undefined);
    const start = () => {
      this.running++;
      info.state = 'running';
      info.phase = 'starting';
      this.emit('progress', { ...info });
      const ctx: JobContext = {
        signal: abort.signal,
        progress: (u) => {
          if (u.done !== undefined) info.done = u.done;
          if (u.total !== undefined) info.total = u.total;
          if (u.phase !== undefined) info.phase = u.phase;
          if (u.rows !== undefined) info.rows = u.rows;
          if (u.pages !== undefined) info.pages = u.pages;
          if (u.rate !== undefined) info.rate = u.rate;
          if (u.etaSeconds !== undefined) info.etaSeconds = u.etaSeconds;
          if (u.restated !== undefined) info.restated = u.restated;
          this.emit('progress', { ...info });
        },
        judge: (c) => {
          info.completeness = c;
        },
      };
      const running = run(ctx);
      const settled = running.then(
        () => undefined,
        () => undefined,
      );
      this.settling.add(settled);
      void settled.then(() => this.settling.delete(settled));
      running
        .then((value) => {
          info.state = 'done';
          info.phase = 'done';
          resolve(value);
        })
        .catch((err: unknown) => {
          const cancelled = abort.signal.aborted || err instanceof CancelledError;
          info.state = cancelled ? 'cancelled' : 'failed';
          info.phase = cancelled ? 'cancelled' : 'failed';
          info.error = cancelled ? null : serializeError(err);
          if (!cancelled) this.emit('failure', err);
          reject(err);
        })
        .finally(() => {
          info.finishedAt = new Date().toISOString();
          this.running--;
          this.emit('progress', { ...info });
          this.prune();
          this.next();
        });
    };
    this.jobs.set(id, { info, abort, start, reject, result, key: options.key ?? null });
    this.waiting.push(id);
    this.emit('progress', { ...info });
    this.next();
    return { info, result };
  }

  private next(): void {
    while (this.running < this.concurrency && this.waiting.length) {
      const id = this.waiting.shift()!;
      this.jobs.get(id)?.start();
    }
  }

  cancel(id: string): boolean {
    const job = this.jobs.get(id);
    if (!job || job.info.state === 'done' || job.info.state === 'failed' || job.info.state === 'cancelled') return false;
    job.abort.abort();
    const queued = this.waiting.indexOf(id);
    if (queued >= 0) {
      this.waiting.splice(queued, 1);
      job.info.state = 'cancelled';
      job.info.phase = 'cancelled';
      job.info.finishedAt = new Date().toISOString();
      this.emit('progress', { ...job.info });
      job.reject(new CancelledError(job.info.label));
      this.prune();
    }
    return true;
  }

  /** Finished jobs beyond the newest KEEP_FINISHED are forgotten, so the list cannot grow without end. */
  private prune(): void {
    const finished = [...this.jobs.values()].filter((j) => j.info.finishedAt !== null);
    for (const j of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.jobs.delete(j.info.id);
  }

  cancelAll(): void {
    for (const id of this.jobs.keys()) this.cancel(id);
  }

  /** Resolves once no job is running (after cancelAll, before closing the cache). */
  async drain(): Promise<void> {
    while (this.settling.size) await Promise.all([...this.settling]);
  }

  /** Jobs queued or running. */
  get pending(): number {
    return this.running + this.waiting.length;
  }

  list(): JobInfo[] {
    return [...this.jobs.values()].map((j) => ({ ...j.info }));
  }

  get(id: string): JobInfo | null {
    const j = this.jobs.get(id);
    return j ? { ...j.info } : null;
  }
}
