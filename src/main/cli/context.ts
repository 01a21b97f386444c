/**
 * What every command of the CLI shares: the program's globals, its two kinds of failure that
 * are not plain errors (a usage error exits 2, "finished but incomplete" 3), the one argument
 * reader (src/shared/args.ts, with each command's usage after what was wrong), the core opened
 * for one command and closed after it, the contract's operations, jobs waited for, and a group
 * named by name or id. Each command group lives in its own file under commands/.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoStarter, demoWorldFromEnv } from '../../sim/demo.ts';
import {
  appRoot,
  createCore,
  type Core,
  type CoreOptions,
  databaseFileFor,
  ENV_BASE_URL,
  ENV_KEY,
  KEYCHAIN_SERVICE,
  readAppConfig,
  systemKeychain,
} from '../core/index.ts';
import { ArgumentError, type OptionSpecs, parseArguments } from '../../shared/args.ts';
import type { InputOf, OutputOf } from '../../shared/contract.ts';
import { isoDateToUtcMs } from '../../shared/dates.ts';
import type { JobInfo, WalletGroup } from '../../shared/model.ts';
import type { OperationName } from '../../shared/operations.ts';
import { RATE_LIMITED_WAIT } from '../../shared/progress-text.ts';
import { forTerminal } from '../../shared/text-safety.ts';
import { io, say, warn } from './io.ts';
import { progressPrinter } from './progress.ts';
import { ENV_TOKEN, remoteCore, serverProblem } from '../team-client/remote.ts';
import { teamTokenKeychain } from '../team-client/client.ts';

const ROOT = appRoot(import.meta.dirname);
export const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Finished, but not everything asked for is proved complete (sync, export, reconcile). */
export const EXIT_INCOMPLETE = 3;
export class IncompleteError extends Error {}

/** A mistake in the command line: printed with the command's usage, exit 2. */
export class UsageError extends Error {}

/**
 * The date options of a command, checked as the contract checks them (a real calendar day,
 * a range that does not end before it starts) before anything is read or written.
 */
export function checkDateOptions(v: { date?: string | undefined; from?: string | undefined; to?: string | undefined }, usage: string): void {
  for (const name of ['date', 'from', 'to'] as const) {
    const value = v[name];
    if (value !== undefined && isoDateToUtcMs(value) === null)
      throw new UsageError(`--${name} ${forTerminal(value.slice(0, 40))} is not a date: use a real calendar day, YYYY-MM-DD.\n\n${usage}`);
  }
  if (v.from && v.to && v.from > v.to) throw new UsageError(`--to ${v.to} is before --from ${v.from}.\n\n${usage}`);
}

export interface Globals {
  dataDir: string;
  baseUrl: string | undefined;
  readOnly: boolean;
  version: string;
  /** A team server to run the command against (`--server URL`, remote.ts) instead of the data folder. */
  server?: string | undefined;
}

/** A command of the program: the CLI's own, or one another shell hands it (see src/main/folioscope.ts). */
export type Command = (g: Globals, args: string[]) => Promise<void>;

/**
 * A command's arguments read against its options (and -h/--help, which prints its usage and
 * gives null). What is wrong is said in one plain sentence with the command's usage after it,
 * never in the reader's own terms.
 */
export function parse<T extends OptionSpecs>(args: string[], options: T, usage: string) {
  let parsed;
  try {
    parsed = parseArguments(args, { ...options, help: { type: 'boolean', short: 'h' } } as T & { help: { type: 'boolean'; short: 'h' } });
  } catch (err) {
    if (!(err instanceof ArgumentError)) throw err;
    throw new UsageError(`${err.message}\n\n${usage}`);
  }
  if (parsed.values.help) {
    say(usage);
    return null;
  }
  return parsed;
}

export async function withCore<T>(g: Globals, fn: (core: Core) => Promise<T>, options: Pick<CoreOptions, 'chooseSavePath'> = {}): Promise<T> {
  if (g.server !== undefined) return withServer(g.server, fn, options);
  const clock = io().now;
  const core = await createCore({
    dataDir: g.dataDir,
    shell: 'cli',
    version: VERSION,
    // The run's environment (a test's own, in-process): the key, the service and the passphrase it names.
    env: io().env,
    // The demo's world as the run's environment asks for it (FOLIOSCOPE_DEMO_SPAM=1: with spam).
    demo: demoStarter({ ...demoWorldFromEnv(io().env), ...(clock && { now: clock }) }),
    ...(clock && { now: clock }),
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

/** A command against a team server (`--server URL`): its contract over HTTP with the person's API token. */
async function withServer<T>(server: string, fn: (core: Core) => Promise<T>, options: Pick<CoreOptions, 'chooseSavePath'>): Promise<T> {
  // A file written here from the server's data (an export, a bundle) is the server's page's to
  // download (docs/team.md): a command that writes one says so before it asks anything.
  if (options.chooseSavePath)
    throw new UsageError(
      "This command writes a file from the data: over --server, download it from the team server's page (its export), or run it on the server's machine.",
    );
  const problem = serverProblem(server);
  if (problem) throw new UsageError(problem);
  // The environment's first (a script's, cron's), else the one kept for this server in the
  // keychain (`token set`, or the desktop's sign-in to it).
  const origin = new URL(server).origin;
  const fromEnv = io().env[ENV_TOKEN];
  const kept = fromEnv
    ? null
    : await teamTokenKeychain({ cli: true })
        .get(origin)
        .catch(() => null);
  const token = fromEnv || kept;
  if (!token)
    throw new UsageError(
      `--server needs your API token: in ${ENV_TOKEN}, or kept for ${origin} in the keychain (folioscope --server ${origin} token set, or signing in to it in the app). A token is made once on the server's machine: folioscope users token NAME --role ROLE.`,
    );
  const core = await remoteCore(server, token, fromEnv ? {} : { tokenFrom: `the token kept for it in the keychain (folioscope --server ${origin} token set)` });
  try {
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
  if (g.baseUrl ?? io().env[ENV_BASE_URL] ?? readAppConfig(g.dataDir).baseUrl) return;
  if (io().env[ENV_KEY]) {
    warn(
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
  warn(
    `folioscope: warning: this reads demo data, though the system keychain holds an access key for ${first}${services.length > 1 ? ` (and ${services.length - 1} other service${services.length > 2 ? 's' : ''})` : ''}, which this data folder has a cache for. Use it with --base-url ${first}; to make that the data folder's service, set its key with: folioscope --base-url ${first} key set`,
  );
}

/** Runs an operation through the contract (validated as from any shell); a failure is thrown with its message. */
export function call<K extends OperationName>(core: Core, op: K, input: InputOf<K>): Promise<OutputOf<K>> {
  return core.request(op, input);
}

/**
 * The app's last screens prepared from what the jobs wrote (portfolio/warm.ts), as an open app
 * does once its syncs end: a command's lines are printed first, then this (seconds at a fund's
 * scale), said on a terminal while it runs.
 */
export async function warmScreens(core: Core): Promise<void> {
  const err = io().stderr;
  if (err.isTTY) err.write("Preparing the app's last screens from the new data (--no-warm skips this)…");
  try {
    await call(core, 'sync.settle', { warm: true });
  } finally {
    if (err.isTTY) err.write('\r\x1b[2K');
  }
}

export async function waitForJobs(core: Core, jobs: JobInfo[]): Promise<JobInfo[]> {
  const bar = progressPrinter(io().stderr);
  const pending = new Map(jobs.map((j) => [j.id, j]));
  const finished: JobInfo[] = [];
  const ended = (info: JobInfo) => info.state === 'done' || info.state === 'failed' || info.state === 'cancelled';
  await new Promise<void>((resolve, reject) => {
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
        warn(`folioscope: ${forTerminal(info.label)}: ${info.phase}`);
      }
      bar.update(info);
      if (ended(info)) end(info);
    });
    // A job that ended before the listener was added (a quick export) is read from the job list.
    // Unanswered (a team server that kept saying "slow down", or went away): the command says so and ends.
    core.request('sync.jobs', undefined).then(
      (all) => {
        for (const info of all) if (pending.has(info.id) && ended(info)) end(info);
      },
      (err: unknown) => {
        off();
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
    if (!pending.size) {
      off();
      resolve();
    }
  });
  bar.done();
  return finished;
}

/** A wallet group named by its name (any case) or its id; a clear error when there is none. */
export async function resolveGroup(core: Core, nameOrId: string): Promise<WalletGroup> {
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

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A moment of the contract (ISO, UTC) as the CLI prints it: to the second, "UTC" said. */
export const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

/** A passphrase from standard input: all of it, less one line ending (so `echo "$P" |` works). */
export function passphraseFromStdin(): string {
  const text = io()
    .stdin()
    .replace(/\r?\n$/, '');
  if (!text) throw new Error('No passphrase on standard input: echo "$PASSPHRASE" | folioscope data … --passphrase-stdin');
  return text;
}
