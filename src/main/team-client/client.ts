/**
 * The desktop on a team server (docs/team.md, "The desktop on a team server"; issue 37 item 7),
 * shell-neutral: the Electron shell and the loopback web shell run the same main-process logic.
 *
 * Signed in, the shell's core is the server (remote.ts: the contract over HTTP with the person's
 * API token, the server's events on its stream); the service's key stays on the server. The
 * token is had once for the person's name and password (`POST api/device-token`, under the
 * sign-in page's lock-out) or pasted (made with `folioscope users token`), and kept in the OS
 * keychain (its own service, the account the server's origin): never in the data folder, a log,
 * or an answer to the renderer. The password passes through here once and is not kept.
 *
 * The server's last replica (api/replica: its verified copy of the books, without the people's
 * secrets) is kept per server in the data folder: downloaded to a temporary name, checked against
 * its manifest, then put in place by renaming; a bad or cut-off download never replaces a good
 * copy. When the server cannot be reached the shell's core is that copy, read-only (the core's
 * `replica` option), saying so with its time; when the server answers again, it is the server.
 * Signed out, the shell's core is the desktop's own.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  type Core,
  createCore,
  type Keychain,
  ownerOnlyFolder,
  type ReplicaManifest,
  type ReplicaOf,
  systemKeychain,
  verifyReplica,
  writeSmallFile,
} from '../core/index.ts';
import { CONTRACT, type Envelope, type EventPayloads, type TeamStatus } from '../../shared/contract.ts';
import { EVENT_NAMES, type EventName } from '../../shared/operations.ts';
import type { CoreSaid } from '../../shared/core-codes.ts';
import { isRole, type Role } from '../../shared/roles.ts';
import { remoteCore, serverProblem, unreachable } from './remote.ts';
import { waitingOutSlowDowns } from '../../shared/slow-down.ts';

/** The keychain service the desktop's team-server tokens are kept under (account: the server's origin). */
export const TEAM_TOKEN_SERVICE = 'Folioscope team server';
/** The keychain of team-server tokens on this computer: the app's sign-in keeps one there, the CLI's `--server` finds it (`cli`: its errors said for a terminal). */
export const teamTokenKeychain = (o: { cli?: boolean } = {}): Keychain => systemKeychain(TEAM_TOKEN_SERVICE, o);
/** How old the copy kept may get while the server answers: what a desktop offline reads is at most this old (plus the time it was offline). */
export const REPLICA_MAX_AGE_MS = 6 * 60 * 60_000;
/** The header of `GET api/replica` carrying the copy's manifest (the team server's REPLICA_MANIFEST_HEADER). */
const MANIFEST_HEADER = 'x-folio-replica-manifest';

export interface TeamClientOptions {
  /** The desktop's data folder: `team.json` (which server, who: no secret) and `team-replicas/`. */
  dataDir: string;
  /** The desktop's own core: the shell's while signed out. */
  local: Core;
  /** The OS keychain under TEAM_TOKEN_SERVICE (tests: the real one under a test keyring). */
  keychain: Keychain;
  /** Opens a core over a replica (createCore with `replica`, as the shell's other options). */
  openReplica: (replica: ReplicaOf) => Promise<Core>;
  /** This computer's name, for the token's label ("desktop on HOST"). */
  device?: string;
  /** How often the server is tried again while its copy (or nothing) is shown, in ms (0: never; tests call reconnect). */
  retryEveryMs?: number;
  /** How old the copy kept may get while the server answers before a new one is downloaded (REPLICA_MAX_AGE_MS). */
  replicaMaxAgeMs?: number;
}

export interface TeamClient {
  /** The core the shell dispatches to and listens on: the server, its copy, or the desktop's own. */
  readonly core: Core;
  status(): TeamStatus;
  /** The person's name and password exchanged once for a token (the password is not kept); the copy downloaded. */
  signIn(origin: string, name: string, password: string): Promise<TeamStatus>;
  /** A token made with `folioscope users token` pasted instead. */
  signInWithToken(origin: string, token: string): Promise<TeamStatus>;
  /** The token revoked on the server if it answers, deleted from the keychain; the copy kept unless asked. */
  signOut(o?: { deleteReplica?: boolean }): Promise<TeamStatus & { replicaKept: boolean; revoked: boolean }>;
  /** A new copy of the server's books downloaded and kept (a bad one never replaces the good one). */
  refreshReplica(): Promise<TeamStatus>;
  /** The server tried again: live if it answers, its copy if not. */
  reconnect(): Promise<TeamStatus>;
  /**
   * While live, a new copy downloaded when the one kept is older than `replicaMaxAgeMs` at `nowMs`
   * (on the retry timer): the copy opened offline is then at most that old. True when one was.
   * A failure keeps the old copy and is said in the status's problem at the next try.
   */
  keepCopyFresh(nowMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** A refusal of the team client, in words the Settings screen shows as they are. */
export class TeamClientError extends Error {
  override name = 'TeamClientError';
  /** The server's coded refusal (a sign-in's), for a screen to say in its own language. */
  constructor(
    message: string,
    readonly said?: CoreSaid,
  ) {
    super(message);
  }
}

interface Remembered {
  origin: string;
  person: string;
  role: Role;
}

const slug = (origin: string) => createHash('sha256').update(origin).digest('hex').slice(0, 16);

export async function startTeamClient(o: TeamClientOptions): Promise<TeamClient> {
  const stateFile = join(o.dataDir, 'team.json');
  const replicasDir = join(o.dataDir, 'team-replicas');
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  let remembered: Remembered | null = readRemembered();
  let active: Core = o.local;
  let kind: TeamStatus['state'] = 'signedOut';
  let problem: string | null = null;
  /** Which copy (`origin|file`) the shell shows now, or `origin|` for none kept; null while not on a copy. */
  let shownReplica: string | null = null;
  /** A copy being downloaded by keepCopyFresh (one at a time). */
  let refreshing = false;
  let unforward: Array<() => void> = [];
  let closed = false;
  // One move between server, copy and own books at a time: a request waits for it.
  let moving: Promise<unknown> = Promise.resolve();

  function readRemembered(): Remembered | null {
    try {
      const r = JSON.parse(readFileSync(stateFile, 'utf8')) as Partial<Remembered>;
      if (typeof r.origin === 'string' && typeof r.person === 'string' && isRole(r.role)) return { origin: r.origin, person: r.person, role: r.role };
    } catch {
      // None kept, or unreadable: signed out.
    }
    return null;
  }

  const replicaDirOf = (origin: string) => join(replicasDir, slug(origin));
  /** The copy kept of a server, as its pointer file says: its file and manifest, or null. */
  function keptReplica(origin: string): { file: string; manifest: ReplicaManifest } | null {
    try {
      const p = JSON.parse(readFileSync(join(replicaDirOf(origin), 'replica.json'), 'utf8')) as { file: string; manifest: ReplicaManifest };
      const file = join(replicaDirOf(origin), p.file);
      return existsSync(file) ? { file, manifest: p.manifest } : null;
    } catch {
      return null;
    }
  }

  function status(): TeamStatus {
    const kept = remembered ? keptReplica(remembered.origin) : null;
    return {
      available: true,
      state: kind,
      origin: remembered?.origin ?? null,
      person: remembered?.person ?? null,
      role: remembered?.role ?? null,
      replicaAt: kept?.manifest.createdAt ?? null,
      problem,
    };
  }

  /** The shell's core becomes `next`: its events are forwarded, the screens told to read again. */
  async function use(next: Core, state: TeamStatus['state']): Promise<void> {
    const previous = active;
    unforward.forEach((u) => u());
    unforward = EVENT_NAMES.map((name) => next.on(name, (payload) => emit(name, payload)));
    active = next;
    kind = state;
    shownReplica = null;
    if (previous !== next && previous !== o.local) await previous.close().catch(() => undefined);
    if (previous !== next) emit('data.changed', { scope: 'mode' });
  }

  function emit<E extends EventName>(name: E, payload: EventPayloads[E]): void {
    for (const l of [...(listeners.get(name) ?? [])]) {
      try {
        (l as (p: EventPayloads[E]) => void)(payload);
      } catch {
        // A failing listener must not stop the others.
      }
    }
  }

  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = moving.catch(() => undefined).then(work);
    moving = next.catch(() => undefined);
    return next;
  };

  /** To the server if it answers with this token, else to its copy (or offline, with no copy). */
  async function connect(): Promise<void> {
    if (!remembered || closed) return use(o.local, 'signedOut');
    const origin = remembered.origin;
    const token = await o.keychain.get(origin).catch(() => null);
    if (!token) {
      problem = `No token for ${origin} is in this computer's keychain: sign in again.`;
      return toReplica();
    }
    let remote: Core;
    try {
      remote = await remoteCore(origin, token, {
        tokenFrom: "this computer's token",
        // The stream ended (the server stopped, the network went): the copy until it answers again.
        onStreamEnd: () => {
          if (active === remote) void serially(() => wentAway(remote, `The team server at ${origin} stopped answering.`));
        },
      });
    } catch (err) {
      problem = (err as Error).message;
      return toReplica();
    }
    problem = null;
    await use(remote, 'live');
  }

  async function wentAway(from: Core, why: string): Promise<void> {
    if (active !== from) return;
    problem = why;
    // Asked once more at once: a stream can end with the server still there (a proxy's idle
    // limit, a connection dropped under load), and the copy is for when it does not answer.
    await connect();
  }

  async function toReplica(): Promise<void> {
    const origin = remembered!.origin;
    const kept = keptReplica(origin);
    // Already showing this very copy (a retry that found the server still away): kept as it is,
    // so the screens are not read again every time the server is tried.
    if (kept && kind === 'replica' && shownReplica === `${origin}|${kept.file}`) return;
    if (!kept && kind === 'offline' && shownReplica === `${origin}|`) return;
    if (kept) {
      try {
        const m = verifyReplica(kept.file, kept.manifest, origin);
        await use(await o.openReplica({ file: kept.file, origin, madeAt: m.createdAt }), 'replica');
        shownReplica = `${origin}|${kept.file}`;
        return;
      } catch (err) {
        problem = `${problem ?? ''} The copy kept of ${origin} cannot be opened: ${(err as Error).message}`.trim();
      }
    }
    await use(
      offlineCore(origin, () => problem),
      'offline',
    );
    shownReplica = `${origin}|`;
  }

  async function download(origin: string, token: string): Promise<void> {
    let res: Response;
    try {
      // Made for someone else just now, or for this person less than a minute ago: the copy comes a moment later.
      res = await waitingOutSlowDowns(() => fetch(`${origin}/api/replica`, { headers: { authorization: `Bearer ${token}` } }));
    } catch (err) {
      throw new TeamClientError(unreachable(origin, err));
    }
    if (res.status === 401) throw new TeamClientError(`The team server at ${origin} refused this computer's token: sign in again.`);
    const header = res.headers.get(MANIFEST_HEADER);
    if (!res.ok || !res.body || !header) throw new TeamClientError(`The team server at ${origin} did not send a copy of its books (HTTP ${res.status}).`);
    let manifest: unknown;
    try {
      manifest = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    } catch {
      throw new TeamClientError(`The team server at ${origin} sent a copy without a readable manifest: the copy kept is unchanged.`);
    }
    const dir = replicaDirOf(origin);
    ownerOnlyFolder(replicasDir);
    ownerOnlyFolder(dir);
    const name = `replica-${randomBytes(6).toString('hex')}.sqlite`;
    const partial = join(dir, `${name}.partial`);
    try {
      await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(partial, { mode: 0o600, flags: 'wx' }));
      const m = verifyReplica(partial, manifest, origin);
      const before = keptReplica(origin);
      renameSync(partial, join(dir, name));
      // The pointer names the new copy in one rename: before it, the old copy is the one kept.
      writeSmallFile(join(dir, 'replica.json'), JSON.stringify({ file: name, manifest: m }, null, 2) + '\n');
      if (before && before.file !== join(dir, name)) rmSync(before.file, { force: true });
    } catch (err) {
      rmSync(partial, { force: true });
      if (err instanceof TeamClientError) throw err;
      throw new TeamClientError(`The copy of ${origin}'s books did not check out (${(err as Error).message}); the copy kept is unchanged.`);
    }
  }

  async function remember(r: Remembered | null): Promise<void> {
    remembered = r;
    if (r) {
      ownerOnlyFolder(o.dataDir);
      writeSmallFile(stateFile, JSON.stringify(r, null, 2) + '\n');
    } else rmSync(stateFile, { force: true });
  }

  async function whoIs(origin: string, token: string): Promise<{ person: string; role: Role }> {
    let res: Response;
    try {
      res = await fetch(`${origin}/api/session`, { headers: { authorization: `Bearer ${token}` } });
    } catch (err) {
      throw new TeamClientError(unreachable(origin, err));
    }
    if (res.status === 401) throw new TeamClientError(`The team server at ${origin} refused that token: it is unknown, revoked, or its person is disabled.`);
    const who = (await res.json().catch(() => null)) as { person?: unknown; role?: unknown } | null;
    if (!res.ok || typeof who?.person !== 'string' || !isRole(who.role))
      throw new TeamClientError(`${origin} did not answer as a Folioscope team server (HTTP ${res.status}).`);
    return { person: who.person, role: who.role };
  }

  function originOf(address: string): string {
    const p = serverProblem(address.trim());
    if (p) throw new TeamClientError(p.replaceAll('--server ', '').replace(`the token goes in FOLIOSCOPE_TOKEN`, 'type them below'));
    return new URL(address.trim()).origin;
  }

  async function signedIn(origin: string, token: string, who: { person: string; role: Role }): Promise<TeamStatus> {
    // Any other server's sign-in ends first: one server at a time.
    if (remembered && remembered.origin !== origin) await o.keychain.delete(remembered.origin).catch(() => false);
    await o.keychain.set(origin, token);
    await remember({ origin, ...who });
    try {
      await download(origin, token);
    } catch (err) {
      problem = (err as Error).message;
    }
    await connect();
    return status();
  }

  const client: TeamClient = {
    core: {
      async dispatch(op, input, options = {}) {
        // Settings → Team: answered here, whichever books are in use.
        if (op.startsWith('team.') && Object.hasOwn(CONTRACT, op)) return teamOperation(op, input);
        // This computer's data folder (its passphrase, where its downloads are written) is the
        // desktop's own whichever books are shown: a server's folder is on another machine.
        if (op === 'cache.locked' || op === 'cache.unlock') return o.local.dispatch(op, input, options);
        await moving;
        const from = active;
        const res = await from.dispatch(op, input, options);
        // The server went away mid-request: its copy answers (a read), or says what it cannot do.
        if (!res.ok && res.error.kind === 'network' && kind === 'live' && from === active) {
          await serially(() => wentAway(from, res.error.message));
          return active.dispatch(op, input, options);
        }
        return res;
      },
      request: (async (op: string, input: unknown) => {
        const res = await client.core.dispatch(op, input);
        if (!res.ok) throw new Error(res.error.message);
        return res.result;
      }) as Core['request'],
      call: ((op: string, input: unknown) => active.call(op as never, input as never)) as Core['call'],
      on(event, listener) {
        const set = listeners.get(event) ?? new Set();
        set.add(listener as (payload: never) => void);
        listeners.set(event, set);
        return () => void set.delete(listener as (payload: never) => void);
      },
      demoService: () => active.demoService(),
      get people() {
        return active.people;
      },
      replica: (origin) => active.replica(origin),
      close: () => client.close(),
    },
    status,
    signIn: (address, name, password) =>
      serially(async () => {
        const origin = originOf(address);
        let res: Response;
        try {
          res = await fetch(`${origin}/api/device-token`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name, password, device: o.device ?? hostname() }),
          });
        } catch (err) {
          throw new TeamClientError(unreachable(origin, err));
        }
        const answer = (await res.json().catch(() => null)) as Envelope<{ token: string; person: string; role: Role }> | null;
        if (!answer) throw new TeamClientError(`${origin} did not answer as a Folioscope team server (HTTP ${res.status}).`);
        if (!answer.ok) throw new TeamClientError(answer.error.message, answer.error.said);
        return signedIn(origin, answer.result.token, { person: answer.result.person, role: answer.result.role });
      }),
    signInWithToken: (address, token) =>
      serially(async () => {
        const origin = originOf(address);
        const t = token.trim();
        if (!/^fst_[A-Za-z0-9_-]{20,96}$/.test(t))
          throw new TeamClientError('That is not a team server token: it starts fst_ (folioscope users token NAME prints one).');
        return signedIn(origin, t, await whoIs(origin, t));
      }),
    signOut: (opts = {}) =>
      serially(async () => {
        const r = remembered;
        let revoked = false;
        if (r) {
          const token = await o.keychain.get(r.origin).catch(() => null);
          if (token) {
            try {
              const res = await fetch(`${r.origin}/api/revoke-token`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
              revoked = res.ok;
            } catch {
              // Unreachable: the token is forgotten here; an owner can revoke it there (folioscope users tokens).
            }
          }
          await o.keychain.delete(r.origin).catch(() => false);
          if (opts.deleteReplica) rmSync(replicaDirOf(r.origin), { recursive: true, force: true });
        }
        const replicaKept = !!r && !opts.deleteReplica && keptReplica(r.origin) !== null;
        const replicaAt = r && replicaKept ? keptReplica(r.origin)!.manifest.createdAt : null;
        await remember(null);
        problem = null;
        await use(o.local, 'signedOut');
        return { ...status(), replicaAt, replicaKept, revoked };
      }),
    refreshReplica: () =>
      serially(async () => {
        if (!remembered) throw new TeamClientError('Sign in to a team server first.');
        const token = await o.keychain.get(remembered.origin);
        if (!token) throw new TeamClientError(`No token for ${remembered.origin} is in this computer's keychain: sign in again.`);
        await download(remembered.origin, token);
        // On the copy: the new one is opened in its place.
        if (kind === 'replica' || kind === 'offline') await connect();
        return status();
      }),
    reconnect: () =>
      serially(async () => {
        if (kind !== 'live') await connect();
        return status();
      }),
    keepCopyFresh: async (nowMs) => {
      const r = remembered;
      if (kind !== 'live' || !r || refreshing) return false;
      const kept = keptReplica(r.origin);
      if (kept && nowMs - Date.parse(kept.manifest.createdAt) < (o.replicaMaxAgeMs ?? REPLICA_MAX_AGE_MS)) return false;
      const token = await o.keychain.get(r.origin).catch(() => null);
      if (!token) return false;
      // Not in the queue of sign-in and sign-out: a fund's copy takes a while, and only the files
      // change (the screens work on the server meanwhile).
      refreshing = true;
      try {
        await download(r.origin, token);
        return true;
      } catch {
        return false;
      } finally {
        refreshing = false;
      }
    },
    close: async () => {
      closed = true;
      await moving.catch(() => undefined);
      unforward.forEach((u) => u());
      if (active !== o.local) await active.close().catch(() => undefined);
    },
  };

  /** The contract's `team.*` operations: their answer, or the refusal's sentence (never the password, which is not kept). */
  async function teamOperation(op: string, input: unknown): Promise<Envelope<unknown>> {
    const parsed = CONTRACT[op as 'team.status'].input.safeParse(input);
    // An input the contract refuses: the desktop's own core says so in its words (the field, the code a screen translates).
    if (!parsed.success) return o.local.dispatch(op, input);
    const i = (parsed.data ?? {}) as Record<string, string>;
    try {
      const result =
        op === 'team.status'
          ? status()
          : op === 'team.signIn'
            ? await client.signIn(i['origin']!, i['name']!, i['password']!)
            : op === 'team.useToken'
              ? await client.signInWithToken(i['origin']!, i['token']!)
              : op === 'team.signOut'
                ? await client.signOut({ deleteReplica: (parsed.data as { deleteReplica?: boolean } | undefined)?.deleteReplica === true })
                : await client.refreshReplica();
      return { ok: true, result };
    } catch (err) {
      const said = err instanceof TeamClientError ? err.said : undefined;
      return { ok: false, error: { kind: 'validation', field: 'team', message: (err as Error).message, ...(said && { said }), retryable: false } };
    }
  }

  const retry =
    o.retryEveryMs === 0
      ? null
      : setInterval(() => {
          if (kind === 'replica' || kind === 'offline') void client.reconnect().catch(() => undefined);
          else if (kind === 'live') void client.keepCopyFresh(Date.now());
        }, o.retryEveryMs ?? 30_000);
  retry?.unref();
  const closeClient = client.close;
  client.close = async () => {
    if (retry) clearInterval(retry);
    await closeClient();
  };

  await serially(connect);
  return client;
}

/**
 * The desktop's team client as the Electron shell and `folioscope serve` start it: the OS
 * keychain under TEAM_TOKEN_SERVICE, and a replica opened as a core of the same shell. The shell
 * then dispatches to `client.core`, and closes the client before its own core.
 */
export function startDesktopTeam(local: Core, o: { dataDir: string; shell: 'electron' | 'web'; version: string; keychain?: Keychain }): Promise<TeamClient> {
  return startTeamClient({
    dataDir: o.dataDir,
    local,
    keychain: o.keychain ?? teamTokenKeychain(),
    openReplica: (replica) => createCore({ dataDir: o.dataDir, shell: o.shell, version: o.version, replica, scheduleEveryMs: 0 }),
  });
}

/** The shell's core while signed in, the server unreachable and no copy kept: every request says so. */
function offlineCore(origin: string, why: () => string | null): Core {
  const answer = (): Envelope<unknown> => ({
    ok: false,
    error: {
      kind: 'network',
      message: `${why() ?? `The team server at ${origin} cannot be reached.`} No copy of its books is kept on this computer yet: it is downloaded when the server answers.`,
      retryable: true,
    },
  });
  const fail = async () => {
    const a = answer();
    throw new Error(a.ok ? 'offline' : a.error.message);
  };
  return {
    dispatch: async () => answer(),
    request: fail as Core['request'],
    call: fail as Core['call'],
    on: () => () => undefined,
    demoService: () => null,
    people: new Proxy({} as Core['people'], {
      get() {
        throw new Error("The team server's people are kept on its machine.");
      },
    }),
    replica: fail,
    close: async () => undefined,
  };
}
