/**
 * The audit capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { auditHandlers } from './handlers.ts';
export { countEdits, editors, iterateEdits, listEdits, scrubSecretEdits } from './store/trail.ts';
export type { AuditQuery } from './store/trail.ts';
