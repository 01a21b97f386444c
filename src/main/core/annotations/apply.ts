/**
 * Applying the category rules to cached transactions (issue 28, item 2):
 * - to every transaction, when a rule is saved, removed or reordered, or when asked ("apply to
 *   existing"): every rule-made category is decided again; manual ones are never touched (a manual
 *   choice always wins, and is kept apart from the rule's);
 * - to the new ones after a sync wrote pages (app.ts runs it where the alert check runs, off the
 *   ingest path): the transactions with an id above the last one seen, and those the change log
 *   named since (a restatement may change what a rule sees; a row removed and returning is logged
 *   as late, so it is found even when its id was given again).
 * One transaction each, so a reader sees the rules' categories before or after, never half.
 */
import type { RuleConditions, RulePreview } from '../../../shared/model.ts';
import { unknownActionTypes } from '../../../shared/display-names.ts';
import type { ReadableDB, WritableDB } from '../store/handles.ts';
import {
  cleanConditions,
  clearRuleCategories,
  dropEmptyAnnotations,
  listRules,
  ruleState,
  setRuleState,
  watchedAddresses,
  writeRuleCategories,
  type StoredRule,
} from './store/annotations.ts';
import { knownActionTypes, ruleTxnsAfter, ruleTxnsChangedAfter, type RuleTxn, type TxnKey } from '../ledger/index.ts';
import { firstMatch, matches, type CounterpartyNamer, type RuleContext } from './rules.ts';

/** Rows read at a time: a chunk's details are parsed and matched before the next is read. */
const CHUNK = 5000;
/** Categories written at a time, sorted by key (~100 bytes each held meanwhile). */
const WRITE_BATCH = 100_000;

export interface Applied {
  /** Transactions the rules looked at. */
  evaluated: number;
  /** Of those, how many a rule categorised. */
  categorised: number;
}

function* chunksAfter(db: ReadableDB, afterId: number): Generator<RuleTxn[]> {
  for (let after = afterId; ;) {
    const rows = ruleTxnsAfter(db, after, CHUNK);
    if (rows.length) yield rows;
    if (rows.length < CHUNK) return;
    after = rows[rows.length - 1]!.id;
  }
}

const contextOf = (db: ReadableDB, namer: CounterpartyNamer | undefined): RuleContext => ({ watched: watchedAddresses(db), namer });

/** Every rule-made category decided again, over every cached transaction. */
export function applyRulesToAll(db: WritableDB, options: { namer?: CounterpartyNamer | undefined } = {}): Applied {
  return db.transaction(() => {
    const rules = listRules(db);
    const ctx = contextOf(db, options.namer);
    const state = ruleState(db);
    clearRuleCategories(db);
    let evaluated = 0;
    let categorised = 0;
    if (rules.length) {
      // Written in batches of WRITE_BATCH, each in key order (see writeRuleCategories); only the
      // keys are kept, not the parsed rows.
      let chosen: Array<{ txn: TxnKey; rule: StoredRule }> = [];
      for (const rows of chunksAfter(db, 0)) {
        evaluated += rows.length;
        for (const txn of rows) {
          const rule = firstMatch(rules, txn, ctx);
          if (rule) chosen.push({ txn: { wallet: txn.wallet, chain: txn.chain, txnHash: txn.txnHash }, rule });
        }
        if (chosen.length >= WRITE_BATCH) {
          categorised += chosen.length;
          writeRuleCategories(db, chosen);
          chosen = [];
        }
      }
      categorised += chosen.length;
      writeRuleCategories(db, chosen);
    }
    dropEmptyAnnotations(db);
    setRuleState(db, state.maxTxnId, state.maxChangeId);
    return { evaluated, categorised };
  })();
}

/** The rules applied to what the cache gained (or had restated) since they were last applied. */
export function applyRulesToNew(db: WritableDB, options: { namer?: CounterpartyNamer | undefined } = {}): Applied {
  return db.transaction(() => {
    const state = ruleState(db);
    if (state.maxTxnId === state.toTxnId && state.maxChangeId === state.toChangeId) return { evaluated: 0, categorised: 0 };
    const rules = listRules(db);
    let evaluated = 0;
    let categorised = 0;
    // No rule: nothing to decide; what arrived is taken as seen (a rule saved later reads it all).
    if (rules.length) {
      const ctx = contextOf(db, options.namer);
      const decide = (rows: RuleTxn[]) => {
        evaluated += rows.length;
        const chosen = rows.map((txn) => ({ txn, rule: firstMatch(rules, txn, ctx) }));
        categorised += chosen.filter((c) => c.rule).length;
        writeRuleCategories(db, chosen);
      };
      if (state.maxChangeId > state.toChangeId) decide(ruleTxnsChangedAfter(db, state.toChangeId));
      for (const rows of chunksAfter(db, state.toTxnId)) decide(rows);
      dropEmptyAnnotations(db);
    }
    setRuleState(db, state.maxTxnId, state.maxChangeId);
    return { evaluated, categorised };
  })();
}

/** How many cached transactions (of these wallets, or all) a rule's conditions match, alone, and a few of them. */
export function previewRule(
  db: ReadableDB,
  conditions: RuleConditions,
  options: { wallets?: readonly string[] | undefined; namer?: CounterpartyNamer | undefined; rules?: readonly StoredRule[] } = {},
): RulePreview {
  // Read as saving stores them (addresses in lower case, methods too): the preview counts what the rule will match.
  const cleaned = cleanConditions(conditions);
  const ctx = contextOf(db, options.namer);
  const wallets = options.wallets ? new Set(options.wallets) : null;
  let n = 0;
  const sample: Array<{ wallet: string; chain: string; txnHash: string }> = [];
  for (const rows of chunksAfter(db, 0))
    for (const t of rows) {
      if (wallets && !wallets.has(t.wallet)) continue;
      if (!matches(cleaned, t, ctx)) continue;
      n++;
      if (sample.length < 5) sample.push({ wallet: t.wallet, chain: t.chain, txnHash: t.txnHash });
    }
  // A type no cached transaction has (of any wallet) is said, with the known ones, rather than a bare 0.
  const known = knownActionTypes(db);
  return { matches: n, sample, unknownActionTypes: unknownActionTypes(conditions.actionTypes ?? [], known), knownActionTypes: known };
}
