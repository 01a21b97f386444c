/**
 * The ledger's public face: the read models of the cached history (the timeline, its export,
 * the period's transactions, outflows, transfers in a window, the rules' inputs), what the rest
 * of the core may use of it (the lint's walls, eslint/boundaries.js, refuse an import of its
 * other files from outside it).
 */
export { ledgerHandlers } from './handlers.ts';
export {
  countExportTransactions,
  exportJudgedRows,
  exportTransactionRows,
  holdWritesOff,
  openExportReader,
  openExportReaderAt,
  takeSnapshot,
} from './store/export.ts';
export type { ExportReader, ExportTransactionRow, HeldWrites, JudgedExportRow } from './store/export.ts';
export { periodTransactions } from './store/period.ts';
export { markAnnotations } from './store/timeline.ts';
export type { ScopedTimelineFilter } from './store/timeline.ts';
export { cachedKeys, categoriesOf, hasAnnotations, isCached, windowCategories } from './store/annotated.ts';
export type { TxnKey } from './store/annotated.ts';
export { historyReach, knownActionTypes, ruleTxnsAfter, ruleTxnsChangedAfter } from './store/rule-inputs.ts';
export type { RuleTxn } from './store/rule-inputs.ts';
export { nameTrace } from './trace.ts';
export { WINDOW_TRANSACTION_COLUMNS, changesInWindow, windowCounterparties, windowTransactions } from './store/window.ts';
export { outflowsAbove, outflowsToNewCounterparties, paidAddresses, paymentsTo, unreadableTransfers } from './store/outflows.ts';
export type { NewCounterparty, Outflow, Payment } from './store/outflows.ts';
export { tokenTransfers } from './store/transfers.ts';
export { acquiredTokens, dealingsBetween, dealingsOf, firstAppearances, hasHistory, keptStates, transactionForJudge } from './store/parties.ts';
export type { Acquired, Dealings, KeptStates, Recipient, Sender } from './store/parties.ts';
