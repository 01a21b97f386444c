/**
 * `folioscope users` and `folioscope server init`: the people of a team server (docs/team.md),
 * kept in the server's data folder (run with the server's --data-dir; the server need not be
 * stopped). A password is never a command-line argument (a process list and a shell's history
 * show those): it is read from standard input or the environment.
 */
import { ROLES, isRole, type Role } from '../../../shared/roles.ts';
import { forTerminal } from '../../../shared/text-safety.ts';
import { MIN_PASSWORD_LENGTH, PeopleError, type Core } from '../../core/index.ts';
import { type Globals, parse, UsageError, withCore } from '../context.ts';
import { io, say } from '../io.ts';

export const OWNER_PASSWORD_ENV = 'FOLIOSCOPE_OWNER_PASSWORD';
export const USER_PASSWORD_ENV = 'FOLIOSCOPE_USER_PASSWORD';
/** The provider's issuer a link names, when --oidc-issuer is not given (the same URL as the server's --oidc-issuer). */
export const OIDC_ISSUER_ENV = 'FOLIOSCOPE_OIDC_ISSUER';

const USERS_USAGE = `Usage: folioscope users <add NAME --role ROLE [--oidc-subject SUB --oidc-issuer URL] | list | role NAME ROLE | disable NAME | enable NAME | reset-password NAME | token NAME --role ROLE [--label TEXT] | tokens NAME | revoke-token NAME ID | sign-out NAME | link-oidc NAME SUB --oidc-issuer URL | unlink-oidc NAME>
The people of a team server (run with the server's --data-dir). ROLE: ${ROLES.join(', ')}.
A new password (add, reset-password) is read from ${USER_PASSWORD_ENV} or the first line of
standard input, never from the command line; at least ${MIN_PASSWORD_LENGTH} characters.
link-oidc links a person to their account at the team's OpenID Connect provider: SUB is the
provider's subject ("sub") for them, URL the server's --oidc-issuer (or ${OIDC_ISSUER_ENV}). add
--oidc-subject links at once; without ${USER_PASSWORD_ENV} that person has no password and signs
in only through the provider. Nobody is ever made by a sign-in.
token prints a personal API token once (for Authorization: Bearer …): its role is no higher than
its owner's, and is capped by the owner's role whenever it is used.`;

const INIT_USAGE = `Usage: folioscope [--data-dir DIR] server init [--name NAME]
Makes the team server's first owner. The password is read from ${OWNER_PASSWORD_ENV} or standard
input (without --name: the name on the first line, the password on the second); never from the
command line. At least ${MIN_PASSWORD_LENGTH} characters.`;

/** The clock of this run (a test's, in-process), in ms. */
const nowMs = (): number => (io().now ?? Date.now)();

function role(value: string | undefined, usage: string): Role {
  if (!isRole(value))
    throw new UsageError(
      `${value === undefined ? 'A role is needed' : `"${forTerminal(value.slice(0, 30))}" is not a role`}: use one of ${ROLES.join(', ')}.\n\n${usage}`,
    );
  return value;
}

/** A password from the environment variable, else the first line of standard input. */
function readPassword(env: string, lines?: string[]): string {
  const fromEnv = io().env[env];
  const password = fromEnv ?? (lines ?? io().stdin().split(/\r?\n/))[0] ?? '';
  if (!password) throw new UsageError(`No password given: set ${env} or write it on standard input.`);
  return password;
}

/** People errors are the user's to fix: said as they are. */
async function people<T>(g: Globals, fn: (core: Core) => Promise<T>): Promise<T> {
  return withCore(g, fn);
}

export async function serverInitCommand(g: Globals, args: string[]): Promise<void> {
  const p = parse(args, { name: { type: 'string' } }, INIT_USAGE);
  if (!p) return;
  if (p.positionals.length) throw new UsageError(INIT_USAGE);
  await people(g, async (core) => {
    if (core.people.count() > 0) throw new PeopleError(`This data folder already has people (${core.people.count()}): add more with folioscope users add.`);
    let name = p.values.name;
    let password: string;
    if (name === undefined) {
      const lines = io().stdin().split(/\r?\n/);
      name = (lines[0] ?? '').trim();
      if (!name) throw new UsageError(`No name given: --name NAME, or the name on the first line of standard input.\n\n${INIT_USAGE}`);
      password = readPassword(OWNER_PASSWORD_ENV, lines.slice(1));
    } else password = readPassword(OWNER_PASSWORD_ENV);
    const owner = await core.people.add(name, 'owner', password, nowMs());
    say(`${forTerminal(owner.name)} is the owner. Start the server with: folioscope --data-dir ${forTerminal(g.dataDir)} server`);
  });
}

export async function usersCommand(g: Globals, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    say(USERS_USAGE);
    if (sub === undefined) throw new UsageError('Which users command?');
    return;
  }
  const p = parse(
    rest,
    { role: { type: 'string' }, label: { type: 'string' }, json: { type: 'boolean' }, 'oidc-subject': { type: 'string' }, 'oidc-issuer': { type: 'string' } },
    USERS_USAGE,
  );
  if (!p) return;
  const [name, extra] = p.positionals;
  const needName = () => {
    if (!name) throw new UsageError(`A name is needed.\n\n${USERS_USAGE}`);
    return name;
  };
  const needIssuer = () => {
    const issuer = (p.values['oidc-issuer'] ?? io().env[OIDC_ISSUER_ENV] ?? '').trim();
    if (!issuer) throw new UsageError(`Which provider? --oidc-issuer URL (the server's --oidc-issuer) or ${OIDC_ISSUER_ENV}.\n\n${USERS_USAGE}`);
    return issuer;
  };
  await people(g, async (core) => {
    const t = nowMs();
    switch (sub) {
      case 'list': {
        const all = core.people.list();
        if (p.values.json) return say(JSON.stringify(all));
        if (!all.length) return say('Nobody yet: folioscope server init makes the first owner.');
        say(['name', 'role', 'state', 'since', 'sign-in'].join('\t'));
        for (const u of all) {
          const ways = [u.password ? 'password' : '', u.oidc ? `provider (${u.oidc.subject} at ${u.oidc.issuer})` : ''].filter(Boolean).join(', ');
          say([u.name, u.role, u.disabled ? 'disabled' : 'active', u.createdAt, ways].map(forTerminal).join('\t'));
        }
        return;
      }
      case 'add': {
        const r = role(p.values.role, USERS_USAGE);
        const subject = p.values['oidc-subject'];
        if (subject === undefined) {
          const added = await core.people.add(needName(), r, readPassword(USER_PASSWORD_ENV), t);
          return say(`Added ${forTerminal(added.name)} (${added.role}).`);
        }
        // Linked at once: a password only when the environment gives one (standard input is not
        // read: the person may well need none).
        const added = await core.people.add(needName(), r, io().env[USER_PASSWORD_ENV] || null, t, { issuer: needIssuer(), subject });
        return say(
          `Added ${forTerminal(added.name)} (${added.role}), signing in through ${forTerminal(added.oidc!.issuer)}${added.password ? ' or with their password' : ' only (no password)'}.`,
        );
      }
      case 'link-oidc': {
        if (!extra) throw new UsageError(`link-oidc needs NAME and the provider's subject for them.\n\n${USERS_USAGE}`);
        const linked = core.people.linkOidc(needName(), { issuer: needIssuer(), subject: extra }, t);
        return say(`${forTerminal(linked.name)} may sign in through ${forTerminal(linked.oidc!.issuer)} as ${forTerminal(linked.oidc!.subject)}.`);
      }
      case 'unlink-oidc': {
        const unlinked = core.people.unlinkOidc(needName(), t);
        return say(`${forTerminal(unlinked.name)} no longer signs in through the provider; their sessions have ended.`);
      }
      case 'role': {
        const r = role(extra ?? p.values.role, USERS_USAGE);
        const changed = core.people.setRole(needName(), r, t);
        return say(`${forTerminal(changed.name)} is now ${changed.role}.`);
      }
      case 'disable': {
        const d = core.people.disable(needName(), t);
        return say(`${forTerminal(d.name)} is disabled: signed out everywhere, their API tokens refused.`);
      }
      case 'enable': {
        const e = core.people.enable(needName(), t);
        return say(`${forTerminal(e.name)} may sign in again.`);
      }
      case 'reset-password': {
        await core.people.resetPassword(needName(), readPassword(USER_PASSWORD_ENV), t);
        return say(`${forTerminal(name!)}'s password is changed; their sessions have ended.`);
      }
      case 'sign-out': {
        const ended = core.people.signOutEverywhere(core.people.get(needName())?.name ?? needName());
        return say(`${ended.length} session${ended.length === 1 ? '' : 's'} ended.`);
      }
      case 'token': {
        const r = role(p.values.role, USERS_USAGE);
        const made = core.people.createToken(needName(), r, p.values.label ?? '', t);
        // Printed once, alone on stdout (a script captures it); it is not kept anywhere readable.
        say(made.token);
        io().stderr.write(`A ${made.role} token for ${forTerminal(name!)} (id ${made.id}): shown once; keep it like a password.\n`);
        return;
      }
      case 'tokens': {
        const list = core.people.tokens(needName());
        if (p.values.json) return say(JSON.stringify(list));
        say(['id', 'role', 'label', 'created', 'last used'].join('\t'));
        for (const k of list) say([String(k.id), k.role, k.label, k.createdAt, k.lastUsedAt ?? '-'].map(forTerminal).join('\t'));
        return;
      }
      case 'revoke-token': {
        const id = Number(extra);
        if (!Number.isInteger(id)) throw new UsageError(`revoke-token needs NAME and the token's id (users tokens NAME).\n\n${USERS_USAGE}`);
        if (!core.people.revokeToken(needName(), id, t)) throw new PeopleError(`${forTerminal(name!)} has no token ${id}.`);
        return say(`Token ${id} revoked.`);
      }
      default:
        throw new UsageError(`Unknown users command "${forTerminal(String(sub).slice(0, 30))}".\n\n${USERS_USAGE}`);
    }
  });
}
