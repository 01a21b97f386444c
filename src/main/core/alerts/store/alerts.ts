/**
 * Alert rules and the alerts they fired (migration 014). One open alert per (rule, subject):
 * the partial unique index `alerts_open` holds that even if two checks ran at once.
 */
import type { ReadableDB, WritableDB } from '../../store/db.ts';
import { all, get, run, sql, value } from '../../store/sql.ts';
import { ValidationError } from '../../store/validation.ts';
import { recordEdit } from '../../store/audit.ts';
import { checkVersion, versionsOf } from '../../store/versions.ts';
import type { Alert, AlertCondition, AlertInbox, AlertRule, ScheduleScope } from '../../../../shared/model.ts';

interface RuleRow {
  id: number;
  scope: string;
  condition: string;
  created_at: string;
  last_check: string | null;
}

const ruleFromRow = (r: RuleRow): AlertRule => ({
  id: r.id,
  scope: JSON.parse(r.scope) as ScheduleScope,
  condition: JSON.parse(r.condition) as AlertCondition,
  createdAt: r.created_at,
  lastCheck: r.last_check ? (JSON.parse(r.last_check) as AlertRule['lastCheck']) : null,
});

export function listAlertRules(db: ReadableDB): AlertRule[] {
  return all<RuleRow>(db, sql`SELECT id, scope, condition, created_at, last_check FROM alert_rules ORDER BY id`).map(ruleFromRow);
}

/** The rules as a screen edits them: each with its version (store/versions.ts). */
export function alertRulesWithVersions(db: ReadableDB): AlertRule[] {
  const versions = versionsOf(db, 'alert-rule');
  return listAlertRules(db).map((r) => ({ ...r, version: versions.get(String(r.id)) ?? 0 }));
}

/**
 * A new rule, or a changed one. A changed rule is a new question: its open alerts are
 * resolved (they answered the old one) and what it waited for is forgotten.
 */
export function saveAlertRule(
  db: WritableDB,
  input: { id?: number | undefined; scope: ScheduleScope; condition: AlertCondition; expectedVersion?: number | undefined },
  now = new Date(),
): AlertRule {
  const id = db
    .transaction(() => {
      if (input.id === undefined) return insertAlertRule(db, input, now);
      const before = listAlertRules(db).find((r) => r.id === input.id);
      checkVersion(db, 'alert-rule', String(input.id), `#${input.id}`, input.expectedVersion, before !== undefined);
      const scope = JSON.stringify(input.scope);
      const condition = JSON.stringify(input.condition);
      if (run(db, sql`UPDATE alert_rules SET scope = ${scope}, condition = ${condition}, last_check = NULL WHERE id = ${input.id}`).changes === 0)
        throw new ValidationError('id', `There is no alert rule ${input.id}.`);
      run(db, sql`UPDATE alerts SET resolved_at = ${now.toISOString()} WHERE rule_id = ${input.id} AND resolved_at IS NULL`);
      run(db, sql`DELETE FROM alert_pending WHERE rule_id = ${input.id}`);
      recordEdit(db, { entity: 'alert-rule', key: String(input.id), action: 'update', before: before && ruleShown(before), after: ruleShown(input) });
      return input.id;
    })
    .immediate();
  return listAlertRules(db).find((r) => r.id === id)!;
}

/** A new rule, its id (an import adds many: no rule is read back). */
export function insertAlertRule(db: WritableDB, input: { scope: ScheduleScope; condition: AlertCondition }, now = new Date()): number {
  return db.transaction(() => {
    const id = Number(
      run(
        db,
        sql`INSERT INTO alert_rules (scope, condition, created_at) VALUES (${JSON.stringify(input.scope)}, ${JSON.stringify(input.condition)}, ${now.toISOString()})`,
      ).lastInsertRowid,
    );
    recordEdit(db, { entity: 'alert-rule', key: String(id), action: 'create', before: null, after: ruleShown(input) });
    return id;
  })();
}

/** A rule as the user made it, for the audit trail (not its checks). */
const ruleShown = (r: { scope: ScheduleScope; condition: AlertCondition }) => ({ scope: r.scope, condition: r.condition });

/** Removes a rule; its alerts stay as history, resolved, no longer tied to a rule. */
export function removeAlertRule(db: WritableDB, id: number, now = new Date(), expectedVersion?: number): boolean {
  return db
    .transaction(() => {
      checkVersion(
        db,
        'alert-rule',
        String(id),
        `#${id}`,
        expectedVersion,
        listAlertRules(db).some((r) => r.id === id),
      );
      run(db, sql`UPDATE alerts SET resolved_at = ${now.toISOString()} WHERE rule_id = ${id} AND resolved_at IS NULL`);
      run(db, sql`UPDATE alerts SET rule_id = NULL WHERE rule_id = ${id}`);
      run(db, sql`DELETE FROM alert_pending WHERE rule_id = ${id}`);
      const before = listAlertRules(db).find((r) => r.id === id);
      if (!before) return false;
      run(db, sql`DELETE FROM alert_rules WHERE id = ${id}`);
      recordEdit(db, { entity: 'alert-rule', key: String(id), action: 'delete', before: ruleShown(before), after: null });
      return true;
    })
    .immediate();
}

export function recordRuleCheck(db: WritableDB, id: number, check: NonNullable<AlertRule['lastCheck']>): void {
  run(db, sql`UPDATE alert_rules SET last_check = ${JSON.stringify(check)} WHERE id = ${id}`);
}

interface AlertRow {
  id: number;
  rule_id: number | null;
  kind: Alert['kind'];
  subject: string;
  wallet: string | null;
  title: string;
  detail: string;
  facts: string;
  fired_at: string;
  resolved_at: string | null;
  resolution: string | null;
  acknowledged_at: string | null;
  snoozed_until: string | null;
  delivery: string | null;
}

const alertFromRow = (r: AlertRow): Alert => ({
  id: r.id,
  ruleId: r.rule_id,
  kind: r.kind,
  subject: r.subject,
  wallet: r.wallet,
  title: r.title,
  detail: r.detail,
  facts: JSON.parse(r.facts) as Alert['facts'],
  firedAt: r.fired_at,
  resolvedAt: r.resolved_at,
  resolution: r.resolution,
  acknowledgedAt: r.acknowledged_at,
  snoozedUntil: r.snoozed_until,
  delivery: r.delivery ? (JSON.parse(r.delivery) as Alert['delivery']) : null,
});

const COLUMNS = sql`id, rule_id, kind, subject, wallet, title, detail, facts, fired_at, resolved_at, resolution, acknowledged_at, snoozed_until, delivery`;

export function getAlert(db: ReadableDB, id: number): Alert | null {
  const row = get<AlertRow>(db, sql`SELECT ${COLUMNS} FROM alerts WHERE id = ${id}`);
  return row ? alertFromRow(row) : null;
}

/** The open (not resolved) alerts of a rule, by subject. */
export function openAlerts(db: ReadableDB, ruleId: number): Map<string, number> {
  const rows = all<{ id: number; subject: string }>(db, sql`SELECT id, subject FROM alerts WHERE rule_id = ${ruleId} AND resolved_at IS NULL`);
  return new Map(rows.map((r) => [r.subject, r.id]));
}

export interface Firing {
  subject: string;
  wallet: string | null;
  title: string;
  detail: string;
  facts: Alert['facts'];
}

/** Records a firing; null when an alert about the same subject is open already (it does not repeat). */
export function fireAlert(db: WritableDB, rule: { id: number; kind: Alert['kind'] }, f: Firing, at: string): Alert | null {
  const info = run(
    db,
    sql`INSERT INTO alerts (rule_id, kind, subject, wallet, title, detail, facts, fired_at)
        VALUES (${rule.id}, ${rule.kind}, ${f.subject}, ${f.wallet}, ${f.title}, ${f.detail}, ${JSON.stringify(f.facts)}, ${at})
        ON CONFLICT (rule_id, subject) WHERE resolved_at IS NULL DO NOTHING`,
  );
  return info.changes ? getAlert(db, Number(info.lastInsertRowid)) : null;
}

/**
 * Records a firing no rule made (a closed period's data changed: closes/check.ts); null when an
 * alert of that kind about the same subject is open already. The caller's transaction holds the
 * look and the insert together (the open-alert index covers rules only).
 */
export function fireCoreAlert(db: WritableDB, kind: Alert['kind'], f: Firing, at: string): Alert | null {
  const open = value<number>(db, sql`SELECT 1 FROM alerts WHERE rule_id IS NULL AND kind = ${kind} AND subject = ${f.subject} AND resolved_at IS NULL`);
  if (open) return null;
  const info = run(
    db,
    sql`INSERT INTO alerts (rule_id, kind, subject, wallet, title, detail, facts, fired_at)
        VALUES (NULL, ${kind}, ${f.subject}, ${f.wallet}, ${f.title}, ${f.detail}, ${JSON.stringify(f.facts)}, ${at})`,
  );
  return getAlert(db, Number(info.lastInsertRowid));
}

/** Resolves the open alert of a kind no rule fires about a subject (a reopened period's), with why in words when given. */
export function resolveCoreAlert(db: WritableDB, kind: Alert['kind'], subject: string, at: string, resolution: string | null = null): void {
  run(
    db,
    sql`UPDATE alerts SET resolved_at = ${at}, resolution = ${resolution} WHERE rule_id IS NULL AND kind = ${kind} AND subject = ${subject} AND resolved_at IS NULL`,
  );
}

/** The open alerts of a kind no rule fires (acknowledged or not), oldest first. */
export function openCoreAlerts(db: ReadableDB, kind: Alert['kind']): Alert[] {
  return all<AlertRow>(db, sql`SELECT ${COLUMNS} FROM alerts WHERE rule_id IS NULL AND kind = ${kind} AND resolved_at IS NULL ORDER BY id`).map(alertFromRow);
}

/** Resolves an open alert (its condition cleared), with why in words when something else took it back. */
export function resolveAlert(db: WritableDB, id: number, at: string, resolution: string | null = null): void {
  run(db, sql`UPDATE alerts SET resolved_at = ${at}, resolution = ${resolution} WHERE id = ${id} AND resolved_at IS NULL`);
}

export function acknowledgeAlert(db: WritableDB, id: number, at: string): boolean {
  return run(db, sql`UPDATE alerts SET acknowledged_at = coalesce(acknowledged_at, ${at}) WHERE id = ${id}`).changes > 0;
}

export function snoozeAlert(db: WritableDB, id: number, until: string): boolean {
  return run(db, sql`UPDATE alerts SET snoozed_until = ${until} WHERE id = ${id}`).changes > 0;
}

export function recordDelivery(db: WritableDB, id: number, delivery: NonNullable<Alert['delivery']>): void {
  run(db, sql`UPDATE alerts SET delivery = ${JSON.stringify(delivery)} WHERE id = ${id}`);
}

/** Not acknowledged (with `all`, every alert), newest first; `unread`: not acknowledged and not snoozed at `now`. */
export function alertInbox(db: ReadableDB, o: { all?: boolean; limit?: number; now: string }): AlertInbox {
  const unacknowledged = o.all ? sql`` : sql`WHERE acknowledged_at IS NULL`;
  const rows = all<AlertRow>(db, sql`SELECT ${COLUMNS} FROM alerts ${unacknowledged} ORDER BY fired_at DESC, id DESC LIMIT ${o.limit ?? 200}`);
  const unread = value<number>(db, sql`SELECT count(*) FROM alerts WHERE acknowledged_at IS NULL AND (snoozed_until IS NULL OR snoozed_until <= ${o.now})`)!;
  return { alerts: rows.map(alertFromRow), unread };
}

/** When a lasting condition was first seen for a subject (set now if it was not). */
export function pendingSince(db: WritableDB, ruleId: number, subject: string, now: string): string {
  run(db, sql`INSERT INTO alert_pending (rule_id, subject, since) VALUES (${ruleId}, ${subject}, ${now}) ON CONFLICT DO NOTHING`);
  return value<string>(db, sql`SELECT since FROM alert_pending WHERE rule_id = ${ruleId} AND subject = ${subject}`)!;
}

/** Forgets the lasting conditions of a rule that no longer hold (those not in `holding`). */
export function clearPending(db: WritableDB, ruleId: number, holding: readonly string[]): void {
  // One statement whatever the list's length (an empty list too): json_each, not an `IN` list.
  run(db, sql`DELETE FROM alert_pending WHERE rule_id = ${ruleId} AND subject NOT IN (SELECT value FROM json_each(${JSON.stringify(holding)}))`);
}
