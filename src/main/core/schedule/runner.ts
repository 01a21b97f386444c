/**
 * Runs the schedules whose slot has come: each once however many slots were missed, all
 * under one lease so two processes on one cache (the app and a cron `folioscope watch`)
 * never run them at once. The jobs are the ordinary sync jobs (the queue coalesces a
 * schedule's job with an identical one already queued), awaited to their end.
 */
import { randomBytes } from 'node:crypto';
import type { WritableDB } from '../store/db.ts';
import { listSchedules, recordScheduleRun, releaseScheduleLease, takeScheduleLease, type StoredSchedule } from './store/schedules.ts';
import { walletsInScope } from '../store/scope.ts';
import type { SyncEngine } from '../sync/index.ts';
import { dueSlot, nextSlot, type Zone } from './slots.ts';
import type { DueRuns, JobInfo, Schedule, ScheduleRun } from '../../../shared/model.ts';

/** How long a lease lasts unless renewed; renewed every third of it while a run goes on. */
export const LEASE_MS = 3 * 60_000;

export interface ScheduleDeps {
  db: WritableDB;
  engine: SyncEngine;
  /** Who runs: names the process in the message another one gets while it holds the lease. */
  holder: string;
  now?: () => number;
}

export function leaseHolder(shell: string): string {
  return `${shell} (pid ${process.pid}, ${randomBytes(4).toString('hex')})`;
}

/** A stored schedule as shown: with the slot it runs next (the one due now, if one is; else the next to come). */
export function withNextSlot(s: StoredSchedule, nowMs = Date.now()): Schedule {
  const zone: Zone = s.zone;
  const due = dueSlot(s.cadence, { nowMs, zone, createdMs: Date.parse(s.createdAt), lastSlotMs: s.lastSlot ? Date.parse(s.lastSlot) : null });
  return { ...s, nextSlot: new Date(due ?? nextSlot(s.cadence, nowMs, zone)).toISOString() };
}

/** The wallets a schedule covers now, or why it cannot run (its wallet or group is gone, or holds none). */
function walletsOf(db: WritableDB, s: StoredSchedule): string[] | string {
  const wallets = walletsInScope(db, s.scope);
  if (typeof wallets === 'string') return wallets;
  if (wallets.length) return wallets.map((w) => w.address);
  return s.scope.kind === 'group' ? `wallet group ${s.scope.id} has no wallets` : 'no wallets are watched';
}

function judge(jobs: JobInfo[]): { state: ScheduleRun['state']; note: string } {
  const failed = jobs.filter((j) => j.state !== 'done');
  const incomplete = jobs.filter((j) => j.state === 'done' && j.completeness && j.completeness.state !== 'complete');
  const lines = [
    ...failed.map((j) => `${j.label}: ${j.state === 'failed' ? (j.error?.message ?? 'failed') : j.state}`),
    ...incomplete.map((j) => `${j.label}: incomplete (${j.completeness!.reasons.join('; ')})`),
  ];
  const state = failed.length ? 'failed' : incomplete.length ? 'incomplete' : 'ok';
  const head = `${jobs.length} job${jobs.length === 1 ? '' : 's'}: ${jobs.length - failed.length - incomplete.length} ok${incomplete.length ? `, ${incomplete.length} incomplete` : ''}${failed.length ? `, ${failed.length} failed` : ''}`;
  return { state, note: [head, ...lines].join('\n') };
}

export async function runDueSchedules(d: ScheduleDeps): Promise<DueRuns> {
  const now = d.now ?? Date.now;
  const dueNow = () =>
    listSchedules(d.db).flatMap((s) => {
      const slot = dueSlot(s.cadence, {
        nowMs: now(),
        zone: s.zone,
        createdMs: Date.parse(s.createdAt),
        lastSlotMs: s.lastSlot ? Date.parse(s.lastSlot) : null,
      });
      return slot === null ? [] : [{ s, slot: new Date(slot).toISOString() }];
    });
  if (!dueNow().length) return { runs: [], skipped: null };
  const lease = takeScheduleLease(d.db, d.holder, now(), now() + LEASE_MS);
  if (!lease.granted) {
    return { runs: [], skipped: `another Folioscope (${lease.heldBy}) is running the schedules; its lease ends by ${new Date(lease.untilMs!).toISOString()}` };
  }
  const renew = setInterval(() => {
    try {
      takeScheduleLease(d.db, d.holder, now(), now() + LEASE_MS);
    } catch {
      // A renewal that fails (a busy cache) is tried again; the lease is long enough to wait.
    }
  }, LEASE_MS / 3);
  try {
    // Read again under the lease: the process that held it a moment ago may have run them.
    const due = dueNow();
    const started = due.map(({ s, slot }) => {
      const startedAt = new Date(now()).toISOString();
      const wallets = walletsOf(d.db, s);
      if (typeof wallets === 'string') return { s, slot, startedAt, jobs: [], problem: wallets };
      const jobs = wallets.flatMap((w) => [
        ...(s.what !== 'transactions' ? [d.engine.syncPositions(w)] : []),
        ...(s.what !== 'positions' ? [d.engine.syncTransactions(w)] : []),
      ]);
      return { s, slot, startedAt, jobs, problem: null };
    });
    const runs: ScheduleRun[] = [];
    for (const r of started) {
      await Promise.allSettled(r.jobs.map((j) => j.result));
      // The queue stamps a job's end just after its result settles.
      await new Promise((resolve) => setImmediate(resolve));
      const jobs = r.jobs.map((j) => ({ ...j.info }));
      const finishedAt = new Date(now()).toISOString();
      if (r.problem) {
        const run = { startedAt: r.startedAt, finishedAt, state: 'failed' as const, note: `Not run: ${r.problem}. Change or remove the schedule.` };
        recordScheduleRun(d.db, r.s.id, r.slot, run);
        runs.push({ schedule: r.s.id, slot: r.slot, jobs, ...run });
        continue;
      }
      const verdict = judge(jobs);
      const run = { startedAt: r.startedAt, finishedAt, ...verdict };
      // A run stopped by a shutdown is not recorded: its slot is still due at the next start.
      if (!jobs.some((j) => j.state === 'cancelled')) recordScheduleRun(d.db, r.s.id, r.slot, run);
      runs.push({ schedule: r.s.id, slot: r.slot, jobs, ...run });
    }
    return { runs, skipped: null };
  } finally {
    clearInterval(renew);
    try {
      releaseScheduleLease(d.db, d.holder);
    } catch {
      // Closed or busy: the lease runs out by itself.
    }
  }
}
