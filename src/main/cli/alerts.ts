/** How the CLI writes alert rules and alerts: one readable line each, or one JSON line each. */
import type { Alert, AlertRule, ScheduleScope, WalletGroup } from '../../shared/model.ts';
import { forTerminal, jsonForTerminal } from '../../shared/text-safety.ts';
import { describeCondition } from '../core/index.ts';

export { describeCondition };

export const ALERT_USAGE = `Usage: folioscope alert add KIND [--all | --wallet ADDRESS | --group NAME|ID] OPTIONS
         health --below H              a lending position's health (collateral/debt x liquidation
                                       threshold; below 1 can be liquidated) under H
         unlock --within DAYS          a locked token unlocking within DAYS days
         nav --percent X               NAV moving more than X % between the two newest dates on
                                       which every watched chain of the scope is cached
         outflow --token SYMBOL --above QTY   a transaction sending out more than QTY of SYMBOL
         counterparty                  a transaction sending to an address the wallet never dealt with
         stale --hours N               positions or transactions not synced, or incomplete, for N hours
       folioscope alert list [--json]
       folioscope alert remove ID
       folioscope alert inbox [--all] [--json]     alerts not acknowledged (--all: every alert)
       folioscope alert ack ID
       folioscope alert snooze ID [--hours N]      out of the inbox's count for N hours (default 24)
       folioscope alert check [--json]             check every rule now; print what fired
Without --wallet or --group a rule covers every watched wallet. Outflow rules look at
transactions after the rule was made. Rules are checked after every sync and scheduled run
(folioscope watch prints the alerts that fired); set a webhook with the app's settings.`;

export function describeScope(s: ScheduleScope, groups: readonly WalletGroup[]): string {
  if (s.kind === 'all') return 'all wallets';
  if (s.kind === 'wallet') return s.address;
  const id = s.id;
  return `group "${groups.find((x) => x.id === id)?.name ?? id}"`;
}

export function ruleLine(r: AlertRule, groups: readonly WalletGroup[]): string {
  return [
    String(r.id),
    describeCondition(r.condition),
    describeScope(r.scope, groups),
    r.lastCheck ? `${r.lastCheck.at.slice(0, 16).replace('T', ' ')}: ${r.lastCheck.note}` : 'not checked yet',
  ]
    .map(forTerminal)
    .join('\t');
}

/** An alert as its JSON line carries it (`watch --json`, `alert inbox --json`, `alert check --json`). */
export function alertJson(a: Alert): Record<string, unknown> {
  return {
    alert: {
      id: a.id,
      rule: a.ruleId,
      kind: a.kind,
      subject: a.subject,
      wallet: a.wallet,
      title: a.title,
      detail: a.detail,
      facts: a.facts,
      firedAt: a.firedAt,
      resolvedAt: a.resolvedAt,
      acknowledgedAt: a.acknowledgedAt,
      snoozedUntil: a.snoozedUntil,
      delivery: a.delivery,
    },
  };
}

/** One JSON line, or two readable lines: the title and the detail. */
export function printAlert(a: Alert, json: boolean): void {
  if (json) return void console.log(jsonForTerminal(alertJson(a), 0));
  const state = a.resolvedAt ? ' (resolved)' : a.acknowledgedAt ? ' (acknowledged)' : '';
  console.log(forTerminal(`ALERT       ${a.id}: ${a.title}${state}`));
  console.log(forTerminal(`            ${a.firedAt.slice(0, 16).replace('T', ' ')} UTC · ${a.detail}`));
  if (a.delivery?.state === 'failed') console.log(forTerminal(`            webhook failed: ${a.delivery.error ?? ''}`));
}
