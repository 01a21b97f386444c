/**
 * The service capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { conventionItems, runServiceCheck } from './check.ts';
export { createServiceClient } from './client.ts';
export type { ServiceClient, ServiceResponse } from './client.ts';
export { ensureConventions } from './conventions.ts';
export { AuthError, CancelledError, formatWait, NetworkError, RateLimitedError, ServerError, ServiceError } from './errors.ts';
export { RequestPacer } from './pacer.ts';
export { LOGS_BOUNDS, allLogs, judgeLogs, readLogs } from './paging.ts';
export type { LogsBounds, LogsRead, LogsVerdict } from './paging.ts';
export { judgePage, pageParam, pageSizeFor, queryBounds, rowsOutside } from './reading.ts';
export { redactText } from './redact.ts';
export { latestSnapshotDay } from './snapshot-day.ts';
export { loadServiceCheck, saveServiceCheck } from './store/check.ts';
export {
  conventionsReport,
  learningState,
  listAnomalies,
  openAnomaliesOf,
  loadConventions,
  loadPace,
  loadRecentWindow,
  recentWindowWidth,
  recordAnomaly,
  requestRelearn,
  resolveAnomalies,
  saveObservedPoints,
  savePace,
  saveRecentWindow,
} from './store/conventions.ts';
export type { LearnedPoint } from './store/conventions.ts';
export { serviceHandlers } from './handlers.ts';
