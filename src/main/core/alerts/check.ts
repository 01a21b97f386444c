/**
 * Checks the alert rules over the cache: a subject whose condition holds fires once (an open
 * alert about it is not repeated), an open alert whose condition cleared is resolved (so it can
 * fire again later), and one the check could not judge is left as it is. Each rule's check is
 * one transaction, with its note (what it could and could not judge) kept on the rule.
 */
import type { WritableDB } from '../store/db.ts';
import { fireAlert, listAlertRules, openAlerts, recordRuleCheck, resolveAlert } from './store/alerts.ts';
import { judge } from './rules.ts';
import { checkPoisoning } from './poisoning.ts';
import type { Alert, AlertKind } from '../../../shared/model.ts';

/** At most this many new alerts per rule and check; the rest fire at the next checks. */
export const MAX_FIRINGS_PER_CHECK = 50;

/** Kinds whose condition moves with the clock alone: checked on a timer as well as after syncs. */
export const CLOCK_KINDS: ReadonlySet<AlertKind> = new Set(['stale', 'unlock']);

export function checkAlerts(db: WritableDB, o: { now?: number; kinds?: ReadonlySet<AlertKind>; ruleId?: number } = {}): Alert[] {
  const nowMs = o.now ?? Date.now();
  const at = new Date(nowMs).toISOString();
  const fired: Alert[] = [];
  for (const rule of listAlertRules(db)) {
    if (o.kinds && !o.kinds.has(rule.condition.kind)) continue;
    if (o.ruleId !== undefined && rule.id !== o.ruleId) continue;
    try {
      db.transaction(() => {
        const j = judge(db, rule, nowMs);
        const open = openAlerts(db, rule.id);
        const holding = new Set<string>();
        let firedHere = 0;
        let waiting = 0;
        for (const f of j.holds) {
          if (holding.has(f.subject)) continue;
          holding.add(f.subject);
          if (open.has(f.subject)) continue;
          if (firedHere >= MAX_FIRINGS_PER_CHECK) {
            waiting++;
            continue;
          }
          const a = fireAlert(db, { id: rule.id, kind: rule.condition.kind }, f, at);
          if (a) {
            fired.push(a);
            firedHere++;
          }
        }
        for (const [subject, id] of open) if (!holding.has(subject) && !j.unknown(subject)) resolveAlert(db, id, at);
        recordRuleCheck(db, rule.id, { at, note: waiting ? `${j.note} ${waiting} more fire at the next checks.` : j.note });
      }).immediate();
    } catch (err) {
      // A rule that cannot be checked (a damaged row, a query failing) never stops the others.
      try {
        recordRuleCheck(db, rule.id, { at, note: `Not checked: ${(err as Error).message ?? String(err)}` });
      } catch {
        // The cache is closed or read-only: nothing to record.
      }
    }
  }
  // The poisoning guard needs no rule: checked with every check of all rules after data changed
  // (not the clock's, which a payment does not move).
  if (o.ruleId === undefined && !o.kinds) {
    try {
      fired.push(...db.transaction(() => checkPoisoning(db, at)).immediate());
    } catch {
      // As a rule that cannot be checked: never stops the rest (a closed or read-only cache).
    }
  }
  return fired;
}
