/**
 * The jobs capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { JobQueue } from './queue.ts';
export type { Job, JobContext } from './queue.ts';
