import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { runSimCli } from '../../sim/cli.ts';
import { demoStarter } from '../../sim/demo.ts';
import {
  CACHE_KEY_SERVICE,
  CacheProblemError,
  createCore,
  type Core,
  type CoreOptions,
  databaseFileFor,
  defaultDataDir,
  describeCadence,
  ENV_BASE_URL,
  ENV_KEY,
  encryptionStatus,
  KEYCHAIN_SERVICE,
  loadFolderKey,
  MAX_KEY_LENGTH,
  MIN_KEY_LENGTH,
  moveCacheAside,
  normaliseBaseUrl,
  PASSPHRASE_ENV,
  readAppConfig,
  Secrets,
  systemKeychain,
  writeAppConfig,
} from '../core/index.ts';
import { argumentProblem, bindNegativeValues } from '../../shared/args.ts';
import type { EncryptionStatus } from '../../shared/model.ts';
import { progressPrinter } from './progress.ts';
import { RATE_LIMITED_WAIT } from '../../shared/progress-text.ts';
import { resolve as resolvePath } from 'node:path';
import type { BackupInfo, Cadence, DueRuns, JobInfo, Schedule, UserDataPreview, WalletGroup } from '../../shared/model.ts';
import { CSV_REPORTS, type CsvReport, type InputOf, LIMITS, type OutputOf } from '../../shared/contract.ts';
import type { OperationName } from '../../shared/operations.ts';
import { isoDateToUtcMs } from '../../shared/dates.ts';
import { forTerminal, jsonForTerminal } from '../../shared/text-safety.ts';
import { describeEdit } from '../../shared/audit.ts';
import { monthPeriod } from '../../shared/months.ts';
import { DOCTOR_USAGE, formatDoctor } from './doctor.ts';
import { closeCommand, printFlagged, restatedText } from './close.ts';
import { ALERT_USAGE, describeCondition, describeScope, printAlert, ruleLine } from './alerts.ts';
import type { Alert, AlertCondition } from '../../shared/model.ts';
import {
  CATEGORIES_USAGE,
  CONDITION_OPTIONS,
  conditionsFrom,
  NOTES_USAGE,
  printCategories,
  printRules,
  RULES_USAGE,
  unknownActionTypes,
  unknownActionTypesLine,
} from './annotations.ts';
import { COUNTERPARTIES_USAGE, counterpartyLine, printImport, readCsvFile, writeCsvFile } from './counterparties.ts';

/**
 * The command line: `folioscope [--data-dir DIR] [--base-url URL] <command> ...`.
 * Every command has --help; a failure prints one line on stderr and exits non-zero.
 */
const ROOT = join(import.meta.dirname, '../../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const USAGE = `Folioscope ${VERSION}: local-first wallet portfolio tracker

Usage: folioscope [--data-dir DIR] [--base-url URL] <command> [options]

Commands:
  sim       run the reference service
  serve     run the web shell on 127.0.0.1
  key       set, clear or show the status of the access key (set | clear | status)
  wallet    watch wallets (add | list | remove)
  group     name sets of wallets that exports, reports and reconcile can cover (save | list | remove)
  sync      fetch positions and transactions into the cache
  export    write CSV, PDF or iCalendar reports from the cache (works offline)
  cache     encryption at rest (encrypt | decrypt | status); move a damaged cache aside (move-aside)
  reconcile roll-forward of holdings between two cached dates (works offline)
  portfolio totals of a wallet, a group or all wallets at a cached date, and what they cover (works offline)
  doctor    check the service and print what was learned about it
  schedule  sync wallets on a cadence (add | list | remove)
  watch     run the scheduled syncs that are due (--once for cron and systemd timers)
  backup    checked copies of the cache (list | create | verify NAME | restore NAME)
  data      your wallets, groups, schedules, alert rules and settings as a file (export | import)
  alert     rules over the cached data, and the alerts they fired (add | list | remove | inbox | ack | snooze | check)
  notes     a transaction's note and category (set | show | orphans)
  rules     rules that set transactions' categories (list | add | remove | apply | preview)
  categories the categories of notes and rules (list)
  audit     the edits you made to your own data, newest first, with before and after (export csv --report audit for all)
  counterparties  the address book: names for addresses (list | add | remove | import FILE | export --out FILE)
  close     closed periods: a scope's month frozen with the hash of its data, flagged if that data changes (list | add | show | reopen)

Global options:
  --data-dir DIR   where the cache lives (default: ${defaultDataDir()})
  --base-url URL   the service to use; without one (and none saved), demo mode
  --read-only      open the cache read-only (a damaged or unwritable one): view and export
  -h, --help       help, for any command

Environment: FOLIOSCOPE_ACCESS_KEY overrides the keychain, for the service named by FOLIOSCOPE_BASE_URL
(else --base-url) only (${MIN_KEY_LENGTH} to ${MAX_KEY_LENGTH} printable ASCII characters); FOLIOSCOPE_DATA_DIR;
FOLIOSCOPE_CACHE_PASSPHRASE opens a data folder encrypted with a passphrase (cache encrypt --passphrase-stdin).

Exit codes: 0 done (sync: everything asked for is complete), 1 failed, 2 usage error,
  3 sync finished but incomplete (the lines marked INCOMPLETE say why and what to do); also an
    export or portfolio whose figures leave out what is not cached, or a reconcile with a figure not cached (a note says why).`;

/** Finished, but not everything asked for is proved complete (sync, export, reconcile). */
export const EXIT_INCOMPLETE = 3;
class IncompleteError extends Error {}

class UsageError extends Error {}

/**
 * The date options of a command, checked as the contract checks them (a real calendar day,
 * a range that does not end before it starts) before anything is read or written.
 */
function checkDateOptions(v: { date?: string | undefined; from?: string | undefined; to?: string | undefined }, usage: string): void {
  for (const name of ['date', 'from', 'to'] as const) {
    const value = v[name];
    if (value !== undefined && isoDateToUtcMs(value) === null)
      throw new UsageError(`--${name} ${forTerminal(value.slice(0, 40))} is not a date: use a real calendar day, YYYY-MM-DD.\n\n${usage}`);
  }
  if (v.from && v.to && v.from > v.to) throw new UsageError(`--to ${v.to} is before --from ${v.from}.\n\n${usage}`);
}

/**
 * One plain sentence for what node:util's parseArgs refused (its own text explains its API,
 * not the command); the command's usage follows it.
 */
export interface Globals {
  dataDir: string;
  baseUrl: string | undefined;
  readOnly: boolean;
  version: string;
}

/** A command of the program: the CLI's own, or one another shell hands it (see src/main/folioscope.ts). */
export type Command = (g: Globals, args: string[]) => Promise<void>;

function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, usage: string) {
  let parsed;
  try {
    parsed = parseArgs({
      args: bindNegativeValues(args, options),
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(`${argumentProblem(err as Error & { code?: string }, args)}\n\n${usage}`);
  }
  if ((parsed.values as Record<string, unknown>)['help']) {
    console.log(usage);
    return null;
  }
  return parsed;
}

async function withCore<T>(g: Globals, fn: (core: Core) => Promise<T>, options: Pick<CoreOptions, 'chooseSavePath'> = {}): Promise<T> {
  const core = await createCore({
    dataDir: g.dataDir,
    shell: 'cli',
    version: VERSION,
    demo: demoStarter(),
    ...(g.baseUrl !== undefined && { baseUrl: g.baseUrl }),
    ...(g.readOnly && { readOnlyCache: true }),
    ...options,
  });
  try {
    await warnDemoWithKey(g);
    return await fn(core);
  } finally {
    await core.close();
  }
}

/**
 * Demo data read while a key is kept for a real service: the user most likely meant that
 * service (a key set without making it the configured one, an environment key without its
 * URL), and demo figures look like real ones but for their labels. Said on stderr, one line.
 * A keychain key counts when this data folder has a cache for its service (it was used here):
 * the keychain is the user's, shared by every data folder.
 */
async function warnDemoWithKey(g: Globals): Promise<void> {
  // Read as the session reads it, without asking the core (whose answer asks the keychain).
  if (g.baseUrl ?? process.env[ENV_BASE_URL] ?? readAppConfig(g.dataDir).baseUrl) return;
  if (process.env[ENV_KEY]) {
    console.error(
      `folioscope: warning: ${ENV_KEY} is set, but no service is configured, so this reads demo data. Name the service the key is for: --base-url URL (or ${ENV_BASE_URL}=URL).`,
    );
    return;
  }
  if (!existsSync(g.dataDir) || !readdirSync(g.dataDir).some((f) => /^live-[0-9a-f]+\.sqlite$/.test(f))) return;
  let accounts: string[] = [];
  try {
    accounts = (await systemKeychain(KEYCHAIN_SERVICE, { cli: true }).accounts?.()) ?? [];
  } catch {
    // No keychain: no key kept there to speak of.
  }
  const used = (account: string) => {
    try {
      return existsSync(databaseFileFor(g.dataDir, account));
    } catch {
      return false;
    }
  };
  const services = accounts.filter(used);
  if (!services.length) return;
  const first = forTerminal(services[0]!.slice(0, 200));
  console.error(
    `folioscope: warning: this reads demo data, though the system keychain holds an access key for ${first}${services.length > 1 ? ` (and ${services.length - 1} other service${services.length > 2 ? 's' : ''})` : ''}, which this data folder has a cache for. Use it with --base-url ${first}; to make that the data folder's service, set its key with: folioscope --base-url ${first} key set`,
  );
}

/** Runs an operation through the contract (validated as from any shell); a failure is thrown with its message. */
function call<K extends OperationName>(core: Core, op: K, input: InputOf<K>): Promise<OutputOf<K>> {
  return core.request(op, input);
}

async function waitForJobs(core: Core, jobs: JobInfo[]): Promise<JobInfo[]> {
  const bar = progressPrinter();
  const pending = new Map(jobs.map((j) => [j.id, j]));
  const finished: JobInfo[] = [];
  const ended = (info: JobInfo) => info.state === 'done' || info.state === 'failed' || info.state === 'cancelled';
  await new Promise<void>((resolve) => {
    const end = (info: JobInfo) => {
      pending.delete(info.id);
      finished.push(info);
      if (!pending.size) {
        off();
        resolve();
      }
    };
    const said = new Map<string, string>();
    const off = core.on('sync.progress', (info) => {
      if (!pending.has(info.id)) return;
      // A wait for the service's rate limit is said on its own line, also where no bar is drawn (cron, logs).
      if (info.phase.startsWith(RATE_LIMITED_WAIT) && said.get(info.id) !== info.phase) {
        said.set(info.id, info.phase);
        bar.done();
        console.error(`folioscope: ${forTerminal(info.label)}: ${info.phase}`);
      }
      bar.update(info);
      if (ended(info)) end(info);
    });
    // A job that ended before the listener was added (a quick export) is read from the job list.
    void core.request('sync.jobs', undefined).then((all) => {
      for (const info of all) if (pending.has(info.id) && ended(info)) end(info);
    });
    if (!pending.size) {
      off();
      resolve();
    }
  });
  bar.done();
  return finished;
}

/** A wallet group named by its name (any case) or its id; a clear error when there is none. */
async function resolveGroup(core: Core, nameOrId: string): Promise<WalletGroup> {
  const groups = await call(core, 'groups.list', undefined);
  const byName = groups.find((x) => x.name.toLowerCase() === nameOrId.trim().toLowerCase());
  const g = byName ?? (/^\d+$/.test(nameOrId) ? groups.find((x) => x.id === Number(nameOrId)) : undefined);
  if (!g)
    throw new Error(
      `There is no wallet group "${forTerminal(nameOrId.slice(0, 100))}"${groups.length ? ` (groups: ${groups.map((x) => `${x.id} ${forTerminal(x.name)}`).join(', ')})` : ''}. Make one: folioscope group save NAME --wallets A,B`,
    );
  if (!g.wallets.length) throw new Error(`The group "${forTerminal(g.name)}" has no wallets.`);
  return g;
}

const commands: Record<string, Command> = {
  export: (g, args) => exportCommand(g, args),
  group: (g, args) => groupCommand(g, args),
  schedule: (g, args) => scheduleCommand(g, args),
  watch: (g, args) => watchCommand(g, args),
  backup: (g, args) => backupCommand(g, args),
  data: (g, args) => dataCommand(g, args),
  alert: (g, args) => alertCommand(g, args),
  audit: (g, args) => auditCommand(g, args),
  notes: (g, args) => notesCommand(g, args),
  rules: (g, args) => rulesCommand(g, args),
  categories: (g, args) => categoriesCommand(g, args),
  counterparties: (g, args) => counterpartiesCommand(g, args),
  close: (g, args) =>
    closeCommand(
      {
        parse,
        withCore: (fn) => withCore(g, fn),
        call,
        resolveGroup,
        usageError: (message) => new UsageError(message),
        checkDates: checkDateOptions,
      },
      args,
    ),

  cache: (g, args) => cacheCommand(g, args),
  reconcile: (g, args) => reconcileCommand(g, args),
  portfolio: (g, args) => portfolioCommand(g, args),

  async doctor(g, args) {
    const p = parse(args, { cached: { type: 'boolean' }, json: { type: 'boolean' }, 'recent-window': { type: 'string' } }, DOCTOR_USAGE);
    if (!p) return;
    const widthArg = p.values['recent-window'];
    // Hours, or `auto` (the default widened by what is learned): checked before anything is written.
    if (widthArg !== undefined && widthArg !== 'auto' && !(/^\d{1,4}$/.test(widthArg) && +widthArg >= 1 && +widthArg <= LIMITS.recentWindowHours)) {
      const shown = forTerminal(widthArg.slice(0, 40));
      const most = LIMITS.recentWindowHours.toLocaleString('en-US');
      // A number past the limit (1e308, Infinity) is too wide, which says more than "not a width".
      const tooWide = widthArg.trim() !== '' && Number(widthArg) > LIMITS.recentWindowHours;
      throw new UsageError(
        `--recent-window ${shown} is ${tooWide ? `too wide: the recent window is at most ${most} hours;` : 'not a width:'} use whole hours from 1 to ${most}, or auto.\n\n${DOCTOR_USAGE}`,
      );
    }
    const check = await withCore(g, async (core) => {
      if (widthArg !== undefined) {
        await call(core, 'settings.update', { recentWindowHours: widthArg === 'auto' ? null : Number(widthArg) });
        // Said before the check, which may fail on its own (a service out of reach): the setting is kept either way.
        if (!p.values.json) console.log(`Recent window re-read: ${widthArg === 'auto' ? 'automatic' : `at least ${widthArg} hours`} for this service (saved).`);
      }
      return call(core, 'service.doctor', { run: !p.values.cached });
    });
    // The service's text is in the check: --json escapes what could steer a terminal, as every --json does.
    process.stdout.write(p.values.json ? jsonForTerminal(check) + '\n' : formatDoctor(check));
    if (check.items.some((i) => i.status === 'failed')) process.exitCode = 1;
  },
  async sim(_g, args) {
    await runSimCli(args);
  },

  async key(g, args) {
    const usage = `Usage: folioscope key set | clear | status
  set      reads the key from standard input, checks it with the service and stores it in the OS keychain
           (${MIN_KEY_LENGTH} to ${MAX_KEY_LENGTH} printable ASCII characters; without a keychain, use FOLIOSCOPE_ACCESS_KEY);
           with --base-url, makes that URL the data folder's service once it takes the key (a key it
           refuses is not stored; one it cannot check now is stored, the service left as it was, exit 3)
  clear    removes it
  status   says whether one is set (never the key)`;
    const p = parse(args, {}, usage);
    if (!p) return;
    const [sub] = p.positionals;
    // Demo mode needs no key: said before a core (and its demo service) is started for nothing.
    if (!(g.baseUrl ?? process.env['FOLIOSCOPE_BASE_URL'] ?? readAppConfig(g.dataDir).baseUrl))
      throw new Error('No service is configured: pass --base-url URL (demo mode needs no key).');
    if (sub !== 'set' && sub !== 'clear' && sub !== 'status') throw new UsageError(usage);
    // Read before the core opens: nothing is started for a key that is not there.
    const read = sub === 'set' ? readFileSync(0, 'utf8').trim() : '';
    if (sub === 'set' && !read) throw new Error('No key on standard input: echo "$KEY" | folioscope key set');
    // A key that breaks the format rules (too short, spaces) is refused before anything else is asked.
    const key = read && Secrets.checkFormat(read);
    await withCore(g, async (core) => {
      const info = await call(core, 'app.info', undefined);
      if (info.mode === 'demo' || !info.baseUrl) throw new Error('No service is configured: pass --base-url URL (demo mode needs no key).');
      const url = info.baseUrl;
      if (sub === 'set') {
        // Without a keychain the CLI has nowhere to keep the key: said before it goes to the service.
        const before = await call(core, 'key.status', undefined);
        if (!before.keychainAvailable && before.keychainProblem) throw new Error(before.keychainProblem);
        // As in the app: a key the service refuses replaces nothing.
        const status = await call(core, 'key.set', { key });
        console.log(`Key stored in the ${status.source === 'keychain' ? 'system keychain' : status.source} for ${url}.`);
        if (status.check.state !== 'accepted') console.error(forTerminal(`Not checked: ${status.check.message}`));
        // A key set for the URL of the command line makes that the data folder's service, as
        // connecting in Settings does: later commands without --base-url use it, not demo data.
        // Only a service that answered and took the key: a mistyped URL that answers nothing
        // must not replace a working configuration.
        const configured = readAppConfig(g.dataDir).baseUrl;
        const differs = configured === null || normaliseBaseUrl(configured) !== url;
        if (g.baseUrl !== undefined && differs && status.check.state !== 'accepted') {
          console.error(
            `${url} was not made the configured service, since it did not take the key just now${configured ? ` (still ${forTerminal(configured)})` : ''}: run key set again when it answers, or pass --base-url.`,
          );
          process.exitCode = EXIT_INCOMPLETE;
        } else if (g.baseUrl !== undefined && differs) {
          writeAppConfig(g.dataDir, { baseUrl: url });
          console.log(`${url} is now the configured service: later commands use it without --base-url.`);
        }
      } else if (sub === 'clear') {
        await call(core, 'key.clear', undefined);
        console.log(`Key cleared for ${url}.`);
      } else {
        const s = await call(core, 'key.status', undefined);
        console.log(s.set ? `A key is set for ${url} (from the ${s.source}).` : `No key is set for ${url}.`);
        if (s.keychainProblem) console.log(s.keychainProblem);
        // Say why an environment key is not used, rather than leave the user guessing.
        if (process.env['FOLIOSCOPE_ACCESS_KEY'] && s.source !== 'environment') {
          console.log('FOLIOSCOPE_ACCESS_KEY is set but not used here: it applies only to the service named by FOLIOSCOPE_BASE_URL (else --base-url).');
        }
        // Set, but unusable: say so here rather than only when a sync fails.
        if (s.source === 'environment') {
          try {
            Secrets.checkFormat(process.env['FOLIOSCOPE_ACCESS_KEY'] ?? '', 'FOLIOSCOPE_ACCESS_KEY');
          } catch (err) {
            console.log((err as Error).message);
          }
        }
      }
    });
  },

  async wallet(g, args) {
    const usage = `Usage:
  folioscope wallet add ADDRESS --chains C1,C2 [--label L] [--tags T1,T2]
  folioscope wallet list [--json]
  folioscope wallet remove ADDRESS [--purge]`;
    const p = parse(
      args,
      { chains: { type: 'string' }, label: { type: 'string' }, tags: { type: 'string' }, json: { type: 'boolean' }, purge: { type: 'boolean' } },
      usage,
    );
    if (!p) return;
    const [sub, address] = p.positionals;
    const list = (v: string | undefined) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    await withCore(g, async (core) => {
      if (sub === 'add') {
        if (!address) throw new UsageError(usage);
        if (!p.values.chains) throw new UsageError(`--chains is required.\n\n${usage}`);
        const chains = list(p.values.chains);
        const known = (await call(core, 'app.info', {})).chains;
        const w = await call(core, 'wallets.add', {
          address,
          chains,
          ...(p.values.label && { label: p.values.label }),
          ...(p.values.tags && { tags: list(p.values.tags) }),
        });
        console.log(forTerminal(`Watching ${w.address} on ${w.chains.join(', ')}${w.label ? ` as "${w.label}"` : ''}.`));
        // Chain ids are the service's and open-ended, so an unknown one is added, with a warning.
        const unknown = chains.filter((c) => !known.includes(c));
        if (unknown.length)
          console.error(
            `folioscope: warning: ${unknown.map((c) => `"${forTerminal(c)}"`).join(', ')} ${unknown.length === 1 ? 'is not a chain' : 'are not chains'} this app knows (${known.join(', ')}); a sync of ${unknown.length === 1 ? 'it' : 'them'} fails if the service does not know ${unknown.length === 1 ? 'it' : 'them'} either. To change the chains: folioscope wallet remove ${w.address}, then add it again.`,
          );
      } else if (sub === 'list') {
        const wallets = await call(core, 'wallets.list', undefined);
        // JSON escapes C0 controls itself; C1 and direction controls are escaped too (still valid JSON).
        if (p.values.json) console.log(jsonForTerminal(wallets));
        else if (!wallets.length) console.log('No wallets are watched. Add one: folioscope wallet add ADDRESS --chains eth');
        // Labels and tags are shown neutralised: no escape sequence or direction change reaches the terminal.
        else
          for (const w of wallets)
            console.log(forTerminal(`${w.address}  ${w.chains.join(',').padEnd(16)}  ${w.label}${w.tags.length ? `  [${w.tags.join(', ')}]` : ''}`));
      } else if (sub === 'remove') {
        if (!address) throw new UsageError(usage);
        if (!(await call(core, 'wallets.remove', { address, purge: p.values.purge ?? false }))) throw new Error(`${address} is not a watched wallet.`);
        console.log(`Stopped watching ${address}${p.values.purge ? ' and deleted its cached history' : ''}.`);
      } else {
        throw new UsageError(usage);
      }
    });
  },

  async sync(g, args) {
    const usage = `Usage: folioscope sync [--wallet ADDRESS] [--date YYYY-MM-DD | --from YYYY-MM-DD --to YYYY-MM-DD [--every day|week|month]]
                       [--no-transactions] [--no-positions]
Each job prints ok, INCOMPLETE (why, and what to do) or FAILED, and a transactions job the cached
rows the service restated and it applied (added late, changed, removed); then a FLAGGED line for
each closed period whose data this sync changed (folioscope close show ID).
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
        if (j.state !== 'done') console.log(forTerminal(`FAILED      ${j.label}: ${j.error?.message ?? j.state}`));
        else if (incomplete.includes(j)) {
          console.log(forTerminal(`INCOMPLETE  ${j.label}${counts}`));
          for (const why of j.completeness!.reasons) console.log(forTerminal(`            - ${why}`));
          if (j.completeness!.action) console.log(forTerminal(`            ${j.completeness!.action}`));
        } else console.log(forTerminal(`ok          ${j.label}${counts}`));
        const restated = restatedText(j);
        if (restated) console.log(forTerminal(`            ${restated}`));
      }
      for (const c of flagged) printFlagged(c, false);
      if (failed.length) throw new Error(`${failed.length} of ${finished.length} sync jobs failed.`);
      if (incomplete.length) throw new IncompleteError(`${incomplete.length} of ${finished.length} sync jobs finished incomplete.`);
    });
  },
};

async function portfolioCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope portfolio [--wallet ADDRESS | --group NAME|ID] [--date YYYY-MM-DD] [--json]
  Total, principal and reward NAV of the scope at the date (default: the newest cached date), with
  each wallet chain it covers: the same view the app's Overview and the reports read. A wallet
  chain not cached at the date is named and left out of the totals; the command then exits 3.
  --json writes the whole view (rows, totals, allocation, coverage).`;
  const p = parse(args, { wallet: { type: 'string' }, group: { type: 'string' }, date: { type: 'string' }, json: { type: 'boolean' } }, usage);
  if (!p) return;
  const v = p.values;
  if (v.wallet && v.group) throw new UsageError(`Use --wallet or --group, not both.\n\n${usage}`);
  if (p.positionals.length) throw new UsageError(`Unexpected argument "${forTerminal(p.positionals[0]!.slice(0, 40))}".\n\n${usage}`);
  checkDateOptions(v, usage);
  await withCore(g, async (core) => {
    const group = v.group ? await resolveGroup(core, v.group) : undefined;
    const scope = { ...(v.wallet && { wallet: v.wallet }), ...(group && { group: group.id }) };
    const date = v.date ?? (await call(core, 'positions.dates', scope))[0];
    if (!date) throw new Error('No positions are cached yet: sync first (folioscope sync).');
    const view = await call(core, 'portfolio.view', { ...scope, date });
    if (!view.wallets.length) throw new Error('No wallets are watched: add one first (folioscope wallet add).');
    if (v.json) console.log(jsonForTerminal(view));
    else {
      const usd = (n: number | null) => (n === null ? '—' : `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);
      const t = view.totals;
      console.log(
        `${view.complete ? 'Portfolio' : 'PARTIAL portfolio'} as of ${date}: total NAV ${usd(t.total)} (principal ${usd(t.principal)}, rewards ${usd(t.reward)}), ` +
          `${t.count} position${t.count === 1 ? '' : 's'} across ${view.walletsCounted === view.wallets.length ? '' : `${view.walletsCounted} of `}${view.wallets.length} wallet${view.wallets.length === 1 ? '' : 's'}`,
      );
      if (view.unknownValues) console.log(`${view.unknownValues} position value${view.unknownValues === 1 ? '' : 's'} unreadable: left out of the totals.`);
      for (const m of view.members)
        console.log(
          [
            m.state === 'not-cached' ? 'NOT CACHED' : m.state === 'views-missing' ? 'VIEWS MISSING' : 'ok',
            m.wallet,
            m.chain,
            forTerminal(m.label ?? ''),
            m.state === 'not-cached'
              ? `not in the totals${m.nearestBefore || m.nearestAfter ? `; cached at ${[m.nearestBefore, m.nearestAfter].filter(Boolean).join(' and ')} (not used)` : ''}`
              : m.moment
                ? forTerminal(m.moment)
                : '',
          ].join('\t'),
        );
    }
    if (!view.complete)
      throw new IncompleteError(
        `${view.missing.length} wallet chain${view.missing.length === 1 ? ' is' : 's are'} not cached at ${date}: the totals are partial.`,
      );
  });
}

async function reconcileCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope reconcile [--wallet ADDRESS | --group NAME|ID] --from YYYY-MM-DD --to YYYY-MM-DD [--json]
  Per wallet, chain and token: opening quantity (positions at the end of --from), inflows and
  outflows (transfers of successful transactions dated after --from through --to), closing
  quantity (at the end of --to), and the unexplained remainder. From the cache only; both
  dates' positions and the period's transactions must be synced, or it says what is missing.
  Exits 0 when complete (even with unexplained remainders), 3 when inputs are missing.`;
  const p = parse(
    args,
    { wallet: { type: 'string' }, group: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, json: { type: 'boolean' } },
    usage,
  );
  if (!p) return;
  const v = p.values;
  if (!v.from || !v.to) throw new UsageError(`--from and --to are required.\n\n${usage}`);
  if (v.wallet && v.group) throw new UsageError(`Use --wallet or --group, not both.\n\n${usage}`);
  if (p.positionals.length) throw new UsageError(`Unexpected argument "${forTerminal(p.positionals[0]!.slice(0, 40))}".\n\n${usage}`);
  checkDateOptions(v, usage);
  await withCore(g, async (core) => {
    const { from, to } = v as { from: string; to: string };
    const group = v.group ? await resolveGroup(core, v.group) : undefined;
    const r = await call(core, 'reconcile.get', { ...(v.wallet && { wallet: v.wallet }), ...(group && { group: group.id }), from, to });
    if (v.json) {
      // Symbols and chains are the service's: escaped where they could steer a terminal (U+009B is a CSI).
      console.log(jsonForTerminal(r.rows));
    } else {
      // A figure of a date not cached is unknown: "—", never 0.
      const num = (n: number | null) =>
        n === null
          ? '—'
          : n === 0
            ? '0'
            : n
                .toPrecision(10)
                .replace(/(\.\d*?)0+$/, '$1')
                .replace(/\.$/, '');
      console.log(`Roll-forward ${r.from} → ${r.to} (transfers dated ${isoDay(r.flowsFrom)} to ${isoDay(r.flowsTo - 1)}, UTC)`);
      console.log(['wallet', 'chain', 'token', 'opening', 'inflow', 'outflow', 'closing', 'unexplained', 'status'].join('\t'));
      // Symbols and chains come from the service: nothing in them may steer the terminal.
      for (const x of r.rows)
        // Each field neutralised on its own: forTerminal would show the tabs between them as <U+0009>.
        console.log(
          [
            x.wallet.slice(0, 10),
            x.chain,
            x.token_symbol ?? x.token_cid,
            num(x.opening_qty),
            num(x.inflow_qty),
            num(x.outflow_qty),
            num(x.closing_qty),
            num(x.unexplained_qty),
            x.status,
          ]
            .map((f) => forTerminal(String(f ?? '')))
            .join('\t'),
        );
      if (r.moves.length)
        console.log(
          `${r.moves.length} transaction(s) opened or closed the wallets' own positions: their transfers are moves between balances and positions, not in inflow or outflow.`,
        );
    }
    if (!r.complete) {
      for (const pr of r.problems) console.error(forTerminal(`incomplete: ${pr.wallet} ${pr.chain}: ${pr.message}`));
      process.exitCode = 3;
    }
  });
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function exportCommand(g: Globals, args: string[]): Promise<void> {
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
      if (kind === 'csv') console.log(`Wrote ${job.output?.rows ?? 0} rows to ${out}.`);
      else if (kind === 'ics') {
        const events = job.output?.rows ?? 0;
        console.log(`Wrote ${events} unlock${events === 1 ? '' : 's'} (on or after ${date}) to ${out}.`);
      } else if (isPack)
        console.log(
          `Wrote a ${job.output?.pages ?? 0}-page monthly pack${group ? ` for the group "${forTerminal(group.name)}"` : ''} (${v.from} to ${v.to}) to ${out}.`,
        );
      else console.log(`Wrote a ${job.output?.pages ?? 0}-page report${group ? ` for the group "${forTerminal(group.name)}"` : ''} (as of ${date}) to ${out}.`);
      // A file that does not cover all it stands for says so in itself (a note, a column, the
      // PDF's summary); here it says why. Partial figures (a member not cached) exit 3 so a
      // script (cron) can tell; a transactions period not yet proved is a Note, as it always was.
      if (incomplete) {
        // Every file says so in itself but the transactions CSV, whose rows have no coverage column.
        const says = kind === 'csv' && report === 'transactions' ? 'the CSV itself cannot say so: keep this note with it' : 'the file says so';
        console.log(
          `Note: the ${kind === 'pdf' ? 'report' : 'export'} is incomplete (${says}):\n${incomplete.reasons.map((r) => `  - ${forTerminal(r)}`).join('\n')}\n${forTerminal(incomplete.action ?? '')}`,
        );
        if (incomplete.partial) throw new IncompleteError(`The ${kind === 'pdf' ? 'report' : 'export'} is partial: its figures leave out what is not cached.`);
      }
    },
    { chooseSavePath: async () => out },
  );
}

async function auditCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope audit [--entity KIND] [--item KEY] [--limit N] [--json]
The edits you made to your own data (wallets, groups, settings, schedules, alert rules, the
address book, notes, categories, rules, closed periods), newest first: when, what, which
operation, and what changed from what to what. KIND: wallet, group, setting, schedule,
alert-rule, counterparty, note, category, rule, period. The whole trail as a file:
folioscope export csv --report audit --out FILE [--from D --to D].`;
  const p = parse(args, { entity: { type: 'string' }, item: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } }, usage);
  if (!p) return;
  if (p.positionals.length) throw new UsageError(usage);
  const limit = p.values.limit === undefined ? 50 : Number(p.values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError(`--limit must be a whole number from 1 to 1000.\n\n${usage}`);
  await withCore(g, async (core) => {
    const { entries, total } = await call(core, 'audit.list', {
      ...(p.values.entity !== undefined && { entity: p.values.entity }),
      ...(p.values.item !== undefined && { key: p.values.item }),
      limit,
    });
    if (p.values.json) {
      console.log(jsonForTerminal(entries));
      return;
    }
    if (!entries.length) {
      console.log('No edits recorded.');
      return;
    }
    console.log(['at', 'origin', 'edit'].join('\t'));
    for (const e of entries) console.log([e.at, e.origin, describeEdit(e)].map(forTerminal).join('\t'));
    if (total > entries.length) console.log(`(${entries.length} of ${total} edits; --limit N for more, or export csv --report audit)`);
  });
}

async function notesCommand(g: Globals, args: string[]): Promise<void> {
  const usage = NOTES_USAGE;
  const p = parse(
    args,
    { wallet: { type: 'string' }, chain: { type: 'string' }, note: { type: 'string' }, category: { type: 'string' }, json: { type: 'boolean' } },
    usage,
  );
  if (!p) return;
  const [sub, hash, ...extra] = p.positionals;
  const v = p.values;
  if (extra.length) throw new UsageError(usage);
  const key = () => {
    if (!hash || !v.wallet || !v.chain) throw new UsageError(`notes ${sub} needs TXN_HASH, --wallet and --chain.\n\n${usage}`);
    return { wallet: v.wallet, chain: v.chain, txnHash: hash };
  };
  await withCore(g, async (core) => {
    if (sub === 'set') {
      const k = key();
      if (v.note === undefined && v.category === undefined) throw new UsageError(`notes set needs --note or --category (or both).\n\n${usage}`);
      const a = await call(core, 'notes.set', {
        ...k,
        ...(v.note !== undefined && { note: v.note }),
        ...(v.category !== undefined && { category: v.category }),
      });
      if (v.json) return void console.log(jsonForTerminal(a));
      console.log(
        forTerminal(
          `${k.txnHash}: ${a?.category ? `category ${a.category} (${a.source})` : 'no category'}${a?.note ? `; note: ${a.note.replace(/\n/g, ' / ')}` : '; no note'}.`,
        ),
      );
    } else if (sub === 'show') {
      const a = await call(core, 'notes.get', key());
      if (v.json) return void console.log(jsonForTerminal(a));
      if (!a) return void console.log('No note or category.');
      console.log(forTerminal(`category: ${a.category ?? '(none)'}${a.source ? ` (${a.source})` : ''}`));
      if (a.manualCategory && a.ruleCategory) console.log(forTerminal(`a rule would say: ${a.ruleCategory}`));
      console.log(forTerminal(`note: ${a.note ?? '(none)'}`));
      if (a.orphaned) console.log('The service no longer returns this transaction; the note is kept.');
    } else if (sub === 'orphans') {
      if (hash) throw new UsageError(usage);
      const orphans = await call(core, 'notes.orphans', undefined);
      if (v.json) return void console.log(jsonForTerminal(orphans));
      if (!orphans.length) return void console.log('No notes on transactions the service removed.');
      console.log(['wallet', 'chain', 'txn_hash', 'category', 'note'].join('\t'));
      for (const a of orphans) console.log([a.wallet, a.chain, a.txnHash, a.manualCategory ?? '', a.note ?? ''].map(forTerminal).join('\t'));
    } else throw new UsageError(usage);
  });
}

async function rulesCommand(g: Globals, args: string[]): Promise<void> {
  const usage = RULES_USAGE;
  const p = parse(
    args,
    { ...CONDITION_OPTIONS, category: { type: 'string' }, name: { type: 'string' }, position: { type: 'string' }, json: { type: 'boolean' } },
    usage,
  );
  if (!p) return;
  const [sub, arg, ...extra] = p.positionals;
  const v = p.values;
  if (extra.length) throw new UsageError(usage);
  const conditions = () => conditionsFrom(v, (m) => new UsageError(`${m}\n\n${usage}`));
  await withCore(g, async (core) => {
    if (sub === 'list') {
      printRules(await call(core, 'rules.list', undefined), v.json ?? false);
    } else if (sub === 'add') {
      if (arg || !v.category) throw new UsageError(`rules add needs --category NAME and at least one condition.\n\n${usage}`);
      const position = v.position === undefined ? undefined : Number(v.position);
      if (position !== undefined && (!Number.isInteger(position) || position < 1)) throw new UsageError(`--position is a whole number from 1.\n\n${usage}`);
      const { rule, applied } = await call(core, 'rules.save', {
        category: v.category,
        conditions: conditions(),
        ...(v.name !== undefined && { name: v.name }),
        ...(position !== undefined && { position }),
      });
      console.log(forTerminal(`Rule ${rule.id} "${rule.name}" (order ${rule.position}) sets ${rule.category}.`));
      console.log(`Applied to ${applied.evaluated} cached transactions: ${applied.categorised} categorised by a rule.`);
      // --action Swap is saved as swap (as the app shows and stores it); a type no transaction has is said, not left to match nothing.
      if (rule.conditions.actionTypes) {
        const known = (await call(core, 'timeline.facets', {})).actionTypes;
        const unknown = unknownActionTypes(rule.conditions.actionTypes, known);
        if (unknown.length) console.error(forTerminal(unknownActionTypesLine(unknown, known)));
      }
    } else if (sub === 'remove') {
      if (!arg || !/^\d{1,15}$/.test(arg)) throw new UsageError(usage);
      const { removed, applied } = await call(core, 'rules.remove', { id: Number(arg) });
      if (!removed) throw new Error(`There is no rule ${arg}.`);
      console.log(`Rule ${arg} removed. Applied again: ${applied.categorised} of ${applied.evaluated} cached transactions categorised by a rule.`);
    } else if (sub === 'apply') {
      if (arg) throw new UsageError(usage);
      const applied = await call(core, 'rules.apply', undefined);
      console.log(`Applied every rule to ${applied.evaluated} cached transactions: ${applied.categorised} categorised by a rule (manual choices kept).`);
    } else if (sub === 'preview') {
      if (arg) throw new UsageError(usage);
      const { matches, sample, unknownActionTypes: unknown, knownActionTypes: known } = await call(core, 'rules.preview', { conditions: conditions() });
      if (v.json) return void console.log(jsonForTerminal({ matches, sample, unknownActionTypes: unknown, knownActionTypes: known }));
      console.log(`Matches ${matches} cached transaction${matches === 1 ? '' : 's'}.`);
      if (unknown.length) console.log(forTerminal(unknownActionTypesLine(unknown, known)));
      for (const s of sample) console.log(forTerminal(`  ${s.txnHash} (${s.wallet} on ${s.chain})`));
    } else throw new UsageError(usage);
  });
}

async function categoriesCommand(g: Globals, args: string[]): Promise<void> {
  const p = parse(args, { json: { type: 'boolean' } }, CATEGORIES_USAGE);
  if (!p) return;
  const [sub, ...extra] = p.positionals;
  if (sub !== 'list' || extra.length) throw new UsageError(CATEGORIES_USAGE);
  await withCore(g, async (core) => printCategories(await call(core, 'categories.list', undefined), p.values.json ?? false));
}

async function groupCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage:
  folioscope group save NAME --wallets A,B[,...]   create the group, or replace its members
  folioscope group list [--json]
  folioscope group remove NAME|ID
A group scopes exports, reports and reconcile: --group NAME|ID.`;
  const p = parse(args, { wallets: { type: 'string' }, json: { type: 'boolean' } }, usage);
  if (!p) return;
  const [sub, name] = p.positionals;
  await withCore(g, async (core) => {
    if (sub === 'save') {
      if (!name || !p.values.wallets) throw new UsageError(`A name and --wallets are required.\n\n${usage}`);
      const existing = (await call(core, 'groups.list', undefined)).find((x) => x.name.toLowerCase() === name.trim().toLowerCase());
      const wallets = p.values.wallets
        .split(',')
        .map((w) => w.trim())
        .filter(Boolean);
      const saved = await call(core, 'groups.save', { ...(existing && { id: existing.id }), name, wallets });
      console.log(forTerminal(`Group ${saved.id} "${saved.name}": ${saved.wallets.join(', ')}.`));
    } else if (sub === 'list') {
      const groups = await call(core, 'groups.list', undefined);
      // A name an older version accepted may hold controls: escaped in JSON, shown as <U+…> in the table.
      if (p.values.json) console.log(jsonForTerminal(groups));
      else if (!groups.length) console.log('No wallet groups. Make one: folioscope group save NAME --wallets A,B');
      else {
        // Columns are tab-separated; each field is neutralised on its own, so a tab inside a
        // name shows as <U+0009> and only the separators are real tabs.
        console.log(['id', 'name', 'wallets'].join('\t'));
        for (const x of groups) console.log([String(x.id), x.name, x.wallets.join(', ')].map(forTerminal).join('\t'));
      }
    } else if (sub === 'remove') {
      if (!name) throw new UsageError(usage);
      const groups = await call(core, 'groups.list', undefined);
      const x =
        groups.find((y) => y.name.toLowerCase() === name.trim().toLowerCase()) ?? (/^\d+$/.test(name) ? groups.find((y) => y.id === Number(name)) : undefined);
      if (!x) throw new Error(`There is no wallet group "${forTerminal(name.slice(0, 100))}".`);
      await call(core, 'groups.remove', { id: x.id });
      console.log(forTerminal(`Removed the group "${x.name}" (its wallets stay watched).`));
    } else {
      throw new UsageError(usage);
    }
  });
}

async function counterpartiesCommand(g: Globals, args: string[]): Promise<void> {
  const usage = COUNTERPARTIES_USAGE;
  const p = parse(
    args,
    {
      chains: { type: 'string' },
      tags: { type: 'string' },
      ours: { type: 'boolean' },
      note: { type: 'string' },
      out: { type: 'string' },
      'dry-run': { type: 'boolean' },
      replace: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    usage,
  );
  if (!p) return;
  const v = p.values;
  const [sub, first, second, ...extra] = p.positionals;
  const split = (s: string | undefined) =>
    (s ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  if (extra.length) throw new UsageError(`Unexpected "${forTerminal(extra[0]!.slice(0, 40))}" (quote a name with spaces).\n\n${usage}`);
  if (sub === 'list') {
    const book = await withCore(g, (core) => call(core, 'counterparties.list', undefined));
    if (v.json) console.log(jsonForTerminal(book));
    else if (!book.length) console.log('The address book is empty. Add a name: folioscope counterparties add ADDRESS NAME');
    else {
      console.log(['address', 'name', 'ours', 'chains', 'tags', 'note'].join('\t'));
      for (const c of book) console.log(counterpartyLine(c));
    }
  } else if (sub === 'add') {
    if (!first || !second) throw new UsageError(`add takes an ADDRESS and a NAME.\n\n${usage}`);
    const saved = await withCore(g, (core) =>
      call(core, 'counterparties.save', {
        address: first,
        name: second,
        ...(v.chains !== undefined && { chains: split(v.chains) }),
        ...(v.tags !== undefined && { tags: split(v.tags) }),
        ...(v.ours && { ours: true }),
        ...(v.note !== undefined && { note: v.note }),
      }),
    );
    console.log(
      forTerminal(`Saved ${saved.address} as "${saved.name}" (${saved.chains.length ? saved.chains.join(', ') : 'every chain'}${saved.ours ? ', ours' : ''}).`),
    );
  } else if (sub === 'remove') {
    if (!first || second) throw new UsageError(`remove takes one ADDRESS.\n\n${usage}`);
    const removed = await withCore(g, (core) => call(core, 'counterparties.remove', { address: first }));
    if (!removed) throw new Error(`${forTerminal(first.slice(0, 130))} is not in the address book.`);
    console.log(forTerminal(`Removed ${first} from the address book.`));
  } else if (sub === 'import') {
    if (!first || second || v.out) throw new UsageError(`import takes the FILE to import.\n\n${usage}`);
    const text = readCsvFile(first);
    const input = { text, ...(v.replace && { replace: true }) };
    const pv = await withCore(g, (core) => call(core, v['dry-run'] ? 'counterparties.preview' : 'counterparties.import', input));
    printImport(pv, v['dry-run'] ?? false, v.json ?? false);
    // Nothing imported when it was asked for (or, dry, could not be): a failure for scripts.
    if (!pv.applicable) process.exitCode = 1;
  } else if (sub === 'export') {
    if (!v.out || first) throw new UsageError(`export needs --out FILE.\n\n${usage}`);
    const out = v.out;
    const { csv, count } = await withCore(g, (core) => call(core, 'counterparties.export', undefined));
    const path = await writeCsvFile(out, csv);
    console.log(`Wrote ${count} ${count === 1 ? 'entry' : 'entries'} to ${path}.`);
  } else throw new UsageError(usage);
}

/** Runs one command line; `extra` adds the commands other shells provide (the web shell's `serve`). */
export async function main(argv: string[], extra: Record<string, Command> = {}): Promise<number> {
  const globals: Globals = { dataDir: defaultDataDir(), baseUrl: undefined, readOnly: false, version: VERSION };
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--data-dir' || a === '--base-url') {
      const value = argv[++i];
      if (!value) throw new UsageError(`${a} needs a value`);
      if (a === '--data-dir') globals.dataDir = value;
      else globals.baseUrl = value;
    } else if (a === '--read-only') globals.readOnly = true;
    else if (a.startsWith('--data-dir=')) globals.dataDir = a.slice('--data-dir='.length);
    else if (a.startsWith('--base-url=')) globals.baseUrl = a.slice('--base-url='.length);
    else rest.push(a);
  }
  const [command, ...args] = rest;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  if (command === '--version') {
    console.log(VERSION);
    return 0;
  }
  const run = Object.hasOwn(extra, command) ? extra[command] : Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (!run) throw new UsageError(`Unknown command "${command}".\n\n${USAGE}`);
  await run(globals, args);
  return 0;
}

/** Runs the program: one line on failure, exit 2 for a usage error, 3 for "finished but incomplete". */
export function runProgram(argv: string[], extra: Record<string, Command> = {}): void {
  let settled = false;
  // The event loop ran dry while the command still awaited something (a promise nothing will
  // settle): the work did not finish, so the exit must not read as success to a script or cron.
  const unfinished = () => {
    if (settled) return;
    settled = true;
    console.error(
      'folioscope: stopped before the command finished (an internal error: nothing was left to wait for). What it reported done is in the cache; run it again.',
    );
    process.exitCode = 1;
  };
  process.once('beforeExit', unfinished);
  main(argv, extra).then(
    (code) => {
      settled = true;
      if (code !== 0) process.exitCode = code;
    },
    (err: unknown) => {
      settled = true;
      let message = (err as Error).message ?? String(err);
      if (err instanceof CacheProblemError && err.problem === 'locked') {
        // Without the key neither a read-only copy nor a new cache can be made (README, "Encryption at rest").
        message += `\n  the key:     the keychain entry back, or FOLIOSCOPE_CACHE_PASSPHRASE=… for a passphrase; folioscope cache status says which\n  elsewhere:   folioscope --data-dir DIR ...`;
      } else if (err instanceof CacheProblemError) {
        message += `\n  read-only:   folioscope --read-only ... (view and export; nothing is written)\n  rebuild:     folioscope cache move-aside, then folioscope sync\n  elsewhere:   folioscope --data-dir DIR ...`;
      }
      // One line for a failure; usage errors print their usage below it.
      // Each line neutralised: an error can quote the service or a label.
      console.error(`folioscope: ${message.split('\n').map(forTerminal).join('\n')}`);
      const usage = err instanceof UsageError || (err as { usage?: unknown }).usage === true;
      process.exitCode = usage ? 2 : err instanceof IncompleteError ? EXIT_INCOMPLETE : 1;
    },
  );
}

async function alertCommand(g: Globals, args: string[]): Promise<void> {
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
      console.log(forTerminal(`Alert rule ${saved.id}: ${describeCondition(saved.condition)}, ${describeScope(saved.scope, groups)}.`));
      if (saved.lastCheck) console.log(forTerminal(`Checked now: ${saved.lastCheck.note}`));
      for (const a of fired) printAlert(a, false);
    } else if (sub === 'list') {
      const rules = await call(core, 'alerts.rules', undefined);
      if (v.json) return void console.log(jsonForTerminal(rules));
      if (!rules.length) return void console.log('No alert rules. Add one: folioscope alert add health --below 1.1');
      const groups = await call(core, 'groups.list', undefined);
      console.log(['id', 'rule', 'scope', 'last check (UTC)'].join('\t'));
      for (const r of rules) console.log(ruleLine(r, groups));
    } else if (sub === 'remove') {
      if (!(await call(core, 'alerts.removeRule', { id: id() }))) throw new Error(`There is no alert rule ${id()}.`);
      console.log(`Alert rule ${id()} removed (its alerts stay in the history).`);
    } else if (sub === 'inbox') {
      if (arg) throw new UsageError(usage);
      const inbox = await call(core, 'alerts.inbox', { ...(v.all && { all: true }) });
      if (v.json) return void inbox.alerts.forEach((a) => printAlert(a, true));
      if (!inbox.alerts.length) return void console.log(v.all ? 'No alerts.' : 'No alerts to acknowledge.');
      console.log(
        `${inbox.unread} alert${inbox.unread === 1 ? '' : 's'} to look at${inbox.alerts.length > inbox.unread && !v.all ? ' (others snoozed)' : ''}:`,
      );
      for (const a of inbox.alerts) printAlert(a, false);
    } else if (sub === 'ack') {
      if (!(await call(core, 'alerts.acknowledge', { id: id() }))) throw new Error(`There is no alert ${id()}.`);
      console.log(`Alert ${id()} acknowledged.`);
    } else if (sub === 'snooze') {
      const hours = v.hours === undefined ? 24 : num('hours');
      if (!(hours > 0 && hours <= 24 * 366)) throw new UsageError(`--hours is between 0 and ${24 * 366}.\n\n${usage}`);
      const until = new Date(Date.now() + hours * 3_600_000).toISOString();
      if (!(await call(core, 'alerts.snooze', { id: id(), until }))) throw new Error(`There is no alert ${id()}.`);
      console.log(`Alert ${id()} snoozed until ${until.slice(0, 16).replace('T', ' ')} UTC.`);
    } else if (sub === 'check') {
      if (arg) throw new UsageError(usage);
      const fired = await call(core, 'alerts.check', undefined);
      for (const a of fired) printAlert(a, v.json ?? false);
      if (!fired.length && !v.json) console.log('No new alerts.');
    } else {
      throw new UsageError(usage);
    }
  });
}

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

async function scheduleCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope schedule add (--all | --wallet ADDRESS | --group NAME|ID) [--what positions|transactions|both]
                           --every hour [--at :MM] | --every day --at HH:MM | --every week --on DAY --at HH:MM
       folioscope schedule list [--json]
       folioscope schedule remove ID
Times are in the time zone of the settings (UTC unless set to local). The app and the web shell
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
      const cadence = cadenceOf(v, usage);
      const scope = v.wallet
        ? { kind: 'wallet' as const, address: v.wallet }
        : v.group
          ? { kind: 'group' as const, id: (await resolveGroup(core, v.group)).id }
          : { kind: 'all' as const };
      const saved = await call(core, 'schedules.save', { scope, what: (v.what ?? 'both') as Schedule['what'], cadence });
      const zone = (await call(core, 'settings.get', undefined)).timeZone;
      console.log(
        forTerminal(
          `Schedule ${saved.id}: ${saved.what} of ${scopeText(saved, await call(core, 'groups.list', undefined))}, ${describeCadence(saved.cadence, zone)}; next run ${saved.nextSlot.slice(0, 16).replace('T', ' ')} UTC.`,
        ),
      );
    } else if (sub === 'list') {
      const list = await call(core, 'schedules.list', undefined);
      if (v.json) return void console.log(jsonForTerminal(list));
      if (!list.length) return void console.log('No schedules. Add one: folioscope schedule add --all --every day --at 06:00');
      const groups = await call(core, 'groups.list', undefined);
      const zone = (await call(core, 'settings.get', undefined)).timeZone;
      console.log(['id', 'what', 'scope', 'when', 'next (UTC)', 'last run'].join('\t'));
      for (const x of list) {
        const last = x.lastRun ? `${x.lastRun.state} ${x.lastRun.finishedAt.slice(0, 16).replace('T', ' ')}` : 'never';
        console.log(
          [String(x.id), x.what, scopeText(x, groups), describeCadence(x.cadence, zone), x.nextSlot.slice(0, 16).replace('T', ' '), last]
            .map(forTerminal)
            .join('\t'),
        );
      }
    } else {
      if (!id || !/^\d+$/.test(id)) throw new UsageError(usage);
      if (!(await call(core, 'schedules.remove', { id: Number(id) }))) throw new Error(`There is no schedule ${forTerminal(id.slice(0, 20))}.`);
      console.log(`Schedule ${id} removed.`);
    }
  });
}

async function watchCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope watch [--once] [--json]
  Runs the scheduled syncs that are due (see folioscope schedule): each once, however many runs
  were missed while nothing was running; never two processes at once on one cache.
  --once   run what is due now and exit (for cron or a systemd timer); without it, keep
           running and look every minute until stopped (Ctrl-C or SIGTERM: the jobs in flight
           stop, what they wrote is kept, and their schedule runs again next time)
  --json   one JSON object per schedule run on standard output (each job with the cached rows
           it restated: {"late","changed","removed"}), then one {"closeFlagged": …} per closed
           period the runs changed, then one {"alert": …} per alert that fired during the run
           (see folioscope alert)
Exit codes (--once): 0 every run was complete (or none was due); 1 a run failed; ${EXIT_INCOMPLETE} a run was incomplete.`;
  const p = parse(args, { once: { type: 'boolean' }, json: { type: 'boolean' } }, usage);
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
      if (due.skipped) console.error(forTerminal(`Skipped: ${due.skipped}.`));
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
          console.log(
            jsonForTerminal(
              { schedule: run.schedule, slot: run.slot, startedAt: run.startedAt, finishedAt: run.finishedAt, state: run.state, note: run.note, jobs },
              0,
            ),
          );
        } else {
          const [head, ...lines] = run.note.split('\n');
          console.log(
            forTerminal(
              `${run.state === 'ok' ? 'ok         ' : run.state === 'incomplete' ? 'INCOMPLETE ' : 'FAILED     '} schedule ${run.schedule} (${run.slot.slice(0, 16).replace('T', ' ')} UTC): ${head}`,
            ),
          );
          for (const l of lines) console.log(forTerminal(`            - ${l}`));
          for (const j of run.jobs) {
            const restated = restatedText(j);
            if (restated) console.log(forTerminal(`            - ${j.label}: ${restated}`));
          }
        }
      }
      for (const c of flagged) printFlagged(c, v.json ?? false);
      for (const a of fired.splice(0)) printAlert(a, v.json ?? false);
    };
    if (v.once) {
      const due = await call(core, 'schedules.runDue', undefined);
      await report(due);
      if (!v.json && !due.runs.length && !due.skipped) console.log('Nothing is due.');
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
      if (!v.json) console.log('Watching the schedules (Ctrl-C to stop).');
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

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A backup's rows in words: "2 wallets, 1 group, 3 schedules, 12 snapshots, 1000 transactions". */
function countsText(counts: Record<string, number>): string {
  const named: Array<[string, string, string]> = [
    ['wallets', 'wallet', 'wallets'],
    ['wallet_groups', 'group', 'groups'],
    ['schedules', 'schedule', 'schedules'],
    ['snapshots', 'snapshot', 'snapshots'],
    ['transactions', 'transaction', 'transactions'],
  ];
  return named
    .filter(([t]) => counts[t] !== undefined)
    .map(([t, one, many]) => plural(counts[t]!, one, many))
    .join(', ');
}

const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

async function backupCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope backup list [--json]
       folioscope backup create
       folioscope backup verify NAME
       folioscope backup restore NAME
  Backups are checked copies of the cache in <data folder>/backups, each with a manifest
  (NAME.json: its schema, the rows of its tables, its SHA-256). The app and the web shell make
  one a day while open (Settings: on or off, how many to keep), and one is made before every
  upgrade of the cache. verify checks a backup as restore does; restore keeps the current
  cache as <cache>.before-restore-<time> and puts the backup in its place. Never the access key.`;
  const p = parse(args, { json: { type: 'boolean' } }, usage);
  if (!p) return;
  const [sub, name, ...extra] = p.positionals;
  if (extra.length || !['list', 'create', 'verify', 'restore'].includes(sub ?? '')) throw new UsageError(usage);
  if ((sub === 'verify' || sub === 'restore') && !name)
    throw new UsageError(`${sub} needs the NAME of a backup (folioscope backup list shows them).\n\n${usage}`);
  const line = (b: BackupInfo) =>
    [b.name, utc(b.createdAt), b.reason, `schema ${b.schemaVersion}`, `${(b.bytes / 2 ** 20).toFixed(1)} MiB`, b.problem ?? countsText(b.counts)]
      .map(forTerminal)
      .join('\t');
  await withCore(g, async (core) => {
    if (sub === 'list') {
      const list = await call(core, 'backups.list', undefined);
      if (p.values.json) return void console.log(jsonForTerminal(list));
      if (!list.backups.length) return void console.log(`No backups in ${list.folder}. Make one: folioscope backup create`);
      console.log(['name', 'made', 'why', 'schema', 'size', 'rows'].join('\t'));
      for (const b of list.backups) console.log(line(b));
      if (list.problem) console.error(forTerminal(`The last automatic backup failed: ${list.problem}`));
    } else if (sub === 'create') {
      const b = await call(core, 'backups.create', undefined);
      console.log(forTerminal(`Backup ${b.name} made and checked (integrity_check ok, schema ${b.schemaVersion}): ${countsText(b.counts)}.`));
    } else if (sub === 'verify') {
      const v = await call(core, 'backups.verify', { name: name! });
      if (!v.ok) throw new Error(v.problem ?? `${name} did not check out.`);
      const b = v.backup!;
      console.log(
        forTerminal(
          `ok ${b.name}: SHA-256 matches its manifest, integrity_check ok, schema ${b.schemaVersion}, ${countsText(b.counts)} (made ${utc(b.createdAt)}).`,
        ),
      );
    } else {
      const r = await call(core, 'backups.restore', { name: name! });
      console.log(
        forTerminal(
          `Restored ${r.restored.name} (made ${utc(r.restored.createdAt)}: ${countsText(r.restored.counts)}). The cache it replaced is kept at ${r.keptAside}.`,
        ),
      );
    }
  });
}

/** A passphrase from standard input: all of it, less one line ending (so `echo "$P" |` works). */
function passphraseFromStdin(): string {
  const text = readFileSync(0, 'utf8').replace(/\r?\n$/, '');
  if (!text) throw new Error('No passphrase on standard input: echo "$PASSPHRASE" | folioscope data … --passphrase-stdin');
  return text;
}

function previewText(pv: UserDataPreview): string {
  const state = { added: 'add', changed: 'change', unchanged: 'same', conflict: 'CONFLICT' } as const;
  const lines = pv.items.map((i) => [state[i.state].padEnd(8), i.kind.padEnd(8), i.key, i.detail].filter(Boolean).join('  '));
  const c = pv.counts;
  lines.push(`${c.added} to add, ${c.changed} to change, ${c.unchanged} unchanged, ${plural(c.conflict, 'conflict')}.`);
  return lines.map(forTerminal).join('\n');
}

async function dataCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope data export --out FILE [--passphrase-stdin]
       folioscope data import FILE [--dry-run] [--replace] [--passphrase-stdin] [--json]
  Your own data as a file (docs/data-format.md): wallets (address, label, tags, chains), groups
  (name, members), schedules, alert rules (scope, condition) and settings. Not the cached service
  data, not the alerts that fired, never the access key.
  --passphrase-stdin  export: encrypt the file with the passphrase read from standard input
                      (scrypt + AES-256-GCM; at least 8 characters); import: its passphrase
  --dry-run           import: show what would be added, changed, unchanged or in conflict; change nothing
  --replace           import: where the file and this folder conflict (a wallet on other chains,
                      a group with other members), take the file's version. Without it, any
                      conflict stops the import and nothing is changed.
  An import is all or nothing: one transaction.`;
  const p = parse(
    args,
    {
      out: { type: 'string' },
      'passphrase-stdin': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      replace: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    usage,
  );
  if (!p) return;
  const [sub, file, ...extra] = p.positionals;
  const v = p.values;
  if (extra.length) throw new UsageError(usage);
  if (sub === 'export') {
    if (!v.out || file) throw new UsageError(`--out FILE is required.\n\n${usage}`);
    const out = resolvePath(v.out);
    const passphrase = v['passphrase-stdin'] ? passphraseFromStdin() : undefined;
    await withCore(
      g,
      async (core) => {
        const started = await call(core, 'userData.export', passphrase !== undefined ? { passphrase } : {});
        if (!started) throw new Error('The export was not started.');
        const [job] = await waitForJobs(core, [started]);
        if (!job || job.state !== 'done') throw new Error(job?.error?.message ?? 'The export was cancelled.');
        console.log(`Wrote your data (${plural(job.output?.rows ?? 0, 'wallet')}${passphrase !== undefined ? ', encrypted' : ''}) to ${out}.`);
      },
      { chooseSavePath: async () => out },
    );
  } else if (sub === 'import') {
    if (!file || v.out) throw new UsageError(`data import takes the FILE to import.\n\n${usage}`);
    const size = statSync(file, { throwIfNoEntry: false })?.size;
    if (size === undefined) throw new Error(`There is no file ${forTerminal(file)}.`);
    if (size > LIMITS.userDataChars)
      throw new Error(`${forTerminal(file)} is too large for a data file (${size} bytes; at most ${LIMITS.userDataChars}). Nothing was imported.`);
    const text = readFileSync(file, 'utf8');
    const passphrase = v['passphrase-stdin'] ? passphraseFromStdin() : undefined;
    const input = { text, ...(passphrase !== undefined && { passphrase }), ...(v.replace && { replace: true }) };
    await withCore(g, async (core) => {
      const pv = await call(core, v['dry-run'] ? 'userData.preview' : 'userData.import', input);
      if (v.json) console.log(jsonForTerminal(pv));
      else {
        console.log(forTerminal(`Data file of ${utc(pv.exportedAt)}${pv.encrypted ? ' (encrypted)' : ''}:`));
        console.log(previewText(pv));
      }
      if (!pv.applicable)
        throw new Error(
          `${plural(pv.counts.conflict, 'conflict')} with what is here: nothing was imported. Run again with --replace to take the file's version of ${pv.counts.conflict === 1 ? 'it' : 'them'}.`,
        );
      if (v['dry-run']) {
        if (!v.json) console.log('Dry run: nothing was changed.');
      } else if (!v.json)
        console.log(`Imported: ${pv.counts.added} added, ${pv.counts.changed} changed${pv.replace ? `, ${pv.counts.conflict} replaced` : ''}.`);
    });
  } else throw new UsageError(usage);
}

const CACHE_USAGE = `Usage: folioscope cache encrypt [--passphrase-stdin] [--cancel-jobs] | decrypt [--cancel-jobs] | status [--json] | move-aside
  encrypt      encrypts every cache of the data folder and every backup of them, each converted
               in place and checked before it replaces the old file (which is removed once the
               new one opens). The key is random and kept in the system keychain (service
               "${CACHE_KEY_SERVICE}", one entry per data folder); with --passphrase-stdin it is
               derived from the passphrase read from standard input (scrypt, N=2^17, r=8, p=1;
               at least 8 characters), and every later run needs it in ${PASSPHRASE_ENV}.
               Run again after a stop midway: it finishes the job.
  decrypt      the reverse: every cache and backup plain again, then the key removed
  status       whether the caches and backups are encrypted, and with what (never the key)
  move-aside   keeps the current cache (damaged or not) as <file>.damaged-<time>, byte for byte
               as found, with its -wal and -shm, and starts a new one with the wallets and settings that can
               still be read from it; sync then rebuilds the history. Nothing is deleted.
  --cancel-jobs  cancel running syncs first (else the command is refused while they run)`;

function printEncryption(s: EncryptionStatus): void {
  if (!s.on) console.log('Encryption at rest: off (the caches and backups of this data folder are plain SQLite files).');
  else {
    const how =
      s.keySource === 'keychain'
        ? `a random key in the system keychain (service "${CACHE_KEY_SERVICE}")`
        : `a key derived from a passphrase (scrypt, N=${s.kdf?.N}, r=${s.kdf?.r}, p=${s.kdf?.p})`;
    console.log(`Encryption at rest: on (${s.cipher}, ${how}; key id ${s.keyId}).`);
  }
  for (const c of s.caches) console.log(`  ${c.encrypted ? 'encrypted' : 'plain    '}  ${c.file}  ${c.bytes} bytes`);
  console.log(`  backups: ${s.backups.encrypted} encrypted, ${s.backups.plain} plain`);
  for (const f of s.leftovers) console.log(`  left by a conversion (removed when its cache next opens): ${f}`);
  if (s.unfinished) console.log('  Not every file is encrypted yet (a conversion stopped midway): run folioscope cache encrypt again to finish.');
}

async function cacheCommand(g: Globals, args: string[]): Promise<void> {
  const p = parse(args, { 'passphrase-stdin': { type: 'boolean' }, 'cancel-jobs': { type: 'boolean' }, json: { type: 'boolean' } }, CACHE_USAGE);
  if (!p) return;
  const [sub, ...rest] = p.positionals;
  if (rest.length) throw new UsageError(`Unexpected argument ${forTerminal(rest[0]!.slice(0, 40))}.\n\n${CACHE_USAGE}`);
  const v = p.values;
  const cancelJobs = v['cancel-jobs'] ? { cancelJobs: true } : {};
  if (sub === 'status') {
    // Read from the files (no core, so it also speaks of a cache whose key is missing).
    const s = encryptionStatus(g.dataDir);
    if (v.json) console.log(jsonForTerminal(s));
    else printEncryption(s);
    return;
  }
  if (sub === 'encrypt') {
    const passphrase = v['passphrase-stdin'] ? passphraseFromStdin() : undefined;
    const s = await withCore(g, (core) => call(core, 'cache.encrypt', { ...(passphrase !== undefined && { passphrase }), ...cancelJobs }));
    printEncryption(s);
    if (passphrase !== undefined) console.log(`Every later run needs the passphrase: ${PASSPHRASE_ENV}=… folioscope …`);
    return;
  }
  if (sub === 'decrypt') {
    if (v['passphrase-stdin']) throw new UsageError(`decrypt reads the passphrase from ${PASSPHRASE_ENV}.\n\n${CACHE_USAGE}`);
    printEncryption(await withCore(g, (core) => call(core, 'cache.decrypt', cancelJobs)));
    return;
  }
  if (sub !== 'move-aside' || v['passphrase-stdin']) throw new UsageError(CACHE_USAGE);
  const configured = g.baseUrl ?? process.env['FOLIOSCOPE_BASE_URL'] ?? readAppConfig(g.dataDir).baseUrl;
  const file = databaseFileFor(g.dataDir, configured ? normaliseBaseUrl(configured) : null);
  if (!existsSync(file)) throw new Error(`There is no cache at ${file} to move aside.`);
  // In an encrypted data folder the new cache is encrypted too: the folder's key is needed.
  const key = await loadFolderKey(g.dataDir, file, {
    keychain: systemKeychain(CACHE_KEY_SERVICE, { cli: true }),
    passphrase: process.env[PASSPHRASE_ENV] ?? null,
  });
  const { movedTo, walletsRecovered } = moveCacheAside(file, new Date(), key);
  console.log(
    `Moved ${file} aside to ${movedTo} (nothing deleted). New cache started with ${walletsRecovered} wallet${walletsRecovered === 1 ? '' : 's'} recovered; run folioscope sync to rebuild the history.`,
  );
}
