/**
 * Scheduled syncs in this process: the app and the web shell run them while open (checked every
 * minute); the CLI runs them when asked (`folioscope watch`). One run at a time in this process,
 * and one process at a time on a cache (the lease in runDueSchedules).
 */
import type { DueRuns } from '../../../shared/model.ts';
import type { Session } from '../session/index.ts';
import { leaseHolder, runDueSchedules } from './runner.ts';

export interface SchedulerOptions {
  shell: string;
  /** After each run (its jobs finished): the alert rules look at what it did. */
  afterRun(due: DueRuns): void;
  /** Once a run has ended, however it ended (the wallets' freshness changed). */
  ended(): void;
  /** Runs a scheduled run so that any edit it makes is recorded as a scheduled run's (store/audit.ts). */
  asScheduled<T>(run: () => T): T;
}

export class Scheduler {
  private readonly holder: string;
  private run: Promise<DueRuns> | null = null;
  /** A scheduled run's jobs are cancelled with the rest before the cache closes, then waited for. */
  readonly settles = 'stop' as const;

  constructor(
    private readonly session: Session,
    private readonly o: SchedulerOptions,
  ) {
    this.holder = leaseHolder(o.shell);
  }

  /** Runs the schedules due now (joining a run under way). */
  runDue(): Promise<DueRuns> {
    const p = this.session.profile;
    this.run ??= this.o
      .asScheduled(() => runDueSchedules({ db: p.db, engine: p.engine, holder: this.holder }))
      .then((due) => {
        this.o.afterRun(due);
        return due;
      })
      .finally(() => {
        this.run = null;
        this.o.ended();
      });
    return this.run;
  }

  running(): string | null {
    return this.run ? 'a scheduled run' : null;
  }

  async settle(): Promise<void> {
    await this.run?.catch(() => undefined);
  }

  /**
   * Stops a run under way before the core closes (not recorded: it runs at the next start), so it
   * gives its lease back while the cache is still open.
   */
  async stop(): Promise<void> {
    if (!this.run) return;
    this.session.profile.engine.queue.cancelAll();
    await this.settle();
  }
}
