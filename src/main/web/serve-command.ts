/**
 * `folioscope serve`: the web shell as a command. It lives with the web shell, not the CLI
 * (a shell imports no other shell); the `folioscope` program (src/main/folioscope.ts) hands
 * the CLI this command to run.
 */
import { join } from 'node:path';
import { appRoot, createCore } from '../core/index.ts';
import { demoStarter, demoWorldFromEnv } from '../../sim/demo.ts';
import { startWebShell } from './server.ts';
import { startDesktopTeam } from '../team-client/client.ts';
import { ArgumentError, parseArguments } from '../../shared/args.ts';

const ROOT = appRoot(import.meta.dirname);

export const SERVE_USAGE = 'Usage: folioscope serve [--port N]\n  Serves the app on 127.0.0.1; open the printed URL (it carries the access token).';

export interface ServeGlobals {
  dataDir: string;
  baseUrl: string | undefined;
  readOnly: boolean;
  version: string;
}

/** A mistake in the command line: the program prints it with the usage and exits 2. */
function usageError(message: string): Error {
  return Object.assign(new Error(`${message}\n\n${SERVE_USAGE}`), { usage: true });
}

export async function serveCommand(g: ServeGlobals, args: string[]): Promise<void> {
  let values;
  try {
    // The program's one argument reader: what is wrong in its words, never node:util's.
    ({ values } = parseArguments(args, { port: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, { positionals: false }));
  } catch (err) {
    if (!(err instanceof ArgumentError)) throw err;
    throw usageError(err.message);
  }
  if (values.help) {
    console.log(SERVE_USAGE);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw usageError('--port must be a port number');
  const core = await createCore({
    dataDir: g.dataDir,
    shell: 'web',
    version: g.version,
    // The demo's world as the environment asks for it (FOLIOSCOPE_DEMO_SPAM=1: with spam).
    demo: demoStarter(demoWorldFromEnv(process.env)),
    ...(g.baseUrl !== undefined && { baseUrl: g.baseUrl }),
    ...(g.readOnly && { readOnlyCache: true }),
  });
  // Settings → Team: the page may sign this machine in to a team server (docs/team.md); the
  // shell's core is then the server, or its last copy while it cannot be reached.
  const team = await startDesktopTeam(core, { dataDir: g.dataDir, shell: 'web', version: g.version }).catch(async (err: unknown) => {
    await core.close();
    throw err;
  });
  // A shell that cannot start (the renderer not built, the port taken) closes the core it
  // opened, so the command ends with its error rather than sit with the cache open.
  const shell = await startWebShell({ core: team.core, port, rendererDir: join(ROOT, 'out/renderer') }).catch(async (err: unknown) => {
    await team.close();
    await core.close();
    throw err;
  });
  console.log(shell.url);
  if ((await core.request('cache.locked', undefined)).locked) {
    // The page asks for the passphrase (never this terminal: the command may run unattended).
    console.error(`Folioscope web shell; data in ${g.dataDir}, encrypted with a passphrase: open the URL and type it to unlock. Ctrl+C stops it.`);
  } else {
    const info = await core.request('app.info', undefined);
    console.error(
      `Folioscope web shell (${info.mode === 'demo' ? 'demo mode, built-in reference service' : info.baseUrl}); data in ${g.dataDir}. Ctrl+C stops it.`,
    );
  }
  const stop = () =>
    void shell
      .close()
      .then(() => team.close())
      .then(() => core.close())
      .then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
