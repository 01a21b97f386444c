/**
 * `folioscope close`: closed periods (docs/closes.md) from the command line: list them, close a
 * scope's month or two cached dates, show one (its stored figures and what changed since),
 * reopen one with a reason.
 */
import type { ParseArgsConfig } from 'node:util';
import type { Core } from '../core/index.ts';
import type { InputOf, OutputOf } from '../../shared/contract.ts';
import type { OperationName } from '../../shared/operations.ts';
import type { PeriodClose } from '../../shared/closes.ts';
import type { JobInfo, WalletGroup } from '../../shared/model.ts';
import { forTerminal, jsonForTerminal } from '../../shared/text-safety.ts';

export const CLOSE_USAGE = `Usage: folioscope close list [--json]
       folioscope close add (--month YYYY-MM | --from YYYY-MM-DD --to YYYY-MM-DD) [--wallet ADDRESS | --group NAME|ID] [--json]
       folioscope close show ID [--json]
       folioscope close reopen ID --reason TEXT
A close keeps a scope's monthly pack as built (its figures never change) and the SHA-256 of the
data behind it; a pack that is partial cannot be closed (it says why). After every sync, and
after edits of labels and groups, each period in force is checked: a change to its data (a
restated or late transaction, a snapshot fetched again with other figures, an edit) flags it,
says what changed, and fires an alert (folioscope alert inbox). Reopening asks for a reason and
is kept in the audit trail (folioscope audit --entity period); a reopened period can be closed
again. Without --wallet or --group: all wallets. --month M is from the eve of M to its last day.
Exit codes: show exits 3 for a period flagged as changed since its close.`;

/** What the command needs from the program (src/main/cli/index.ts). */
export interface CloseCli {
  parse<T extends NonNullable<ParseArgsConfig['options']>>(
    args: string[],
    options: T,
    usage: string,
  ): { values: { [K in keyof T]?: T[K]['type'] extends 'boolean' ? boolean : string }; positionals: string[] } | null;
  withCore<T>(fn: (core: Core) => Promise<T>): Promise<T>;
  call<K extends OperationName>(core: Core, op: K, input: InputOf<K>): Promise<OutputOf<K>>;
  resolveGroup(core: Core, nameOrId: string): Promise<WalletGroup>;
  usageError(message: string): Error;
  checkDates(v: { from?: string | undefined; to?: string | undefined }, usage: string): void;
}

const usd = (n: number | null) => (n === null ? '—' : `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);

function line(c: PeriodClose): string {
  return [
    String(c.id),
    c.state,
    c.scope.name,
    `${c.from}..${c.to}`,
    c.closedAt.slice(0, 16).replace('T', ' '),
    usd(c.opening),
    usd(c.closing),
    c.hash.slice(0, 16),
  ]
    .map(forTerminal)
    .join('\t');
}

function idOf(cli: CloseCli, positionals: string[]): number {
  const raw = positionals[1];
  if (!raw || !/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw cli.usageError(`Give the close's id (folioscope close list shows them).\n\n${CLOSE_USAGE}`);
  if (positionals.length > 2) throw cli.usageError(`Unexpected argument "${forTerminal(positionals[2]!.slice(0, 40))}".\n\n${CLOSE_USAGE}`);
  return Number(raw);
}

export async function closeCommand(cli: CloseCli, args: string[]): Promise<void> {
  const p = cli.parse(
    args,
    {
      json: { type: 'boolean' },
      month: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      wallet: { type: 'string' },
      group: { type: 'string' },
      reason: { type: 'string' },
    },
    CLOSE_USAGE,
  );
  if (!p) return;
  const v = p.values;
  const sub = p.positionals[0];
  const only = (allowed: string[]) => {
    const extra = Object.keys(v).find((k) => !allowed.includes(k) && v[k as keyof typeof v] !== undefined);
    if (extra) throw cli.usageError(`--${extra} does not go with close ${sub}.\n\n${CLOSE_USAGE}`);
  };
  switch (sub) {
    case 'list': {
      only(['json']);
      if (p.positionals.length > 1) throw cli.usageError(`Unexpected argument "${forTerminal(p.positionals[1]!.slice(0, 40))}".\n\n${CLOSE_USAGE}`);
      return cli.withCore(async (core) => {
        const closes = await cli.call(core, 'closes.list', undefined);
        if (v.json) return void console.log(jsonForTerminal(closes));
        if (!closes.length) return void console.log('No closed periods.');
        console.log(['id', 'state', 'scope', 'period', 'closed (UTC)', 'opening', 'closing', 'hash'].join('\t'));
        for (const c of closes) console.log(line(c));
      });
    }
    case 'add': {
      only(['json', 'month', 'from', 'to', 'wallet', 'group']);
      if (p.positionals.length > 1) throw cli.usageError(`Unexpected argument "${forTerminal(p.positionals[1]!.slice(0, 40))}".\n\n${CLOSE_USAGE}`);
      if (v.wallet && v.group) throw cli.usageError(`Use --wallet or --group, not both.\n\n${CLOSE_USAGE}`);
      if (v.month ? v.from || v.to : !v.from || !v.to) throw cli.usageError(`Give --month, or --from and --to.\n\n${CLOSE_USAGE}`);
      if (v.month && !/^\d{4}-(0[1-9]|1[0-2])$/.test(v.month)) throw cli.usageError(`--month takes a month, YYYY-MM.\n\n${CLOSE_USAGE}`);
      cli.checkDates(v, CLOSE_USAGE);
      return cli.withCore(async (core) => {
        const group = v.group ? await cli.resolveGroup(core, v.group) : undefined;
        const closed = await cli.call(core, 'closes.close', {
          ...(v.wallet && { wallet: v.wallet }),
          ...(group && { group: group.id }),
          ...(v.month ? { month: v.month } : { from: v.from!, to: v.to! }),
        });
        if (v.json) return void console.log(jsonForTerminal(closed));
        console.log(forTerminal(`Closed ${closed.scope.name}, ${closed.from} to ${closed.to} (close ${closed.id}).`));
        console.log(forTerminal(`  NAV ${usd(closed.opening)} → ${usd(closed.closing)}; SHA-256 of the data behind it: ${closed.hash}`));
      });
    }
    case 'show': {
      only(['json']);
      const id = idOf(cli, p.positionals);
      return cli.withCore(async (core) => {
        const c = await cli.call(core, 'closes.get', { id });
        if (v.json) console.log(jsonForTerminal(c));
        else {
          console.log(
            forTerminal(`Close ${c.id}: ${c.scope.name}, ${c.from} to ${c.to} (${c.scope.members.length} wallet${c.scope.members.length === 1 ? '' : 's'})`),
          );
          console.log(forTerminal(`  closed ${c.closedAt}; SHA-256 ${c.hash}`));
          console.log(
            forTerminal(
              `  closed figures: NAV ${usd(c.pack.opening)} → ${usd(c.pack.closing)}; inflows ${usd(c.pack.inflows)}, outflows ${usd(c.pack.outflows)}, accruals ${usd(c.pack.accruals)}, price effect ${usd(c.pack.priceEffect)}`,
            ),
          );
          if (c.state === 'reopened') console.log(forTerminal(`  REOPENED ${c.reopenedAt}: ${c.reopenReason ?? ''}`));
          if (c.flag) {
            console.log(forTerminal(`  CHANGED SINCE CLOSE (found ${c.flaggedAt}): the closed figures above are kept as they were`));
            for (const s of c.flag.summary) console.log(forTerminal(`    ${s}`));
          } else if (c.state === 'closed') console.log(forTerminal(`  unchanged at the last check (${c.checkedAt ?? 'never'})`));
        }
        if (c.state === 'flagged') process.exitCode = 3;
      });
    }
    case 'reopen': {
      only(['reason']);
      const id = idOf(cli, p.positionals);
      if (!v.reason?.trim()) throw cli.usageError(`Give a --reason for reopening: it is kept in the audit trail.\n\n${CLOSE_USAGE}`);
      return cli.withCore(async (core) => {
        const c = await cli.call(core, 'closes.reopen', { id, reason: v.reason! });
        console.log(forTerminal(`Reopened close ${c.id} (${c.scope.name}, ${c.from} to ${c.to}): ${c.reopenReason ?? ''}`));
      });
    }
    default:
      throw cli.usageError(sub ? `Unknown close command "${forTerminal(sub.slice(0, 40))}".\n\n${CLOSE_USAGE}` : CLOSE_USAGE);
  }
}

/**
 * A transaction job's restatements in words ("30 added late, 4 changed, 2 removed"), or null
 * when it restated nothing: what a sync changed in the history already cached.
 */
export function restatedText(j: Pick<JobInfo, 'restated'>): string | null {
  const r = j.restated;
  if (!r || r.late + r.changed + r.removed === 0) return null;
  return `restated ${r.late + r.changed + r.removed} cached row${r.late + r.changed + r.removed === 1 ? '' : 's'}: ${r.late} added late, ${r.changed} changed, ${r.removed} removed (folioscope close list: periods they fall in are checked)`;
}

/** A close a sync's checks found changed: a FLAGGED line and what changed, or one `{"closeFlagged": …}` JSON line. */
export function printFlagged(c: PeriodClose, json: boolean): void {
  const changes = c.flag?.summary ?? [];
  if (json)
    return void console.log(
      jsonForTerminal({ closeFlagged: { id: c.id, scope: c.scope.name, from: c.from, to: c.to, closedAt: c.closedAt, flaggedAt: c.flaggedAt, changes } }, 0),
    );
  console.log(
    forTerminal(
      `FLAGGED     close ${c.id}: ${c.scope.name}, ${c.from} to ${c.to} changed since its close (${changes.length} change${changes.length === 1 ? '' : 's'}; folioscope close show ${c.id})`,
    ),
  );
  for (const s of changes.slice(0, 5)) console.log(forTerminal(`            - ${s}`));
  if (changes.length > 5) console.log(`            - and ${changes.length - 5} more`);
}
