/**
 * Checks the alert rules over the cache: a subject whose condition holds fires once (an open
 * alert about it is not repeated), an open alert whose condition cleared is resolved (so it can
 * fire again later), and one the check could not judge is left as it is. Each rule's check is
 * one transaction, with its note (what it could and could not judge) kept on the rule.
 */
import type { WritableDB } from '../store/db.ts';
import { fireAlert, fireCoreAlert, listAlertRules, openAlerts, recordRuleCheck, resolveAlert, resolveCoreAlert, type Firing } from './store/alerts.ts';
import { judge } from './rules.ts';
import { ADDRESS_POISONING, checkPoisoning, GUARD_FAILED_SUBJECT, GuardDataError } from './poisoning.ts';
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
        recordRuleCheck(db, rule.id, {
          at,
          note: waiting ? `${j.note} ${waiting} more fire at the next checks.` : j.note,
          facts: j.facts,
          ...(waiting ? { waiting } : {}),
        });
      }).immediate();
    } catch (err) {
      // A rule that cannot be checked (a damaged row, a query failing) never stops the others.
      try {
        const why = (err as Error).message ?? String(err);
        recordRuleCheck(db, rule.id, { at, note: `Not checked: ${why}`, facts: { kind: 'not-checked', why } });
      } catch {
        // The cache is closed or read-only: nothing to record.
      }
    }
  }
  // The poisoning guard needs no rule: checked with every check of all rules after data changed
  // (not the clock's, which a payment does not move).
  if (o.ruleId === undefined && !o.kinds) {
    // Its own transaction, unless one is open around this check (which may have written what the guard reads).
    const unwritten = !db.inTransaction;
    try {
      const check = db
        .transaction(() => {
          const found = checkPoisoning(db, at, { unwritten });
          // Ran through: a failure it reported is over.
          resolveCoreAlert(db, ADDRESS_POISONING, GUARD_FAILED_SUBJECT, at, 'The guard ran again and checked every cached payment.');
          return found;
        })
        .immediate();
      if (unwritten) check.committed();
      fired.push(...check.fired);
    } catch (err) {
      // As a rule that cannot be checked, it never stops the rest; but no rule holds its note, so
      // the failure is an alert of its own (the inbox, `watch`, the webhook), once until it runs
      // again. A cache busy with another writer is no failure: the next check runs it.
      if (busy(err)) return fired;
      try {
        const a = db.transaction(() => fireCoreAlert(db, ADDRESS_POISONING, guardFailure(err), at)).immediate();
        if (a) fired.push(a);
      } catch {
        // The cache is closed or read-only: nothing to record.
      }
    }
  }
  return fired;
}

const busy = (err: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(String((err as { code?: unknown } | null)?.code ?? ''));

/**
 * The guard's failure in words. Only the cache was read (no request, no key), and what could
 * quote a cached row (an error of JSON) is said without it.
 */
function guardFailure(err: unknown): Firing {
  const message = err instanceof Error ? err.message : String(err);
  const why =
    err instanceof GuardDataError
      ? err.message
      : /malformed JSON/i.test(message)
        ? "a cached transaction's list of transfers is not valid JSON"
        : message.split('\n')[0]!.slice(0, 300) || 'an unknown error';
  return {
    subject: GUARD_FAILED_SUBJECT,
    wallet: null,
    title: 'The address-poisoning guard could not check the payments',
    detail: `Payments to lookalike addresses are not being checked: ${why}. The guard runs again after every sync and edit; this alert is resolved once it runs through.`,
    facts: { check: 'poisoning-guard', error: why },
  };
}
