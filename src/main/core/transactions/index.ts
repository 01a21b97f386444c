/**
 * The transactions capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { probeLogs, readAndStoreLogs } from './logs.ts';
export { getLogSet } from './store/logs.ts';
export { listTransactionChanges } from './store/restatements.ts';
export {
  completeUntil,
  forgetAllRanges,
  incompleteReasons,
  incompleteReasonsOf,
  listRanges,
  rangeReason,
  recentTransactions,
  stillIndexing,
  storedText,
  transactionsCoverage,
} from './store/transactions.ts';
export type { SyncRange } from './store/transactions.ts';
export { refreshTransferDaysFor } from './store/transfer-days-refresh.ts';
export { flowsByDay, refreshTransferDaysInSteps, undatedTransfers } from './store/transfer-days.ts';
export type { TokenFlows } from './store/transfer-days.ts';
export { dealingsOf as keptDealingsOf, dealingsWithin, keptStates, PAID_IN, PAID_OUT } from './store/party-dealings.ts';
export type { Dealings, KeptStates, Recipient, Sender } from './store/party-dealings.ts';
export type { WriteBatchOptions } from './store/write-batch.ts';
export { workerWriter } from './store/page-writer.ts';
export { syncTransactions } from './sync.ts';
export type { TxnSyncResult } from './sync.ts';
export { owedSeamsOf } from './store/seams.ts';
export { idsWhereKey } from './store/hash-levels.ts';
export { clearHistory, purgeWalletHistory } from './store/purge.ts';
export { transactionsFreshnessOf } from './store/freshness.ts';
