/**
 * The transactions capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { transactionHandlers } from './handlers.ts';
export { probeLogs, readAndStoreLogs } from './logs.ts';
export { countExportTransactions, exportTransactionRows, openExportReader } from './store/export.ts';
export { getLogSet } from './store/logs.ts';
export { periodTransactions } from './store/period.ts';
export { listTransactionChanges } from './store/restatements.ts';
export { markAnnotations } from './store/timeline.ts';
export type { ScopedTimelineFilter } from './store/timeline.ts';
export {
  completeUntil,
  forgetAllRanges,
  incompleteReasons,
  listRanges,
  rangeReason,
  recentTransactions,
  stillIndexing,
  transactionsCoverage,
} from './store/transactions.ts';
export type { SyncRange } from './store/transactions.ts';
export { refreshTransferDaysFor } from './store/transfer-days-refresh.ts';
export { flowsByDay, refreshTransferDaysInSteps, undatedTransfers } from './store/transfer-days.ts';
export type { TokenFlows } from './store/transfer-days.ts';
export type { WriteBatchOptions } from './store/write-batch.ts';
export { syncTransactions } from './sync.ts';
export type { TxnSyncResult } from './sync.ts';
export { countOwedSeams } from './store/seams.ts';
