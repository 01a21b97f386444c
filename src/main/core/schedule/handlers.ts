/** The operations of sync schedules: list (with each one's next slot), save, remove, run the due ones now. */
import type { Handlers, ScopeContext } from '../handlers.ts';
import type { WritableDB } from '../store/db.ts';
import { listSchedules, removeSchedule, saveSchedule } from './store/schedules.ts';
import { withNextSlot } from './runner.ts';
import type { Scheduler } from './scheduler.ts';

export interface ScheduleContext extends ScopeContext {
  writable(): WritableDB;
  scheduler: Scheduler;
}

type ScheduleOperations = 'schedules.list' | 'schedules.save' | 'schedules.remove' | 'schedules.runDue';

export function scheduleHandlers(c: ScheduleContext): Pick<Handlers, ScheduleOperations> {
  return {
    'schedules.list': () => listSchedules(c.db()).map((x) => withNextSlot(x)),
    'schedules.save': (input) => withNextSlot(saveSchedule(c.writable(), { ...input, scope: c.storedScope(input.scope) })),
    'schedules.remove': ({ id }) => removeSchedule(c.writable(), id),
    'schedules.runDue': () => c.scheduler.runDue(),
  };
}
