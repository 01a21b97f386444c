/** `folioscope sync`: positions and transactions into the cache, each job's outcome in one line, and the exit code says how complete. */
import type { JobInfo } from '../../../shared/model.ts';
import { forTerminal } from '../../../shared/text-safety.ts';
import { call, checkDateOptions, EXIT_INCOMPLETE, type Globals, IncompleteError, parse, UsageError, waitForJobs, warmScreens, withCore } from '../context.ts';
import { say } from '../io.ts';
import { printFlagged, restatedText } from './close.ts';

export async function syncCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope sync [--wallet ADDRESS] [--date YYYY-MM-DD | --from YYYY-MM-DD --to YYYY-MM-DD [--every day|week|month]]
                       [--no-transactions] [--no-positions] [--no-warm]
Each job prints ok, INCOMPLETE (why, and what to do) or FAILED, and a transactions job the cached
rows the service restated and it applied (added late, changed, removed); then a FLAGGED line for
each closed period whose data this sync changed (folioscope close show ID). It then prepares the
app's last screens from the new data, so the app opens on them at once (--no-warm: it does not).
Exit codes: 0 everything asked for is complete; 1 a job failed; 2 usage error;
  ${EXIT_INCOMPLETE} every job finished but some data is incomplete (e.g. the service is still indexing, or
  an anomaly in its answers could not be resolved).`;
  const p = parse(
    args,
    {
      wallet: { type: 'string' },
      date: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      every: { type: 'string' },
      'no-transactions': { type: 'boolean' },
      'no-positions': { type: 'boolean' },
      'no-warm': { type: 'boolean' },
    },
    usage,
  );
  if (!p) return;
  const v = p.values;
  if (v.date && (v.from || v.to)) throw new UsageError(`Use --date or --from/--to, not both.\n\n${usage}`);
  if ((v.from === undefined) !== (v.to === undefined)) throw new UsageError(`--from and --to go together.\n\n${usage}`);
  if (v.every && !['day', 'week', 'month'].includes(v.every)) throw new UsageError('--every is day, week or month');
  checkDateOptions(v, usage);
  await withCore(g, async (core) => {
    const wallets: Array<{ address: string }> = v.wallet ? [{ address: v.wallet }] : await call(core, 'wallets.list', undefined);
    if (!wallets.length) throw new Error('No wallets are watched. Add one: folioscope wallet add ADDRESS --chains eth');
    const jobs: JobInfo[] = [];
    for (const w of wallets) {
      if (!v['no-positions']) {
        jobs.push(
          v.from && v.to
            ? await call(core, 'sync.backfill', { wallet: w.address, from: v.from, to: v.to, every: (v.every ?? 'day') as 'day' | 'week' | 'month' })
            : await call(core, 'sync.positions', { wallet: w.address, ...(v.date && { date: v.date }) }),
        );
      }
      if (!v['no-transactions']) jobs.push(await call(core, 'sync.transactions', { wallet: w.address }));
    }
    const finished = await waitForJobs(core, jobs);
    // The checks the jobs set off (rules, alert rules, closed periods) are done before the lines
    // are printed: a closed period this sync changed is said with it, not found later.
    const { flagged } = await call(core, 'sync.settle', undefined);
    const failed = finished.filter((j) => j.state !== 'done');
    const incomplete = finished.filter((j) => j.state === 'done' && j.completeness && j.completeness.state !== 'complete');
    // Labels, reasons and the service's error text are shown neutralised (terminal escapes, bidi controls).
    for (const j of finished) {
      const counts = ` (${j.done}${j.total !== null ? `/${j.total}` : ''})`;
      if (j.state !== 'done') say(forTerminal(`FAILED      ${j.label}: ${j.error?.message ?? j.state}`));
      else if (incomplete.includes(j)) {
        say(forTerminal(`INCOMPLETE  ${j.label}${counts}`));
        for (const why of j.completeness!.reasons) say(forTerminal(`            - ${why}`));
        if (j.completeness!.action) say(forTerminal(`            ${j.completeness!.action}`));
      } else say(forTerminal(`ok          ${j.label}${counts}`));
      const restated = restatedText(j);
      if (restated) say(forTerminal(`            ${restated}`));
    }
    for (const c of flagged) printFlagged(c, false);
    if (!v['no-warm']) await warmScreens(core);
    if (failed.length) throw new Error(`${failed.length} of ${finished.length} sync jobs failed.`);
    if (incomplete.length) throw new IncompleteError(`${incomplete.length} of ${finished.length} sync jobs finished incomplete.`);
  });
}
