/** `folioscope audit`: the edits made to the user's own data, newest first. */
import { describeEdit } from '../../../shared/audit.ts';
import { forTerminal, jsonForTerminal } from '../../../shared/text-safety.ts';
import { call, type Globals, parse, UsageError, withCore } from '../context.ts';
import { say } from '../io.ts';

export async function auditCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope audit [--entity KIND] [--item KEY] [--person WHO] [--limit N] [--json]
The edits made to your own data (wallets, groups, settings, schedules, alert rules, the
address book, notes, categories, rules, closed periods, spam verdicts and lists), newest first:
when, who and from where (the app, the web shell, the command line or a scheduled run), which
operation, and what changed from what to what. KIND: wallet, group, setting, schedule,
alert-rule, counterparty, note, category, rule, period, spam-verdict, spam-list. WHO: a person as
the trail names them (on a desktop, the system's account at the machine: alice@laptop). The
whole trail as a file:
folioscope export csv --report audit --out FILE [--from D --to D].`;
  const p = parse(
    args,
    { entity: { type: 'string' }, item: { type: 'string' }, person: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } },
    usage,
  );
  if (!p) return;
  if (p.positionals.length) throw new UsageError(usage);
  const limit = p.values.limit === undefined ? 50 : Number(p.values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError(`--limit must be a whole number from 1 to 1000.\n\n${usage}`);
  await withCore(g, async (core) => {
    const { entries, total } = await call(core, 'audit.list', {
      ...(p.values.entity !== undefined && { entity: p.values.entity }),
      ...(p.values.item !== undefined && { key: p.values.item }),
      ...(p.values.person !== undefined && { person: p.values.person }),
      limit,
    });
    if (p.values.json) {
      say(jsonForTerminal(entries));
      return;
    }
    if (!entries.length) {
      say('No edits recorded.');
      return;
    }
    say(['at', 'by', 'from', 'origin', 'edit'].join('\t'));
    // An edit recorded before the trail named people says so, rather than naming anyone.
    for (const e of entries) say([e.at, e.person ?? '(not recorded)', e.via ?? '-', e.origin, describeEdit(e)].map(forTerminal).join('\t'));
    if (total > entries.length) say(`(${entries.length} of ${total} edits; --limit N for more, or export csv --report audit)`);
  });
}
