/** The operations of alert rules and the inbox of what they fired. */
import type { Alert, AlertKind } from '../../../shared/model.ts';
import type { Handlers, ScopeContext } from '../handlers.ts';
import type { WritableDB } from '../store/db.ts';
import { acknowledgeAlert, alertInbox, alertRulesWithVersions, removeAlertRule, saveAlertRule, snoozeAlert } from './store/alerts.ts';

export interface AlertContext extends ScopeContext {
  writable(): WritableDB;
  /** Checks the rules now (all, or one), announcing and delivering what fires. */
  checkNow(o?: { kinds?: ReadonlySet<AlertKind>; ruleId?: number }): Alert[];
}

type AlertOperations = 'alerts.rules' | 'alerts.saveRule' | 'alerts.removeRule' | 'alerts.inbox' | 'alerts.acknowledge' | 'alerts.snooze' | 'alerts.check';

export function alertHandlers(c: AlertContext): Pick<Handlers, AlertOperations> {
  return {
    'alerts.rules': () => alertRulesWithVersions(c.db()),
    'alerts.saveRule': (input) => {
      const saved = saveAlertRule(c.writable(), { ...input, scope: c.storedScope(input.scope) });
      // Checked at once: a rule that holds now fires now.
      c.checkNow({ ruleId: saved.id });
      return alertRulesWithVersions(c.db()).find((r) => r.id === saved.id) ?? saved;
    },
    'alerts.removeRule': ({ id, expectedVersion }) => removeAlertRule(c.writable(), id, new Date(), expectedVersion),
    'alerts.inbox': (input) =>
      alertInbox(c.db(), { ...(input?.all && { all: true }), ...(input?.limit && { limit: input.limit }), now: new Date().toISOString() }),
    'alerts.acknowledge': ({ id }) => acknowledgeAlert(c.writable(), id, new Date().toISOString()),
    'alerts.snooze': ({ id, until }) => snoozeAlert(c.writable(), id, new Date(until).toISOString()),
    'alerts.check': () => c.checkNow(),
  };
}
