/**
 * The schedule capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { leaseHolder, runDueSchedules, withNextSlot } from './runner.ts';
export { describeCadence } from './slots.ts';
export { scheduleHandlers } from './handlers.ts';
export { Scheduler } from './scheduler.ts';
export { listSchedules, saveSchedule } from './store/schedules.ts';
