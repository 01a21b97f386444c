/**
 * `folioscope schedule` and `folioscope watch`: sync on a cadence, and the runs that are due
 * (once, for cron or a systemd timer, or every minute until stopped).
 */
import type { Alert, Cadence, DueRuns, Schedule, WalletGroup } from '../../../shared/model.ts';
import { forTerminal, jsonForTerminal } from '../../../shared/text-safety.ts';
import { describeCadence } from '../../core/index.ts';
import { call, EXIT_INCOMPLETE, type Globals, IncompleteError, parse, resolveGroup, UsageError, warmScreens, withCore } from '../context.ts';
import { say, warn } from '../io.ts';
import { printAlert } from './alerts.ts';
import { printFlagged, restatedText } from './close.ts';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** `--every hour --at :MM`, `--every day --at HH:MM`, `--every week --on DAY --at HH:MM`. */
function cadenceOf(v: { every?: string | undefined; at?: string | undefined; on?: string | undefined }, usage: string): Cadence {
  const time = /^(\d{1,2}):(\d{2})$/.exec(v.at ?? '');
  const minuteOnly = /^:?(\d{1,2})$/.exec(v.at ?? '');
  if (v.every === 'hour') {
    const m = minuteOnly ?? (time ? [time[0], time[2]] : null);
    const minute = m ? Number(m[1]) : 0;
    if (v.at !== undefined && (!m || minute > 59)) throw new UsageError(`--at for an hourly schedule is the minute, :00 to :59.\n\n${usage}`);
    return { every: 'hour', minute };
  }
  if (v.every !== 'day' && v.every !== 'week') throw new UsageError(`--every is hour, day or week.\n\n${usage}`);
  if (!time || Number(time[1]) > 23 || Number(time[2]) > 59)
    throw new UsageError(`--at HH:MM (00:00 to 23:59) is required for a ${v.every === 'day' ? 'daily' : 'weekly'} schedule.\n\n${usage}`);
  const [hour, minute] = [Number(time[1]), Number(time[2])];
  if (v.every === 'day') return { every: 'day', hour, minute };
  const weekday = WEEKDAYS.findIndex((d) => v.on !== undefined && v.on.length >= 2 && d.startsWith(v.on.toLowerCase()));
  if (weekday < 0) throw new UsageError(`--on DAY (monday … sunday) is required for a weekly schedule.\n\n${usage}`);
  return { every: 'week', weekday, hour, minute };
}

function scopeText(s: Schedule, groups: WalletGroup[]): string {
  if (s.scope.kind === 'all') return 'all wallets';
  if (s.scope.kind === 'wallet') return s.scope.address;
  const id = s.scope.id;
  return `group "${groups.find((x) => x.id === id)?.name ?? id}"`;
}

export async function scheduleCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope schedule add (--all | --wallet ADDRESS | --group NAME|ID) [--what positions|transactions|both]
                           --every hour [--at :MM] | --every day --at HH:MM | --every week --on DAY --at HH:MM [--zone utc|local]
       folioscope schedule list [--json]
       folioscope schedule remove ID
A time is in --zone (utc, or local: this computer's), else in the settings' time zone (UTC unless
set to local); each schedule keeps its zone when the setting changes. The app and the web shell
run due schedules while open; otherwise run \`folioscope watch --once\` from cron or a systemd timer.`;
  const p = parse(
    args,
    {
      all: { type: 'boolean' },
      wallet: { type: 'string' },
      group: { type: 'string' },
      what: { type: 'string' },
      every: { type: 'string' },
      at: { type: 'string' },
      on: { type: 'string' },
      zone: { type: 'string' },
      json: { type: 'boolean' },
    },
    usage,
  );
  if (!p) return;
  const [sub, id] = p.positionals;
  const v = p.values;
  if (sub !== 'add' && sub !== 'list' && sub !== 'remove') throw new UsageError(usage);
  await withCore(g, async (core) => {
    if (sub === 'add') {
      if ([v.all, v.wallet, v.group].filter(Boolean).length !== 1) throw new UsageError(`Choose one of --all, --wallet or --group.\n\n${usage}`);
      if (v.what !== undefined && !['positions', 'transactions', 'both'].includes(v.what))
        throw new UsageError(`--what is positions, transactions or both.\n\n${usage}`);
      if (v.zone !== undefined && v.zone !== 'utc' && v.zone !== 'local') throw new UsageError(`--zone is utc or local.\n\n${usage}`);
      const cadence = cadenceOf(v, usage);
      const scope = v.wallet
        ? { kind: 'wallet' as const, address: v.wallet }
        : v.group
          ? { kind: 'group' as const, id: (await resolveGroup(core, v.group)).id }
          : { kind: 'all' as const };
      const saved = await call(core, 'schedules.save', {
        scope,
        what: (v.what ?? 'both') as Schedule['what'],
        cadence,
        ...(v.zone !== undefined && { zone: v.zone as Schedule['zone'] }),
      });
      say(
        forTerminal(
          `Schedule ${saved.id}: ${saved.what} of ${scopeText(saved, await call(core, 'groups.list', undefined))}, ${describeCadence(saved.cadence, saved.zone)}; next run ${saved.nextSlot.slice(0, 16).replace('T', ' ')} UTC.`,
        ),
      );
    } else if (sub === 'list') {
      const list = await call(core, 'schedules.list', undefined);
      if (v.json) return void say(jsonForTerminal(list));
      if (!list.length) return void say('No schedules. Add one: folioscope schedule add --all --every day --at 06:00');
      const groups = await call(core, 'groups.list', undefined);
      say(['id', 'what', 'scope', 'when', 'next (UTC)', 'last run'].join('\t'));
      for (const x of list) {
        const last = x.lastRun ? `${x.lastRun.state} ${x.lastRun.finishedAt.slice(0, 16).replace('T', ' ')}` : 'never';
        say(
          [String(x.id), x.what, scopeText(x, groups), describeCadence(x.cadence, x.zone), x.nextSlot.slice(0, 16).replace('T', ' '), last]
            .map(forTerminal)
            .join('\t'),
        );
      }
    } else {
      if (!id || !/^\d+$/.test(id)) throw new UsageError(usage);
      if (!(await call(core, 'schedules.remove', { id: Number(id) }))) throw new Error(`There is no schedule ${forTerminal(id.slice(0, 20))}.`);
      say(`Schedule ${id} removed.`);
    }
  });
}

export async function watchCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope watch [--once] [--json] [--no-warm]
  Runs the scheduled syncs that are due (see folioscope schedule): each once, however many runs
  were missed while nothing was running; never two processes at once on one cache. After runs,
  the app's last screens are prepared from the new data, so the app opens on them at once.
  --once   run what is due now and exit (for cron or a systemd timer); without it, keep
           running and look every minute until stopped (Ctrl-C or SIGTERM: the jobs in flight
           stop, what they wrote is kept, and their schedule runs again next time)
  --json   one JSON object per schedule run on standard output (each job with the cached rows
           it restated: {"late","changed","removed"}), then one {"closeFlagged": …} per closed
           period the runs changed, then one {"alert": …} per alert that fired during the run
           (see folioscope alert)
  --no-warm  end without preparing the app's last screens
Exit codes (--once): 0 every run was complete (or none was due); 1 a run failed; ${EXIT_INCOMPLETE} a run was incomplete.`;
  const p = parse(args, { once: { type: 'boolean' }, json: { type: 'boolean' }, 'no-warm': { type: 'boolean' } }, usage);
  if (!p) return;
  if (p.positionals.length) throw new UsageError(usage);
  const v = p.values;
  await withCore(g, async (core) => {
    // Alerts that fire while the runs go on (after each job, and after the runs) are printed after the runs' lines.
    const fired: Alert[] = [];
    core.on('alert.fired', (a) => fired.push(a));
    const report = async (due: DueRuns) => {
      // What the runs' jobs set off (rules, alert rules, closed periods' checks) is done first, so
      // a closed period a run changed is said after its lines, and its alert with the others.
      const { flagged } = await call(core, 'sync.settle', undefined);
      if (due.skipped) warn(forTerminal(`Skipped: ${due.skipped}.`));
      for (const run of due.runs) {
        if (v.json) {
          const jobs = run.jobs.map((j) => ({
            label: j.label,
            wallet: j.wallet,
            state: j.state,
            rows: j.rows ?? null,
            restated: j.restated ?? null,
            completeness: j.completeness ?? null,
            error: j.error?.message ?? null,
          }));
          say(
            jsonForTerminal(
              { schedule: run.schedule, slot: run.slot, startedAt: run.startedAt, finishedAt: run.finishedAt, state: run.state, note: run.note, jobs },
              0,
            ),
          );
        } else {
          const [head, ...lines] = run.note.split('\n');
          say(
            forTerminal(
              `${run.state === 'ok' ? 'ok         ' : run.state === 'incomplete' ? 'INCOMPLETE ' : 'FAILED     '} schedule ${run.schedule} (${run.slot.slice(0, 16).replace('T', ' ')} UTC): ${head}`,
            ),
          );
          for (const l of lines) say(forTerminal(`            - ${l}`));
          for (const j of run.jobs) {
            const restated = restatedText(j);
            if (restated) say(forTerminal(`            - ${j.label}: ${restated}`));
          }
        }
      }
      for (const c of flagged) printFlagged(c, v.json ?? false);
      for (const a of fired.splice(0)) printAlert(a, v.json ?? false);
      if (due.runs.length && !v['no-warm']) await warmScreens(core);
    };
    if (v.once) {
      const due = await call(core, 'schedules.runDue', undefined);
      await report(due);
      if (!v.json && !due.runs.length && !due.skipped) say('Nothing is due.');
      if (due.runs.some((r) => r.state === 'failed')) throw new Error(`${due.runs.filter((r) => r.state === 'failed').length} scheduled run(s) failed.`);
      if (due.runs.some((r) => r.state === 'incomplete')) throw new IncompleteError('A scheduled run finished incomplete.');
      return;
    }
    let stopping = false;
    let wake: (() => void) | null = null;
    const stop = () => {
      stopping = true;
      // The jobs in flight stop; what they wrote is kept and their schedule is not marked as run.
      void core.request('sync.jobs', undefined).then((jobs) => {
        for (const j of jobs) if (j.state === 'queued' || j.state === 'running') void core.request('sync.cancel', { jobId: j.id });
      });
      wake?.();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    try {
      if (!v.json) say('Watching the schedules (Ctrl-C to stop).');
      while (!stopping) {
        await report(await call(core, 'schedules.runDue', undefined));
        if (stopping) break;
        // To the start of the next minute (slots are whole minutes).
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 60_000 - (Date.now() % 60_000) + 50);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  });
}
