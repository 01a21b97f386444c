import type { Core } from '../../src/main/core/app.ts';
import type { JobInfo } from '../../src/shared/model.ts';

/**
 * The one way tests wait for jobs: `sync.jobs` polled every 20 ms. Not `sync.progress` events:
 * a listener added after a job has ended (a fast job, a coalesced one) never hears it, and
 * waits until the test times out.
 *
 *   await waitForJobs(core, [await core.call('sync.positions', { wallet })]); // a job it started
 *   const [job] = await waitForJobs(core, [id], { failed: 'return' });        // a failure to read
 *   await waitForJobs(core);                                                  // every job listed
 *   await waitForJobs(() => shell.call('sync.jobs'), [job]);                  // over a shell's API
 */

/** Where the job list is read: a core (through the contract), or a function that asks a shell for `sync.jobs`. */
export type JobSource = Core | (() => Promise<readonly JobInfo[]>);

/** Which jobs: those a test started (or their ids), or those of the list a predicate picks. */
export type JobChoice = ReadonlyArray<string | { id: string }> | ((job: JobInfo) => boolean);

export interface WaitForJobsOptions {
  /** Milliseconds until it gives up (default 120 s: a loaded two-core machine is slow). */
  timeout?: number;
  /**
   * A job that failed or was cancelled throws, as its result would (default); `'return'` hands it
   * back like a done one, for the tests that read its error.
   */
  failed?: 'throw' | 'return';
}

/**
 * Waits until the jobs chosen (default: every job listed) have finished, and returns them in the
 * list's order. A job asked for by id must be listed and finished: one the list no longer holds
 * (pruned) is waited for until the timeout, whose error names it.
 */
export async function waitForJobs(source: JobSource, which: JobChoice = () => true, options: WaitForJobsOptions = {}): Promise<JobInfo[]> {
  const list = typeof source === 'function' ? source : () => source.request('sync.jobs', undefined);
  const ids = typeof which === 'function' ? null : new Set(which.map((j) => (typeof j === 'string' ? j : j.id)));
  const picked = (jobs: readonly JobInfo[]) => (ids ? jobs.filter((j) => ids.has(j.id)) : jobs.filter(which as (job: JobInfo) => boolean));
  const until = Date.now() + (options.timeout ?? 120_000);
  let last: JobInfo[] = [];
  for (;;) {
    last = picked(await list());
    if ((!ids || last.length === ids.size) && last.every((j) => j.finishedAt)) break;
    if (Date.now() >= until) {
      const waiting = ids ? [...ids].filter((id) => !last.some((j) => j.id === id && j.finishedAt)) : last.filter((j) => !j.finishedAt).map((j) => j.id);
      throw new Error(`the jobs did not finish within ${options.timeout ?? 120_000} ms: ${waiting.join(', ')}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const bad = last.find((j) => j.state !== 'done');
  if (bad && (options.failed ?? 'throw') === 'throw') throw new Error(`${bad.label}: ${bad.state}${bad.error ? ` (${bad.error.message})` : ''}`);
  return last;
}
