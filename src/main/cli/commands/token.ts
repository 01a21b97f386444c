/**
 * `folioscope --server URL token set | clear | status`: the person's API token for a team server
 * kept in the OS keychain, so `--server` finds it without FOLIOSCOPE_TOKEN in a script's
 * environment. The same entry the desktop keeps when it signs in to that server (Settings → Team,
 * team-client/client.ts TEAM_TOKEN_SERVICE, account: the server's origin): one sign-in on a
 * machine serves its app and its command line. The token is never printed or written to a file.
 */
import { teamTokenKeychain } from '../../team-client/client.ts';
import { ENV_TOKEN, remoteCore, serverProblem } from '../../team-client/remote.ts';
import { type Globals, parse, UsageError } from '../context.ts';
import { io, say } from '../io.ts';

const USAGE = `Usage: folioscope --server URL token set | clear | status
  set      reads your API token (folioscope users token NAME … on the server's machine) from standard
           input, checks it with the server and keeps it in the OS keychain for that server
  clear    removes it from the keychain (the token still acts until revoked: users revoke-token)
  status   says whether one is kept (never the token)
A token in ${ENV_TOKEN} is used before the keychain's.`;

export async function tokenCommand(g: Globals, args: string[]): Promise<void> {
  const p = parse(args, {}, USAGE);
  if (!p) return;
  const [sub] = p.positionals;
  if (sub !== 'set' && sub !== 'clear' && sub !== 'status') throw new UsageError(USAGE);
  if (g.server === undefined) throw new UsageError(`token is for a team server: give its address with --server URL.\n\n${USAGE}`);
  const problem = serverProblem(g.server);
  if (problem) throw new UsageError(problem);
  const origin = new URL(g.server).origin;
  const keychain = teamTokenKeychain({ cli: true });
  if (sub === 'set') {
    const token = io().stdin().trim();
    if (!token) throw new Error(`No token on standard input: printf '%s' "$TOKEN" | folioscope --server ${origin} token set`);
    // Tried first: a token the server refuses (unknown, revoked, its person disabled) replaces nothing.
    const core = await remoteCore(origin, token, { tokenFrom: 'the token on standard input' });
    await core.close();
    await keychain.set(origin, token);
    return say(`Token kept in the system keychain for ${origin}.`);
  }
  if (sub === 'clear') return say((await keychain.delete(origin)) ? `Token removed from the keychain for ${origin}.` : `No token was kept for ${origin}.`);
  say((await keychain.get(origin)) ? `A token is kept in the system keychain for ${origin}.` : `No token is kept for ${origin}.`);
}
