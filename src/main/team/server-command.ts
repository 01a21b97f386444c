/**
 * `folioscope server`: the team server as a command (docs/team.md). It lives with the team
 * server, not the CLI (a shell imports no other shell); the `folioscope` program hands it to
 * the CLI, and `server init` to the CLI's people commands.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoStarter, demoWorldFromEnv } from '../../sim/demo.ts';
import { ArgumentError, parseArguments } from '../../shared/args.ts';
import { appRoot, createCore } from '../core/index.ts';
import { discoverProvider, issuerProblem, OIDC_CALLBACK_PATH, OIDC_SECRET_ENV, type OidcProvider } from './oidc.ts';
import { bindProblem } from './security.ts';
import { DEFAULT_REQUEST_LIMITS } from './request-limits.ts';
import { startTeamServer } from './server.ts';

const ROOT = appRoot(import.meta.dirname);

export const SERVER_USAGE = `Usage: folioscope [--data-dir DIR] server [--port N] [--host H] [--tls-cert FILE --tls-key FILE] [--behind-proxy ADDR]
                  [--oidc-issuer URL --oidc-client-id ID [--oidc-name TEXT] [--oidc-only]] [--requests-per-second N]
       folioscope [--data-dir DIR] server init [--name NAME]
The team server: the app for many people, each signed in with a role (docs/team.md). It binds
127.0.0.1 unless --host says otherwise; a host beyond this machine needs --tls-cert and --tls-key,
or --behind-proxy with the address of the proxy that terminates TLS (its X-Forwarded-For and
X-Forwarded-Proto are believed, nobody else's). init makes the first owner; folioscope users
adds the rest. The service's key stays here (keychain, FOLIOSCOPE_ACCESS_KEY); no page gets it.
--oidc-issuer and --oidc-client-id add "Sign in with …" through the team's OpenID Connect
provider (its secret from ${OIDC_SECRET_ENV}, never an argument; the redirect URI to register
is this server's origin + ${OIDC_CALLBACK_PATH}); people are linked to their accounts with
folioscope users link-oidc. --oidc-only: no passwords at all. --requests-per-second: what one
person may keep asking (default ${DEFAULT_REQUEST_LIMITS.perSecond}, in bursts of ${DEFAULT_REQUEST_LIMITS.burst}); more is answered "try again in a moment".`;

export interface ServerGlobals {
  dataDir: string;
  baseUrl: string | undefined;
  readOnly: boolean;
  version: string;
}

function usageError(message: string): Error {
  return Object.assign(new Error(`${message}\n\n${SERVER_USAGE}`), { usage: true });
}

export async function serverCommand(g: ServerGlobals, args: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArguments(
      args,
      {
        port: { type: 'string' },
        host: { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'behind-proxy': { type: 'string' },
        'oidc-issuer': { type: 'string' },
        'oidc-client-id': { type: 'string' },
        'oidc-name': { type: 'string' },
        'oidc-only': { type: 'boolean' },
        'requests-per-second': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      { positionals: false },
    ));
  } catch (err) {
    if (!(err instanceof ArgumentError)) throw err;
    throw usageError(err.message);
  }
  if (values.help) {
    console.log(SERVER_USAGE);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw usageError('--port must be a port number');
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined)) throw usageError('--tls-cert and --tls-key go together');
  const given = values['requests-per-second'];
  // Digits only: Number() would also take "0x10", "1e3" and " 5".
  const rate = given === undefined ? undefined : /^\d{1,5}$/.test(given) ? Number(given) : NaN;
  if (rate !== undefined && !(Number.isInteger(rate) && rate >= 1 && rate <= 10_000))
    throw usageError('--requests-per-second must be a whole number from 1 to 10000');
  // A higher rate brings its burst up with it (six seconds' worth), never below the default's.
  const requestLimits =
    rate === undefined ? undefined : { ...DEFAULT_REQUEST_LIMITS, perSecond: rate, burst: Math.max(DEFAULT_REQUEST_LIMITS.burst, 6 * rate) };
  const host = values.host ?? '127.0.0.1';
  const tls =
    values['tls-cert'] !== undefined && values['tls-key'] !== undefined
      ? { cert: readFileSync(values['tls-cert']), key: readFileSync(values['tls-key']) }
      : undefined;
  // Refused before anything opens: the cache is not touched for a server that may not start.
  const problem = bindProblem({ host, tls: !!tls, behindProxy: values['behind-proxy'] });
  if (problem) throw usageError(problem);
  const issuer = values['oidc-issuer'];
  if ((issuer === undefined) !== (values['oidc-client-id'] === undefined)) throw usageError('--oidc-issuer and --oidc-client-id go together');
  if (issuer === undefined && (values['oidc-only'] || values['oidc-name'] !== undefined))
    throw usageError('--oidc-only and --oidc-name need --oidc-issuer and --oidc-client-id');
  let oidc: OidcProvider | undefined;
  if (issuer !== undefined) {
    const wrong = issuerProblem(issuer);
    if (wrong) throw usageError(wrong);
    // Read once and taken out of the environment: nothing this process starts or prints later
    // can carry it along (a worker's environment, a report of it).
    const clientSecret = process.env[OIDC_SECRET_ENV] ?? '';
    delete process.env[OIDC_SECRET_ENV];
    // Found before the cache is opened: a server whose provider cannot be reached does not start.
    oidc = await discoverProvider({
      issuer,
      clientId: values['oidc-client-id']!,
      clientSecret,
      ...(values['oidc-name'] !== undefined && { name: values['oidc-name'] }),
    });
  }
  const core = await createCore({
    dataDir: g.dataDir,
    shell: 'web',
    version: g.version,
    // Many people: a close is prepared by one and approved by another (docs/closes.md).
    team: true,
    demo: demoStarter(demoWorldFromEnv(process.env)),
    ...(g.baseUrl !== undefined && { baseUrl: g.baseUrl }),
    ...(g.readOnly && { readOnlyCache: true }),
  });
  const server = await startTeamServer({
    core,
    host,
    port,
    rendererDir: join(ROOT, 'out/renderer'),
    ...(tls && { tls }),
    ...(values['behind-proxy'] !== undefined && { behindProxy: values['behind-proxy'] }),
    ...(oidc && { oidc, oidcOnly: !!values['oidc-only'] }),
    ...(requestLimits && { requestLimits }),
  }).catch(async (err: unknown) => {
    await core.close();
    throw err;
  });
  console.log(server.origin);
  const info = await core.request('app.info', undefined);
  console.error(
    `Folioscope team server (${info.mode === 'demo' ? 'demo mode, built-in reference service' : info.baseUrl}); data in ${g.dataDir}; ${core.people.count()} people. Ctrl+C stops it.`,
  );
  if (oidc) {
    const linked = core.people.list().filter((p) => p.oidc);
    const elsewhere = linked.filter((p) => p.oidc!.issuer !== oidc.issuer);
    console.error(
      `Sign-in with ${oidc.label} (${oidc.issuer}): register ${server.origin}${OIDC_CALLBACK_PATH} as the client's redirect URI; ${linked.length - elsewhere.length} people linked.`,
    );
    // A link typed with another spelling of the issuer (a trailing slash) would never match: said now, not at each refused sign-in.
    if (elsewhere.length)
      console.error(
        `Linked to another issuer than ${oidc.issuer}, so they cannot sign in through it: ${elsewhere.map((p) => `${p.name} (${p.oidc!.issuer})`).join(', ')}.`,
      );
  }
  const stop = () =>
    void server
      .close()
      .then(() => core.close())
      .then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
