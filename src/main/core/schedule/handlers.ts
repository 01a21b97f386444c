/** The operations of sync schedules: list (with each one's next slot), save, remove, run the due ones now. */
import type { Handlers, ScopeContext } from '../handlers.ts';
import type { WritableDB } from '../store/db.ts';
import { removeSchedule, saveSchedule, schedulesWithVersions } from './store/schedules.ts';
import { withNextSlot } from './runner.ts';
import type { Scheduler } from './scheduler.ts';

export interface ScheduleContext extends ScopeContext {
  writable(): WritableDB;
  scheduler: Scheduler;
}

type ScheduleOperations = 'schedules.list' | 'schedules.save' | 'schedules.remove' | 'schedules.runDue';

export function scheduleHandlers(c: ScheduleContext): Pick<Handlers, ScheduleOperations> {
  return {
    'schedules.list': () => schedulesWithVersions(c.db()).map((x) => withNextSlot(x)),
    'schedules.save': (input) => {
      const saved = saveSchedule(c.writable(), { ...input, scope: c.storedScope(input.scope) });
      return withNextSlot(schedulesWithVersions(c.db()).find((s) => s.id === saved.id) ?? saved);
    },
    'schedules.remove': ({ id, expectedVersion }) => removeSchedule(c.writable(), id, expectedVersion),
    'schedules.runDue': () => c.scheduler.runDue(),
  };
}
