/** How the CLI writes alert rules and alerts: one readable line each, or one JSON line each. */
import type { Alert, AlertRule, ScheduleScope, WalletGroup } from '../../../shared/model.ts';
import { forTerminal, jsonForTerminal } from '../../../shared/text-safety.ts';
import { describeCondition } from '../../core/index.ts';
import type { AlertCondition } from '../../../shared/model.ts';
import { call, type Globals, parse, resolveGroup, UsageError, withCore } from '../context.ts';
import { say } from '../io.ts';

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
      resolution: a.resolution,
      acknowledgedAt: a.acknowledgedAt,
      snoozedUntil: a.snoozedUntil,
      delivery: a.delivery,
    },
  };
}

/** One JSON line, or two readable lines: the title and the detail. */
export function printAlert(a: Alert, json: boolean): void {
  if (json) return void say(jsonForTerminal(alertJson(a), 0));
  const state = a.resolvedAt ? ' (resolved)' : a.acknowledgedAt ? ' (acknowledged)' : '';
  say(forTerminal(`ALERT       ${a.id}: ${a.title}${state}`));
  say(forTerminal(`            ${a.firedAt.slice(0, 16).replace('T', ' ')} UTC · ${a.detail}`));
  if (a.resolvedAt && a.resolution) say(forTerminal(`            resolved ${a.resolvedAt.slice(0, 16).replace('T', ' ')} UTC: ${a.resolution}`));
  if (a.delivery?.state === 'failed') say(forTerminal(`            webhook failed: ${a.delivery.error ?? ''}`));
}

export async function alertCommand(g: Globals, args: string[]): Promise<void> {
  const usage = ALERT_USAGE;
  const p = parse(
    args,
    {
      all: { type: 'boolean' },
      wallet: { type: 'string' },
      group: { type: 'string' },
      below: { type: 'string' },
      within: { type: 'string' },
      percent: { type: 'string' },
      token: { type: 'string' },
      above: { type: 'string' },
      hours: { type: 'string' },
      json: { type: 'boolean' },
    },
    usage,
  );
  if (!p) return;
  const [sub, arg, ...extra] = p.positionals;
  const v = p.values;
  /** A number option as given (the contract checks its bounds and says which). */
  const num = (name: 'below' | 'within' | 'percent' | 'above' | 'hours'): number => {
    const text = v[name];
    if (text === undefined) throw new UsageError(`alert add ${arg ?? ''} needs --${name}.\n\n${usage}`);
    const n = Number(text);
    if (!text.trim() || !Number.isFinite(n)) throw new UsageError(`--${name} ${forTerminal(text.slice(0, 40))} is not a number.\n\n${usage}`);
    return n;
  };
  const id = () => {
    if (!arg || !/^\d{1,15}$/.test(arg) || extra.length) throw new UsageError(usage);
    return Number(arg);
  };
  await withCore(g, async (core) => {
    if (sub === 'add') {
      if (extra.length) throw new UsageError(usage);
      if ([v.all, v.wallet, v.group].filter(Boolean).length > 1) throw new UsageError(`Choose one of --all, --wallet or --group.\n\n${usage}`);
      const conditions: Record<string, () => AlertCondition> = {
        health: () => ({ kind: 'health', below: num('below') }),
        unlock: () => ({ kind: 'unlock', withinDays: num('within') }),
        nav: () => ({ kind: 'nav-move', percent: num('percent') }),
        outflow: () => {
          if (!v.token) throw new UsageError(`alert add outflow needs --token SYMBOL.\n\n${usage}`);
          return { kind: 'outflow', symbol: v.token, above: num('above') };
        },
        counterparty: () => ({ kind: 'new-counterparty' }),
        stale: () => ({ kind: 'stale', hours: num('hours') }),
      };
      if (!arg || !Object.hasOwn(conditions, arg)) throw new UsageError(`alert add needs a kind: ${Object.keys(conditions).join(', ')}.\n\n${usage}`);
      const scope = v.wallet
        ? { kind: 'wallet' as const, address: v.wallet }
        : v.group
          ? { kind: 'group' as const, id: (await resolveGroup(core, v.group)).id }
          : { kind: 'all' as const };
      const fired: Alert[] = [];
      const off = core.on('alert.fired', (a) => fired.push(a));
      const saved = await call(core, 'alerts.saveRule', { scope, condition: conditions[arg]!() });
      off();
      const groups = await call(core, 'groups.list', undefined);
      say(forTerminal(`Alert rule ${saved.id}: ${describeCondition(saved.condition)}, ${describeScope(saved.scope, groups)}.`));
      if (saved.lastCheck) say(forTerminal(`Checked now: ${saved.lastCheck.note}`));
      for (const a of fired) printAlert(a, false);
    } else if (sub === 'list') {
      const rules = await call(core, 'alerts.rules', undefined);
      if (v.json) return void say(jsonForTerminal(rules));
      if (!rules.length) return void say('No alert rules. Add one: folioscope alert add health --below 1.1');
      const groups = await call(core, 'groups.list', undefined);
      say(['id', 'rule', 'scope', 'last check (UTC)'].join('\t'));
      for (const r of rules) say(ruleLine(r, groups));
    } else if (sub === 'remove') {
      if (!(await call(core, 'alerts.removeRule', { id: id() }))) throw new Error(`There is no alert rule ${id()}.`);
      say(`Alert rule ${id()} removed (its alerts stay in the history).`);
    } else if (sub === 'inbox') {
      if (arg) throw new UsageError(usage);
      const inbox = await call(core, 'alerts.inbox', { ...(v.all && { all: true }) });
      if (v.json) return void inbox.alerts.forEach((a) => printAlert(a, true));
      if (!inbox.alerts.length) return void say(v.all ? 'No alerts.' : 'No alerts to acknowledge.');
      say(`${inbox.unread} alert${inbox.unread === 1 ? '' : 's'} to look at${inbox.alerts.length > inbox.unread && !v.all ? ' (others snoozed)' : ''}:`);
      for (const a of inbox.alerts) printAlert(a, false);
    } else if (sub === 'ack') {
      if (!(await call(core, 'alerts.acknowledge', { id: id() }))) throw new Error(`There is no alert ${id()}.`);
      say(`Alert ${id()} acknowledged.`);
    } else if (sub === 'snooze') {
      const hours = v.hours === undefined ? 24 : num('hours');
      if (!(hours > 0 && hours <= 24 * 366)) throw new UsageError(`--hours is between 0 and ${24 * 366}.\n\n${usage}`);
      const until = new Date(Date.now() + hours * 3_600_000).toISOString();
      if (!(await call(core, 'alerts.snooze', { id: id(), until }))) throw new Error(`There is no alert ${id()}.`);
      say(`Alert ${id()} snoozed until ${until.slice(0, 16).replace('T', ' ')} UTC.`);
    } else if (sub === 'check') {
      if (arg) throw new UsageError(usage);
      const fired = await call(core, 'alerts.check', undefined);
      for (const a of fired) printAlert(a, v.json ?? false);
      if (!fired.length && !v.json) say('No new alerts.');
    } else {
      throw new UsageError(usage);
    }
  });
}
