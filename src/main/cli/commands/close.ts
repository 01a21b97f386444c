/**
 * `folioscope close`: closed periods (docs/closes.md) from the command line: list them, close a
 * scope's month or two cached dates, show one (its stored figures and what changed since),
 * reopen one with a reason.
 */
import { changesFigures, type PeriodClose } from '../../../shared/closes.ts';
import type { JobInfo } from '../../../shared/model.ts';
import { forTerminal, jsonForTerminal } from '../../../shared/text-safety.ts';
import { say, setExitCode } from '../io.ts';
import { resolve as resolvePath } from 'node:path';
import { call, checkDateOptions, type Globals, parse, resolveGroup, UsageError, waitForJobs, withCore } from '../context.ts';

export const CLOSE_USAGE = `Usage: folioscope close list [--json]
       folioscope close add (--month YYYY-MM | --from YYYY-MM-DD --to YYYY-MM-DD) [--wallet ADDRESS | --group NAME|ID] [--json]
       folioscope close prepare (--month YYYY-MM | --from YYYY-MM-DD --to YYYY-MM-DD) [--wallet ADDRESS | --group NAME|ID] [--json]
       folioscope close approve ID [--json]
       folioscope close reject ID --reason TEXT
       folioscope close show ID [--json]
       folioscope close reopen ID --reason TEXT
       folioscope close bundle ID --out FILE
A close keeps a scope's monthly pack as built (its figures never change) and the SHA-256 of the
data behind it; a pack that is partial cannot be closed (it says why). After every sync, and
after edits of labels and groups, each period in force is checked: a change to its data (a
restated or late transaction, a snapshot fetched again with other figures, an edit of chains,
members or categories) flags it, says what changed, and fires an alert (folioscope alert inbox);
a rename (a label, a group's or counterparty's name) is noted on the close, which stays closed. Reopening asks for a reason and
is kept in the audit trail (folioscope audit --entity period); a reopened period can be closed
again. Without --wallet or --group: all wallets. --month M is from the eve of M to its last day.
Four eyes: prepare stores a close (its pack and hash) for another person to approve (it is then
closed, on the figures prepared; refused if the data behind them changed since, naming what) or
reject with a reason. add prepares and approves at once, by the same person, and the close says
so; on a team server a close is prepared, then approved by another person.
bundle writes the auditor's bundle of a close: one zip with its pack (PDF and CSV), its record
(hash, parts, who closed it), the audit trail and every input its hash covers, which
folioscope verify-bundle FILE checks with no cache and no network.
Exit codes: show exits 3 for a period flagged as changed since its close.`;

const usd = (n: number | null) => (n === null ? '—' : `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);

function line(c: PeriodClose): string {
  return [
    String(c.id),
    c.state,
    c.scope.name,
    `${c.from}..${c.to}`,
    (c.closedAt ?? c.rejectedAt ?? c.preparedAt ?? '').slice(0, 16).replace('T', ' '),
    usd(c.opening),
    usd(c.closing),
    c.hash.slice(0, 16),
  ]
    .map(forTerminal)
    .join('\t');
}

/** Who prepared a close and who approved it (UTC), or that one person did both. */
function people(c: PeriodClose): string {
  const prepared = `prepared ${c.preparedAt} UTC${c.preparedBy ? ` by ${c.preparedBy}` : ''}`;
  if (!c.approvedAt) return `${prepared}; ${c.state === 'prepared' ? 'waiting for approval by another person' : 'not approved'}`;
  return `${prepared}; approved ${c.approvedAt} UTC${c.approvedBy ? ` by ${c.approvedBy}` : ''}${c.samePerson ? ' (prepared and approved by the same person)' : ''}`;
}

function idOf(positionals: string[]): number {
  const raw = positionals[1];
  if (!raw || !/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw new UsageError(`Give the close's id (folioscope close list shows them).\n\n${CLOSE_USAGE}`);
  if (positionals.length > 2) throw new UsageError(`Unexpected argument "${forTerminal(positionals[2]!.slice(0, 40))}".\n\n${CLOSE_USAGE}`);
  return Number(raw);
}

export async function closeCommand(g: Globals, args: string[]): Promise<void> {
  const p = parse(
    args,
    {
      json: { type: 'boolean' },
      month: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      wallet: { type: 'string' },
      group: { type: 'string' },
      reason: { type: 'string' },
      out: { type: 'string' },
    },
    CLOSE_USAGE,
  );
  if (!p) return;
  const v = p.values;
  const sub = p.positionals[0];
  const only = (allowed: string[]) => {
    const extra = Object.keys(v).find((k) => !allowed.includes(k) && v[k as keyof typeof v] !== undefined);
    if (extra) throw new UsageError(`--${extra} does not go with close ${sub}.\n\n${CLOSE_USAGE}`);
  };
  switch (sub) {
    case 'list': {
      only(['json']);
      if (p.positionals.length > 1) throw new UsageError(`Unexpected argument "${forTerminal(p.positionals[1]!.slice(0, 40))}".\n\n${CLOSE_USAGE}`);
      return withCore(g, async (core) => {
        const closes = await call(core, 'closes.list', undefined);
        if (v.json) return void say(jsonForTerminal(closes));
        if (!closes.length) return void say('No closed periods.');
        say(['id', 'state', 'scope', 'period', 'closed (UTC; prepared, rejected)', 'opening', 'closing', 'hash'].join('\t'));
        for (const c of closes) say(line(c));
      });
    }
    case 'add':
    case 'prepare': {
      only(['json', 'month', 'from', 'to', 'wallet', 'group']);
      if (p.positionals.length > 1) throw new UsageError(`Unexpected argument "${forTerminal(p.positionals[1]!.slice(0, 40))}".\n\n${CLOSE_USAGE}`);
      if (v.wallet && v.group) throw new UsageError(`Use --wallet or --group, not both.\n\n${CLOSE_USAGE}`);
      if (v.month ? v.from || v.to : !v.from || !v.to) throw new UsageError(`Give --month, or --from and --to.\n\n${CLOSE_USAGE}`);
      if (v.month && !/^\d{4}-(0[1-9]|1[0-2])$/.test(v.month)) throw new UsageError(`--month takes a month, YYYY-MM.\n\n${CLOSE_USAGE}`);
      checkDateOptions(v, CLOSE_USAGE);
      return withCore(g, async (core) => {
        const group = v.group ? await resolveGroup(core, v.group) : undefined;
        const closed = await call(core, sub === 'add' ? 'closes.close' : 'closes.prepare', {
          ...(v.wallet && { wallet: v.wallet }),
          ...(group && { group: group.id }),
          ...(v.month ? { month: v.month } : { from: v.from!, to: v.to! }),
        });
        if (v.json) return void say(jsonForTerminal(closed));
        say(
          forTerminal(
            sub === 'add'
              ? `Closed ${closed.scope.name}, ${closed.from} to ${closed.to} (close ${closed.id}).`
              : `Prepared ${closed.scope.name}, ${closed.from} to ${closed.to} (close ${closed.id}): another person approves it (folioscope close approve ${closed.id}) or rejects it.`,
          ),
        );
        say(forTerminal(`  NAV ${usd(closed.opening)} → ${usd(closed.closing)}; SHA-256 of the data behind it: ${closed.hash}`));
        if (sub === 'add' && closed.samePerson) say(forTerminal(`  prepared and approved by the same person${closed.closedBy ? ` (${closed.closedBy})` : ''}`));
      });
    }
    case 'approve': {
      only(['json']);
      const id = idOf(p.positionals);
      return withCore(g, async (core) => {
        const c = await call(core, 'closes.approve', { id });
        if (v.json) return void say(jsonForTerminal(c));
        say(forTerminal(`Approved close ${c.id}: ${c.scope.name}, ${c.from} to ${c.to} is closed${c.closedBy ? ` by ${c.closedBy}` : ''}.`));
        say(forTerminal(`  ${people(c)}`));
      });
    }
    case 'reject': {
      only(['reason']);
      const id = idOf(p.positionals);
      if (!v.reason?.trim()) throw new UsageError(`Give a --reason for rejecting: it is kept with the close and in the audit trail.\n\n${CLOSE_USAGE}`);
      return withCore(g, async (core) => {
        const c = await call(core, 'closes.reject', { id, reason: v.reason! });
        say(forTerminal(`Rejected close ${c.id} (${c.scope.name}, ${c.from} to ${c.to}): ${c.rejectReason ?? ''}`));
      });
    }
    case 'show': {
      only(['json']);
      const id = idOf(p.positionals);
      return withCore(g, async (core) => {
        const c = await call(core, 'closes.get', { id });
        if (v.json) say(jsonForTerminal(c));
        else {
          say(forTerminal(`Close ${c.id}: ${c.scope.name}, ${c.from} to ${c.to} (${c.scope.members.length} wallet${c.scope.members.length === 1 ? '' : 's'})`));
          if (c.closedAt) say(forTerminal(`  closed ${c.closedAt}${c.closedBy ? ` by ${c.closedBy}` : ''}; SHA-256 ${c.hash}`));
          else say(forTerminal(`  ${c.state.toUpperCase()}, not closed; SHA-256 ${c.hash}`));
          if (c.preparedAt) say(forTerminal(`  ${people(c)}`));
          if (c.state === 'rejected') say(forTerminal(`  REJECTED ${c.rejectedAt}${c.rejectedBy ? ` by ${c.rejectedBy}` : ''}: ${c.rejectReason ?? ''}`));
          say(
            forTerminal(
              `  closed figures: NAV ${usd(c.pack.opening)} → ${usd(c.pack.closing)}; inflows ${usd(c.pack.inflows)}, outflows ${usd(c.pack.outflows)}, accruals ${usd(c.pack.accruals)}, price effect ${usd(c.pack.priceEffect)}`,
            ),
          );
          if (c.state === 'reopened') say(forTerminal(`  REOPENED ${c.reopenedAt}${c.reopenedBy ? ` by ${c.reopenedBy}` : ''}: ${c.reopenReason ?? ''}`));
          if (c.flag) {
            say(
              forTerminal(
                changesFigures(c.flag)
                  ? `  CHANGED SINCE CLOSE (found ${c.flaggedAt}): the closed figures above are kept as they were`
                  : `  NAMES EDITED SINCE CLOSE (found ${c.flag.at}): no figure changed; the period stays closed`,
              ),
            );
            for (const s of c.flag.summary) say(forTerminal(`    ${s}`));
          } else if (c.state === 'closed') say(forTerminal(`  unchanged at the last check (${c.checkedAt ?? 'never'})`));
        }
        if (c.state === 'flagged') setExitCode(3);
      });
    }
    case 'reopen': {
      only(['reason']);
      const id = idOf(p.positionals);
      if (!v.reason?.trim()) throw new UsageError(`Give a --reason for reopening: it is kept in the audit trail.\n\n${CLOSE_USAGE}`);
      return withCore(g, async (core) => {
        const c = await call(core, 'closes.reopen', { id, reason: v.reason! });
        say(forTerminal(`Reopened close ${c.id} (${c.scope.name}, ${c.from} to ${c.to}): ${c.reopenReason ?? ''}`));
      });
    }
    case 'bundle': {
      only(['out']);
      const id = idOf(p.positionals);
      if (!v.out) throw new UsageError(`Give --out FILE: where to write the bundle (a .zip).\n\n${CLOSE_USAGE}`);
      const out = resolvePath(v.out);
      return withCore(
        g,
        async (core) => {
          // Written as the app writes it (the contract's export.start, a job), to --out.
          const started = await call(core, 'export.start', { format: 'bundle', close: id });
          if (!started) throw new Error('The bundle was not started.');
          const [job] = await waitForJobs(core, [started]);
          if (!job || job.state !== 'done') throw new Error(job?.error?.message ?? 'The bundle was cancelled.');
          say(forTerminal(`Wrote the auditor's bundle of close ${id} to ${out}. Check it with: folioscope verify-bundle ${out}`));
        },
        { chooseSavePath: async () => out },
      );
    }
    default:
      throw new UsageError(sub ? `Unknown close command "${forTerminal(sub.slice(0, 40))}".\n\n${CLOSE_USAGE}` : CLOSE_USAGE);
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
    return void say(
      jsonForTerminal({ closeFlagged: { id: c.id, scope: c.scope.name, from: c.from, to: c.to, closedAt: c.closedAt, flaggedAt: c.flaggedAt, changes } }, 0),
    );
  say(
    forTerminal(
      `FLAGGED     close ${c.id}: ${c.scope.name}, ${c.from} to ${c.to} changed since its close (${changes.length} change${changes.length === 1 ? '' : 's'}; folioscope close show ${c.id})`,
    ),
  );
  for (const s of changes.slice(0, 5)) say(forTerminal(`            - ${s}`));
  if (changes.length > 5) say(`            - and ${changes.length - 5} more`);
}
