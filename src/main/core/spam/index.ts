/**
 * The spam capability's public face (docs/spam.md): what the rest of the core may use of it (the
 * lint's walls, eslint/boundaries.js, refuse an import of its other files from outside it).
 *
 * For the readers of figures (NAV, allocation, reconcile, the pack, closes, alerts):
 * `spamJudge(db)` once per read (or `sharedJudge` once for a pass of several: the pack), then
 * `position`, `positions`, `token`, `transaction` and `poisoning` per row.
 */
export { sharedJudge, spamJudge, DUST_QTY, DUST_USD } from './reader.ts';
export type { JudgedPosition, SharedJudge, SpamJudge, SpamJudgeOptions, TxnJudgement } from './reader.ts';
export {
  SPAM_THRESHOLD,
  WEIGHTS,
  judgeToken,
  judgeTransaction,
  judgeProtocolPosition,
  knownParties,
  KnownParties,
  poisoningGuard,
  decide,
  isOutflow,
} from './judge.ts';
export type { Counterparties, Lookalike, PartyEvidence, ReasonCode, RuleResult, Ruling, SpamTxnRow, TokenFacts, TxnContext } from './judge.ts';
export { spamHandlers, spamLists } from './handlers.ts';
export type { SpamContext } from './handlers.ts';
export { cleanCarriedList, cleanMarkKey, cleanMarkNote } from './verdicts.ts';
export { listStoredSpamLists, putSpamList } from './store/lists.ts';
export type { StoredSpamList } from './store/lists.ts';
export { listSpamMarks, writeSpamMark, getSpamMark, markItem } from './store/verdicts.ts';
export type { SpamMarkKey } from './store/verdicts.ts';
export { readSpamList, SPAM_LIST_FORMAT, SPAM_LIST_VERSION, DEFAULT_LIST_NAME } from './lists.ts';
export type { SpamList } from './lists.ts';
export { spamBasis } from './basis.ts';
