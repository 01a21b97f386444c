/** `folioscope export`: CSV, PDF and iCalendar files from the cache, as the app's export job writes them, to --out. */
import { resolve as resolvePath } from 'node:path';
import { CSV_REPORTS, type CsvReport } from '../../../shared/contract.ts';
import { monthPeriod } from '../../../shared/months.ts';
import { forTerminal } from '../../../shared/text-safety.ts';
import { call, checkDateOptions, type Globals, IncompleteError, parse, resolveGroup, UsageError, waitForJobs, withCore } from '../context.ts';
import { say } from '../io.ts';

export async function exportCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage:
  folioscope export csv --report ${CSV_REPORTS.join('|')}
                        [--wallet ADDRESS | --group NAME|ID] [--date YYYY-MM-DD] [--from YYYY-MM-DD --to YYYY-MM-DD] --out FILE
  folioscope export pdf [--wallet ADDRESS | --group NAME|ID] [--date YYYY-MM-DD] [--from YYYY-MM-DD --to YYYY-MM-DD] --out FILE
  folioscope export pdf --document pack (--month YYYY-MM | --from D --to D) [--wallet ADDRESS | --group NAME|ID] --out FILE
  folioscope export ics [--wallet ADDRESS | --group NAME|ID] [--date YYYY-MM-DD] --out FILE
Reports are built from the local cache only. --date defaults to the newest cached date.
--group covers the group's members only (a PDF is then that group's report, titled with its name).
ics: the unlock ladder as an iCalendar file (one all-day event per unlock on or after --date).
The monthly pack (--document pack, or csv --report pack) covers --month (its eve to its last day) or --from..--to.
csv --report transactions also takes --category NAME[,NAME] and --uncategorised (either matches).`;
  const p = parse(
    args,
    {
      report: { type: 'string' },
      wallet: { type: 'string' },
      group: { type: 'string' },
      date: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      month: { type: 'string' },
      document: { type: 'string' },
      out: { type: 'string' },
      category: { type: 'string' },
      uncategorised: { type: 'boolean' },
    },
    usage,
  );
  if (!p) return;
  const [kind] = p.positionals;
  const v = p.values;
  if (v.document !== undefined && (kind !== 'pdf' || (v.document !== 'pack' && v.document !== 'portfolio')))
    throw new UsageError(`--document is pdf's: pack or portfolio.\n\n${usage}`);
  const isPack = v.document === 'pack' || (kind === 'csv' && v.report === 'pack');
  if (v.month !== undefined) {
    if (!isPack) throw new UsageError(`--month is for the monthly pack (--document pack, or csv --report pack).\n\n${usage}`);
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(v.month)) throw new UsageError(`--month ${forTerminal(v.month.slice(0, 20))} is not a month: use YYYY-MM.\n\n${usage}`);
    if (v.from || v.to) throw new UsageError(`Use --month or --from/--to, not both.\n\n${usage}`);
    Object.assign(v, monthPeriod(v.month));
  }
  if (isPack && (!v.from || !v.to)) throw new UsageError(`The monthly pack needs --month, or --from and --to.\n\n${usage}`);
  if (kind !== 'csv' && kind !== 'pdf' && kind !== 'ics') throw new UsageError(usage);
  if (!v.out) throw new UsageError(`--out FILE is required.\n\n${usage}`);
  if (v.wallet && v.group) throw new UsageError(`Use --wallet or --group, not both.\n\n${usage}`);
  checkDateOptions(v, usage);
  if (kind === 'csv' && !(CSV_REPORTS as readonly string[]).includes(v.report ?? ''))
    throw new UsageError(`--report must be one of ${CSV_REPORTS.join(', ')}.\n\n${usage}`);
  const out = resolvePath(v.out);
  // The export runs as the app's does (the contract's export.start, a job), written to --out.
  await withCore(
    g,
    async (core) => {
      const group = v.group ? await resolveGroup(core, v.group) : undefined;
      // The newest date cached for the scope asked (a group's, not every wallet's).
      const date = v.date ?? (await call(core, 'positions.dates', { ...(v.wallet && { wallet: v.wallet }), ...(group && { group: group.id }) }))[0];
      if ((kind === 'pdf' || kind === 'ics') && !date && !isPack) throw new Error('No positions are cached yet: sync first (folioscope sync).');
      const report = kind === 'csv' ? (v.report as CsvReport) : undefined;
      const started = await call(core, 'export.start', {
        format: kind,
        ...(report && { report }),
        ...(isPack && kind === 'pdf' && { document: 'pack' as const }),
        ...(v.wallet && { wallet: v.wallet }),
        ...(group && { group: group.id }),
        // The transactions report has no as-of date: its completeness is judged over --from..--to (to now).
        ...(date && report !== 'transactions' && !isPack && { date }),
        ...(kind !== 'ics' && v.from && { from: v.from }),
        ...(kind !== 'ics' && v.to && { to: v.to }),
        ...(report === 'transactions' &&
          (v.category !== undefined || v.uncategorised) && {
            filter: {
              ...(v.category !== undefined && {
                categories: v.category
                  .split(',')
                  .map((c) => c.trim())
                  .filter(Boolean),
              }),
              ...(v.uncategorised && { uncategorised: true }),
            },
          }),
      });
      if (!started) throw new Error('The export was not started.');
      const [job] = await waitForJobs(core, [started]);
      if (!job || job.state !== 'done') throw new Error(job?.error?.message ?? 'The export was cancelled.');
      const incomplete = job.completeness && job.completeness.state !== 'complete' ? job.completeness : null;
      if (kind === 'csv') say(`Wrote ${job.output?.rows ?? 0} rows to ${out}.`);
      else if (kind === 'ics') {
        const events = job.output?.rows ?? 0;
        say(`Wrote ${events} unlock${events === 1 ? '' : 's'} (on or after ${date}) to ${out}.`);
      } else if (isPack)
        say(
          `Wrote a ${job.output?.pages ?? 0}-page monthly pack${group ? ` for the group "${forTerminal(group.name)}"` : ''} (${v.from} to ${v.to}) to ${out}.`,
        );
      else say(`Wrote a ${job.output?.pages ?? 0}-page report${group ? ` for the group "${forTerminal(group.name)}"` : ''} (as of ${date}) to ${out}.`);
      // A file that does not cover all it stands for says so in itself (a note, a column, the
      // PDF's summary); here it says why. Partial figures (a member not cached) exit 3 so a
      // script (cron) can tell; a transactions period not yet proved is a Note, as it always was.
      if (incomplete) {
        // Every file says so in itself but the transactions CSV, whose rows have no coverage column.
        const says = kind === 'csv' && report === 'transactions' ? 'the CSV itself cannot say so: keep this note with it' : 'the file says so';
        say(
          `Note: the ${kind === 'pdf' ? 'report' : 'export'} is incomplete (${says}):\n${incomplete.reasons.map((r) => `  - ${forTerminal(r)}`).join('\n')}\n${forTerminal(incomplete.action ?? '')}`,
        );
        if (incomplete.partial) throw new IncompleteError(`The ${kind === 'pdf' ? 'report' : 'export'} is partial: its figures leave out what is not cached.`);
      }
    },
    { chooseSavePath: async () => out },
  );
}
