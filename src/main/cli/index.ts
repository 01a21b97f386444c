/**
 * The command line: `folioscope [--data-dir DIR] [--base-url URL] <command> ...`. Every command
 * has --help; a failure prints one line on stderr and exits non-zero. Each command group is a
 * file of commands/, over the core's face (src/main/core/index.ts) and the contract; this file
 * is the table of commands and the program's one entry, `runCli`: the process runs it with its
 * own streams (`runProgram`), a test with its own (test/support/cli-in-process.ts).
 */
import { runSimCli } from '../../sim/cli.ts';
import { CacheProblemError, defaultDataDir, MAX_KEY_LENGTH, MIN_KEY_LENGTH } from '../core/index.ts';
import { forTerminal } from '../../shared/text-safety.ts';
import { alertCommand } from './commands/alerts.ts';
import { categoriesCommand, notesCommand, rulesCommand } from './commands/annotations.ts';
import { auditCommand } from './commands/audit.ts';
import { backupCommand, dataCommand } from './commands/backup.ts';
import { cacheCommand } from './commands/cache.ts';
import { closeCommand } from './commands/close.ts';
import { verifyBundleCommand } from './commands/verify-bundle.ts';
import { counterpartiesCommand } from './commands/counterparties.ts';
import { doctorCommand } from './commands/doctor.ts';
import { exportCommand } from './commands/export.ts';
import { keyCommand } from './commands/key.ts';
import { portfolioCommand, reconcileCommand } from './commands/portfolio.ts';
import { scheduleCommand, watchCommand } from './commands/schedule.ts';
import { spamCommand } from './commands/spam.ts';
import { usersCommand } from './commands/users.ts';
import { tokenCommand } from './commands/token.ts';
import { syncCommand } from './commands/sync.ts';
import { groupCommand, walletCommand } from './commands/wallets.ts';
import { type Command, EXIT_INCOMPLETE, type Globals, IncompleteError, UsageError, VERSION } from './context.ts';
import { type CliIo, io, processIo, say, warn, withIo } from './io.ts';

export { EXIT_INCOMPLETE, type Command, type Globals } from './context.ts';
export type { CliIo } from './io.ts';

/** The program's usage (its default data folder is the run's environment's). */
const usage = () => `Folioscope ${VERSION}: local-first wallet portfolio tracker

Usage: folioscope [--data-dir DIR] [--base-url URL] <command> [options]

Commands:
  sim       run the reference service
  serve     run the web shell on 127.0.0.1
  server    run the team server: the app for many people, signed in (init | [--host H --tls-cert F --tls-key F | --behind-proxy ADDR] [--oidc-issuer URL --oidc-client-id ID]); docs/team.md
  users     the team server's people and their API tokens (add | list | role | disable | enable | reset-password | token | tokens | revoke-token | sign-out | link-oidc | unlink-oidc)
  token     with --server: keep your API token for that team server in the keychain (set | clear | status)
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
  close     closed periods: a scope's month frozen with the hash of its data, flagged if that data changes (list | add | show | reopen | bundle)
  verify-bundle  check a closed period's auditor's bundle from the file alone (no cache, no network)
  spam      what is spam and why: your verdicts on tokens and addresses, the lists, a token or transaction explained (mark | clear | list | explain | lists)

Global options:
  --data-dir DIR   where the cache lives (default: ${defaultDataDir(io().env)})
  --base-url URL   the service to use; without one (and none saved), demo mode
  --read-only      open the cache read-only (a damaged or unwritable one): view and export
  --server URL     run the command on a team server (https), as the person whose API token is in FOLIOSCOPE_TOKEN
                   or kept for that server in the keychain (token set, or the app's sign-in to it)
  -h, --help       help, for any command

Environment: FOLIOSCOPE_ACCESS_KEY overrides the keychain, for the service named by FOLIOSCOPE_BASE_URL
(else --base-url) only (${MIN_KEY_LENGTH} to ${MAX_KEY_LENGTH} printable ASCII characters); FOLIOSCOPE_DATA_DIR;
FOLIOSCOPE_CACHE_PASSPHRASE opens a data folder encrypted with a passphrase (cache encrypt --passphrase-stdin);
FOLIOSCOPE_DEMO_SPAM=1 gives demo mode's world spam (junk tokens, address poisoning), as real wallets receive.

Exit codes: 0 done (sync: everything asked for is complete), 1 failed, 2 usage error,
  3 sync finished but incomplete (the lines marked INCOMPLETE say why and what to do); also an
    export or portfolio whose figures leave out what is not cached, or a reconcile with a figure not cached (a note says why).`;

const commands: Record<string, Command> = {
  sim: (_g, args) => runSimCli(args),
  key: keyCommand,
  wallet: walletCommand,
  group: groupCommand,
  sync: syncCommand,
  export: exportCommand,
  cache: cacheCommand,
  reconcile: reconcileCommand,
  portfolio: portfolioCommand,
  doctor: doctorCommand,
  schedule: scheduleCommand,
  watch: watchCommand,
  backup: backupCommand,
  data: dataCommand,
  alert: alertCommand,
  notes: notesCommand,
  rules: rulesCommand,
  categories: categoriesCommand,
  audit: auditCommand,
  counterparties: counterpartiesCommand,
  close: closeCommand,
  'verify-bundle': verifyBundleCommand,
  spam: spamCommand,
  users: usersCommand,
  token: tokenCommand,
};

/** The commands that run against a team server (`--server URL`): each only asks the contract. */
const OVER_SERVER: ReadonlySet<string> = new Set([
  'wallet',
  'group',
  'sync',
  'portfolio',
  'reconcile',
  'doctor',
  'schedule',
  'alert',
  'notes',
  'rules',
  'categories',
  'audit',
  'counterparties',
  'close',
  'spam',
  'token',
]);

/** Runs one command line; `extra` adds the commands other shells provide (the web shell's `serve`). Throws what failed. */
async function main(argv: string[], extra: Record<string, Command>): Promise<number> {
  const globals: Globals = { dataDir: defaultDataDir(io().env), baseUrl: undefined, readOnly: false, version: VERSION };
  const rest: string[] = [];
  // The global options go anywhere on the line (before or after the command): each command's
  // own options are read by the command, from what is left.
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--data-dir' || a === '--base-url' || a === '--server') {
      const value = argv[++i];
      if (!value) throw new UsageError(`${a} needs a value`);
      if (a === '--data-dir') globals.dataDir = value;
      else if (a === '--server') globals.server = value;
      else globals.baseUrl = value;
    } else if (a === '--read-only') globals.readOnly = true;
    else if (a.startsWith('--data-dir=')) globals.dataDir = a.slice('--data-dir='.length);
    else if (a.startsWith('--base-url=')) globals.baseUrl = a.slice('--base-url='.length);
    else if (a.startsWith('--server=')) globals.server = a.slice('--server='.length);
    else rest.push(a);
  }
  const [command, ...args] = rest;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    say(usage());
    return command ? 0 : 2;
  }
  if (command === '--version') {
    say(VERSION);
    return 0;
  }
  const run = Object.hasOwn(extra, command) ? extra[command] : Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (!run) throw new UsageError(`Unknown command "${command}".\n\n${usage()}`);
  // Over --server only what goes through the contract: a command that works on this machine's data
  // folder itself (its key, cache, backups, people, a server of its own) would silently act here.
  if (globals.server !== undefined && !OVER_SERVER.has(command))
    throw new UsageError(`${command} works on this machine's data folder, not over --server. Over --server: ${[...OVER_SERVER].join(', ')}.`);
  await run(globals, args);
  return 0;
}

/** What a failure prints: one line (with the ways forward from a cache that cannot be used), and its exit code. */
function failure(err: unknown): number {
  let message = (err as Error).message ?? String(err);
  if (err instanceof CacheProblemError && err.problem === 'locked') {
    // Without the key neither a read-only copy nor a new cache can be made (README, "Encryption at rest").
    message += `\n  the key:     the keychain entry back, or FOLIOSCOPE_CACHE_PASSPHRASE=… for a passphrase; folioscope cache status says which\n  elsewhere:   folioscope --data-dir DIR ...`;
  } else if (err instanceof CacheProblemError) {
    message += `\n  read-only:   folioscope --read-only ... (view and export; nothing is written)\n  rebuild:     folioscope cache move-aside, then folioscope sync\n  elsewhere:   folioscope --data-dir DIR ...`;
  }
  // One line for a failure; usage errors print their usage below it.
  // Each line neutralised: an error can quote the service or a label.
  warn(`folioscope: ${message.split('\n').map(forTerminal).join('\n')}`);
  const usage = err instanceof UsageError || (err as { usage?: unknown }).usage === true;
  return usage ? 2 : err instanceof IncompleteError ? EXIT_INCOMPLETE : 1;
}

/**
 * Runs one command line with `cliIo`'s streams, environment and standard input, and resolves
 * with its exit code: 0 done, 1 failed (one line on stderr), 2 a usage error, 3 finished but
 * incomplete. Never throws and never touches the process's exit code: the process entry
 * (`runProgram`) and the tests that run the CLI in their own process both call it.
 */
export async function runCli(argv: string[], cliIo: CliIo, extra: Record<string, Command> = {}): Promise<number> {
  const { value, exitCode } = await withIo(cliIo, () =>
    main(argv, extra).then(
      (code) => ({ code, failed: false }),
      (err: unknown) => ({ code: failure(err), failed: true }),
    ),
  );
  // A failure's code wins over one a command set before it failed; a command that finished may set its own (setExitCode).
  return value.failed || value.code !== 0 ? value.code : exitCode;
}

/** Runs the program as a process: the CLI with the process's streams, its exit code the process's. */
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
  // A reader that stopped reading (`folioscope sync … | head -1`): what is printed after goes
  // nowhere, and the command still finishes its work with its own exit code. Unheard, the first
  // write after it threw an unhandled EPIPE with a stack trace and exit 1, a sync cut off midway.
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
  void runCli(argv, processIo(), extra).then((code) => {
    settled = true;
    if (code !== 0) process.exitCode = code;
  });
}

export { serverInitCommand } from './commands/users.ts';
