/**
 * The composition root: one core that every shell (Electron, web, CLI) drives through the
 * contract. It puts the parts together — the session (service, cache, key), the reactions to
 * changes, the scheduler and backups, and each capability's handlers — and dispatches: each
 * input is validated against the contract's schema, run by its capability's handler on the
 * cache open now, and failures are turned into serialisable errors without stacks.
 */
import { coded } from '../../shared/core-codes.ts';
import { join } from 'node:path';
import { CONTRACT, type Envelope, type EventPayloads, type InputOf, type OutputOf, type ParsedInputOf, type TimelineFacets } from '../../shared/contract.ts';
import { EVENT_NAMES, type EventName, type OperationName } from '../../shared/operations.ts';
import { roleAllows, type Actor, type Permission, type Role } from '../../shared/roles.ts';
import { webhookShown } from '../../shared/webhook.ts';
import { CLOCK_KINDS, alertHandlers } from './alerts/index.ts';
import { analyticsHandlers } from './analytics/index.ts';
import { annotationHandlers } from './annotations/index.ts';
import { auditHandlers } from './audit/index.ts';
import { Backups, backupHandlers } from './backups/index.ts';
import { closeHandlers } from './closes/index.ts';
import { counterpartyHandlers, counterpartyNamer } from './counterparties/index.ts';
import { combine, type HandlerContext, type ScopeContext } from './handlers.ts';
import { packHandlers } from './pack/index.ts';
import { PeopleError, peopleKeeper, peopleOf, type People } from './people/index.ts';
import type { ReplicaManifest } from './store/replica-files.ts';
import { makeReplicaOffThread } from './replica.ts';
import { answerWarmer, keptJudge, portfolioHandlers, type AnswerWarmer } from './portfolio/index.ts';
import { positionHandlers } from './positions/index.ts';
import { createReactions } from './reactions.ts';
import { changeUnderWay, PASSPHRASE_ENV, waitsForPassphrase, WrongPassphraseError } from './secrets/index.ts';
import { reportHandlers, type ExportTarget, type SaveFormat } from './reports/index.ts';
import { scheduleHandlers, Scheduler } from './schedule/index.ts';
import { serviceHandlers } from './service/index.ts';
import { sessionHandlers, type DemoService, Session, type SessionOptions } from './session/index.ts';
import { spamHandlers } from './spam/index.ts';
import { localPerson, withAuditOrigin, withAuditVia, type EditAuthor } from './store/audit.ts';
import { assertCacheInPlace, noteDamage } from './store/db.ts';
import { getGroup } from './store/groups.ts';
import { refusal, ValidationError } from './store/validation.ts';
import { getWallet, listWallets } from './store/wallets.ts';
import { syncHandlers } from './sync/index.ts';
import { refreshTransferDaysFor } from './transactions/index.ts';
import { ledgerHandlers } from './ledger/index.ts';
import { Emitter } from './util/emitter.ts';
import { schemaError, serializeError } from './util/errors.ts';
import { userDataHandlers } from './userdata/index.ts';
import { walletHandlers } from './wallets/index.ts';

export type { DemoService, DemoStarter } from './session/index.ts';

/** What a shell gives the core: the session's (data folder, keychains, service, demo) and the rest. */
export interface CoreOptions extends SessionOptions {
  version?: string;
  /** Opens an allowed external URL (the Electron shell passes shell.openExternal). */
  openExternal?: (url: string) => Promise<void>;
  /** How often the app and web shell look for due schedules and a due backup (0: never, for tests that drive them). */
  scheduleEveryMs?: number;
  /** Asks where to save an export (the Electron shell's save dialog, the CLI's --out); without it, exports are web downloads. */
  chooseSavePath?: (defaultName: string, format: SaveFormat) => Promise<string | null>;
  /**
   * Who the audit trail names for this core's edits (issue 37 item 1): on a desktop the operating
   * system's account at this machine (store/audit.ts localPerson), unless the shell knows better.
   */
  person?: string;
  /**
   * A team server's core (set by the team server shell): a close is prepared by one person and
   * approved by another (closes.close, both at once, is refused, and so is approving your own
   * prepared close). Without it — a desktop, the CLI on its own cache, the loopback web shell —
   * one person may prepare and approve, and the close says so.
   */
  team?: boolean;
}

/** The signal of a caller that never cancels (the shells' own `request`, tests' `call`). */
const NEVER = new AbortController().signal;

/**
 * What a shell may say of a request beside its input: the caller's signal, and on a team server
 * the signed-in person (src/shared/roles.ts), whose role the one gate checks against what the
 * operation needs and whom the audit trail names. Without an actor the core is its one user's
 * (the desktop app, the loopback web shell, the CLI on its own cache).
 */
export interface DispatchOptions {
  signal?: AbortSignal;
  actor?: Actor;
  /** Asked by the core itself in the background (portfolio/warm.ts), not by a person. */
  background?: boolean;
}

/** The refusal of an operation the actor's role does not allow (`needs`: what this input needs, when more than the operation); null when it does (or there is no actor). */
function forbidden(op: OperationName, actor: Actor | undefined, needs: Permission = CONTRACT[op].needs): Envelope<unknown> | null {
  if (!actor || roleAllows(actor.role, needs)) return null;
  return { ok: false, error: { kind: 'forbidden', retryable: false, ...coded('role.forbidden', { person: actor.person, role: actor.role, op, needs }) } };
}

/** The operations that change a core's service or its key: on a team server, set on its machine only. */
const SERVICE_ON_SERVER: ReadonlySet<OperationName> = new Set(['key.set', 'key.clear', 'app.connect', 'app.useDemo']);
/**
 * A team server's data folder is encrypted, decrypted and unlocked on its machine too: a
 * passphrase never travels through a browser or the desktop's team client, and no person's
 * request leaves the server unable to start unattended (it would wait for a passphrase).
 */
const ENCRYPTION_ON_SERVER: ReadonlySet<OperationName> = new Set(['cache.encrypt', 'cache.decrypt', 'cache.rekey', 'cache.unlock']);

/**
 * What a replica refuses beside every operation that writes: what syncs or would reach the
 * service (it has none), or would change the data folder's key or its service. A read that only
 * may reach it (the service's doctor, a transaction's logs) reads what is kept, and the client
 * that is no client refuses the rest (session/profile.ts openReplica).
 */
const REPLICA_REFUSES: ReadonlySet<OperationName> = new Set([
  'app.connect',
  'app.useDemo',
  'key.set',
  'key.clear',
  'sync.positions',
  'sync.backfill',
  'sync.transactions',
  'sync.all',
  'cache.encrypt',
  'cache.decrypt',
  'cache.rekey',
  'cache.unlock',
  'schedules.runDue',
  'backups.create',
  'backups.restore',
  'service.check',
]);

/**
 * An answer as a person may see it: who may not set the settings (an owner's) sees the webhook URL
 * only as where it goes (src/shared/webhook.ts); the trail and exports keep it so for everyone.
 */
function shownTo<T>(actor: Actor | undefined, op: OperationName, result: T): T {
  if (!actor || roleAllows(actor.role, 'admin') || (op !== 'settings.get' && op !== 'settings.update' && op !== 'settings.display')) return result;
  const settings = result as T & { alertWebhookUrl: string | null };
  return { ...settings, alertWebhookUrl: webhookShown(settings.alertWebhookUrl) };
}

/** Signing in to a team server is the desktop's team client's (src/main/team-client), which answers it before any core. */
const desktopOnly = (): never => {
  throw refusal('team', 'team.desktopOnly', {});
};

/** The answer to a request its caller cancelled: never a result the caller has stopped waiting for. */
const CANCELLED = { ok: false, error: { kind: 'cancelled', message: 'Cancelled: the answer is no longer needed.', retryable: false } } as const;

/**
 * What a shell holds: the contract (`dispatch` for what crosses a process boundary, `request`
 * for a shell in this process), its events, and nothing of the core's internals.
 */
export interface Core {
  /**
   * With a signal, the caller may cancel: the work stops where it checks, and the answer is `cancelled`.
   * With an actor (a team server's signed-in person), the person's role is checked and the audit trail names them.
   */
  dispatch(op: string, input: unknown, options?: DispatchOptions): Promise<Envelope<unknown>>;
  /** An already-validated input straight to its handler (tests; shells use `request`). */
  call<K extends OperationName>(op: K, input: ParsedInputOf<K>): Promise<OutputOf<K>>;
  /** An operation as a shell asks it: validated by the contract like any request; a failure is thrown with its message. */
  request<K extends OperationName>(op: K, input: InputOf<K>): Promise<OutputOf<K>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
  /** The demo mode's service the starter gave; null when connected to a real service. */
  demoService(): DemoService | null;
  /**
   * The people of a team server (core/people): sign-in, sessions, API tokens, `folioscope users`.
   * Beside the contract on purpose: no renderer may ask for a session or a password check.
   */
  people: People;
  /**
   * A team server's replica of its books for a desktop (docs/team.md, "The desktop on a team
   * server"): a checked plain copy without the people's secrets, in a new file the caller serves
   * and removes, with its manifest. Beside the contract on purpose, as `people`: it is a file, not
   * an answer, and only the team server's shell serves it.
   */
  replica(origin: string, o?: { role?: Role }): Promise<{ file: string; manifest: ReplicaManifest }>;
  close(): Promise<void>;
}

/**
 * The core of a data folder. A folder encrypted with a passphrase that was not given
 * (FOLIOSCOPE_CACHE_PASSPHRASE, `cachePassphrase`) makes, in the app and the web shell, a core
 * that waits for it (lockedCore: the unlock screen asks); the CLI has no screen, and stops with
 * CacheProblemError 'locked' saying to set it, as does a missing or wrong key of any other kind.
 */
export async function createCore(o: CoreOptions): Promise<Core> {
  if (o.shell !== 'cli' && waitsForPassphrase(o.dataDir, o.cachePassphrase ?? (o.env ?? process.env)[PASSPHRASE_ENV])) return lockedCore(o);
  return openCore(o);
}

/** What every operation but `cache.locked` and `cache.unlock` answers while the folder waits for its passphrase. */
const LOCKED = {
  ok: false,
  error: {
    kind: 'locked',
    message: `This data folder is encrypted with a passphrase: unlock it first (type the passphrase, or start with ${PASSPHRASE_ENV} set).`,
    retryable: false,
  },
} as const;

/**
 * A core whose folder waits for its passphrase: nothing of the folder is open, and it answers
 * only `cache.locked` and `cache.unlock` (every other operation: `locked`). A right passphrase
 * opens the real core (openCore, the key derived and checked as at any start) and from then on
 * every operation and event is that core's; a wrong one changes nothing and may be typed again
 * (scrypt's half second per try is the pace of guessing, as for a thief of the files). The
 * passphrase goes to the session's memory only: it is never written, logged, put in an error
 * or answered back.
 */
function lockedCore(o: CoreOptions): Core {
  const events = new Emitter<EventPayloads>();
  let opened: Core | null = null;
  let opening: Promise<Envelope<unknown>> | null = null;
  let closed = false;
  const state = { ok: true, result: { locked: true, dataDir: o.dataDir, changing: changeUnderWay(o.dataDir) } } as const;

  async function unlock(input: unknown): Promise<Envelope<unknown>> {
    const parsed = CONTRACT['cache.unlock'].input.safeParse(input);
    if (!parsed.success) {
      return { ok: false, error: schemaError(parsed.error.issues[0]!) };
    }
    let core: Core;
    try {
      core = await openCore({ ...o, cachePassphrase: parsed.data.passphrase });
    } catch (err) {
      if (err instanceof WrongPassphraseError)
        return {
          ok: false,
          error: { kind: 'validation', field: 'passphrase', retryable: false, ...coded(err.before ? 'cache.passphraseBefore' : 'cache.wrongPassphrase', {}) },
        };
      return { ok: false, error: serializeError(err) };
    }
    if (closed) {
      await core.close();
      return LOCKED;
    }
    // The shells subscribed to this core before it opened: they hear the real one's events.
    for (const name of EVENT_NAMES) core.on(name, (payload) => events.emit(name, payload as never));
    opened = core;
    return { ok: true, result: { locked: false, dataDir: o.dataDir } };
  }

  async function dispatch(op: string, input: unknown, options: DispatchOptions = {}): Promise<Envelope<unknown>> {
    // One opening at a time: a second tab's unlock, or any request, waits for the one under way
    // (a loop: another waiter may have started the next one by the time this one resumes).
    while (opening) await opening;
    if (opened) return opened.dispatch(op, input, options);
    if (!Object.hasOwn(CONTRACT, op))
      return { ok: false, error: { kind: 'validation', message: `Unknown operation "${String(op).slice(0, 60)}".`, retryable: false } };
    const refused = forbidden(op as OperationName, options.actor);
    if (refused) return refused;
    if (op === 'cache.locked') return state;
    if (op !== 'cache.unlock' || closed) return LOCKED;
    opening = unlock(input).finally(() => (opening = null));
    return opening;
  }

  const request = async (op: string, input: unknown): Promise<unknown> => {
    const res = await dispatch(op, input);
    if (!res.ok) throw new Error(res.error.message);
    return res.result;
  };
  return {
    dispatch,
    request: request as Core['request'],
    call: ((op: OperationName, input: unknown) => (opened ? opened.call(op, input as never) : request(op, input))) as Core['call'],
    on: (event, listener) => events.on(event, listener),
    demoService: () => opened?.demoService() ?? null,
    // The people's tables are in the cache: until it is unlocked there is nobody to sign in.
    people: new Proxy({} as People, {
      get: (_t, key) => {
        if (opened) return opened.people[key as keyof People];
        return () => {
          throw new PeopleError(LOCKED.error.message);
        };
      },
    }),
    replica: async (origin, ro) => {
      if (opened) return opened.replica(origin, ro);
      throw new Error(LOCKED.error.message);
    },
    close: async () => {
      closed = true;
      await opening;
      await opened?.close();
    },
  };
}

async function openCore(o: CoreOptions): Promise<Core> {
  const events = new Emitter<EventPayloads>();
  const session = await Session.open(o, events);
  // The screens' last answers, asked again in the background once the syncs end (portfolio/warm.ts)
  // by a core that stays open; a command, which ends with its own work, asks them through sync.settle.
  let warmer: AnswerWarmer | null = null;
  const reactions = createReactions(session, events, o.now, () => (o.shell === 'cli' ? undefined : warmer?.queue()));
  const { changed } = reactions;
  const db = () => session.profile.db;

  // Filter choices of the timeline: distinct protocols need a scan of every cached transaction
  // (bench/RESULTS.md, "Store"), so they are kept until transactions or wallets change.
  const facetsCache = new Map<string, TimelineFacets>();
  // The spam judge of the timeline's pages (below).
  const pageJudge = keptJudge();
  events.on('data.changed', (c) => {
    if (c.scope === 'transactions' || c.scope === 'wallets' || c.scope === 'mode') facetsCache.clear();
  });

  // Each cache's jobs: progress to the shells, a finished sync job as a change of its data, and a
  // damaged page a job met noted (the next start checks the cache and offers the ways forward).
  session.onProfile((p) => {
    const offFailure = p.engine.queue.on('failure', (err) => noteDamage(p.db, err));
    const offProgress = p.engine.onProgress((info) => {
      events.emit('sync.progress', info);
      if (info.kind !== 'export' && (info.state === 'done' || info.state === 'failed' || info.state === 'cancelled')) {
        changed(info.kind === 'transactions' ? 'transactions.synced' : 'positions.synced', info.wallet);
      }
    });
    return () => {
      offFailure();
      offProgress();
    };
  });

  const appVersion = o.version ?? '0.0.0';
  // Who this core's edits are by: one person per desktop core; the shell it runs in says from where.
  const author: EditAuthor = { person: o.person ?? localPerson(o.env ?? process.env), via: o.shell === 'electron' ? 'app' : o.shell };
  const scheduler = new Scheduler(session, {
    shell: o.shell,
    // A scheduled run's edits say so, whether a timer or an operation (`schedule run` from cron) started it.
    asScheduled: (run) => withAuditVia('schedule', author.person, run),
    afterRun: (due) => {
      // After a run every rule; with nothing run, the ones the clock alone can change.
      try {
        reactions.checkAlertsNow(due.runs.length ? {} : { kinds: CLOCK_KINDS });
      } catch {
        // A rule's failure is on the rule; a closed cache is checked at the next start.
      }
    },
    ended: () => changed('schedules.ran'),
  });
  const backups = new Backups(session, appVersion, o.now);
  // Both settle before the cache closes for a restore or a conversion (a backup first).
  session.addUser(backups);
  session.keepWithFolder(peopleKeeper);
  session.addUser(scheduler);
  const scheduleTimer =
    o.shell === 'cli' || o.scheduleEveryMs === 0
      ? null
      : setInterval(() => {
          if (session.profile.readOnly || session.converting) return;
          backups.ifDue();
          scheduler.runDue().catch(() => undefined); // each job's failure is in its info and the run's note
        }, o.scheduleEveryMs ?? 60_000);
  scheduleTimer?.unref();

  const wallet = (address: string) => {
    const w = getWallet(db(), address);
    if (!w) throw new ValidationError('wallet', `${address} is not a watched wallet.`);
    return w;
  };
  const scopeOf = (address: string | undefined, group: number | undefined): string[] | undefined => {
    if (address && group !== undefined) throw new ValidationError('group', 'Choose a wallet or a group, not both.');
    if (address) return [wallet(address).address];
    if (group !== undefined) return getGroup(db(), group).wallets;
    return undefined;
  };
  const scope: ScopeContext = {
    db,
    wallet,
    scopeOf,
    scopeWallets: (address, group) => {
      const members = scopeOf(address, group);
      return listWallets(db()).filter((w) => !members || members.includes(w.address));
    },
    storedScope: (s) => {
      if (s.kind === 'wallet') return { kind: 'wallet', address: wallet(s.address).address };
      if (s.kind === 'group') getGroup(db(), s.id);
      return s;
    },
  };
  /**
   * The daily transfer sums a reconciliation reads, brought up to date from the writer's side
   * first (transactions/store/transfer-days.ts): a reconciliation or a report only reads. A
   * read-only cache keeps none, and its reconciliation sums the transactions directly.
   */
  const keepTransferDays = (wallets: readonly string[]) => {
    if (!session.profile.readOnly) void refreshTransferDaysFor(db(), wallets);
  };
  const target = (): ExportTarget => ({
    ...(o.chooseSavePath && { chooseSavePath: o.chooseSavePath }),
    downloadsDir: join(o.dataDir, 'downloads'),
    ...(!session.profile.readOnly && { keepTransferDays }),
  });
  const current = () => ({ db: db(), queue: session.profile.engine.queue });

  // Each capability answers its own operations (core/handlers.ts says how); they change data
  // through `changed`, whose table (reactions.ts) says what is checked after each change.
  const handlers = combine(
    sessionHandlers({
      session,
      version: appVersion,
      shell: o.shell,
      team: o.team ?? false,
      openExternal: o.openExternal,
      changed,
      converting: (p) => events.emit('cache.converting', p),
    }),
    walletHandlers({ ...scope, writable: db, jobs: () => session.profile.engine.jobs(), changed }),
    syncHandlers(() => session.profile.engine),
    serviceHandlers({ current: () => session.profile, checkConventions: () => session.profile.engine.checkService(), ...(o.now && { now: o.now }) }),
    positionHandlers(scope),
    portfolioHandlers({ ...scope, version: appVersion, writable: () => (session.profile.readOnly ? null : db()) }),
    analyticsHandlers({ ...scope, keepTransferDays }),
    // Each timeline page judged for spam (the spam part reads the ledger, so it is handed in here),
    // by one judge kept from page to page while what it reads is unchanged, or only some wallets'
    // positions (portfolio/kept-judge.ts).
    ledgerHandlers(scope, facetsCache, (db) => {
      const judge = pageJudge(db);
      return (row) => judge.transaction(row);
    }),
    auditHandlers(scope),
    // Rules match counterparties by their names in the address book too (and its 'ours' entries are internal).
    annotationHandlers({ ...scope, writable: db, changed: () => changed('annotations.edited'), namer: () => counterpartyNamer(db()) }),
    counterpartyHandlers({ db, changed: () => changed('counterparties.edited') }),
    // The user's spam verdicts and lists; every reader judges with spamJudge (spam/index.ts).
    spamHandlers({ db, wallet, changed: () => changed('spam.edited') }),
    // The pack names and files its flows as every reader does (pack.ts scopePack).
    packHandlers({ ...scope, keepTransferDays }),
    closeHandlers({
      ...scope,
      keepTransferDays,
      writable: db,
      team: o.team,
      edited: () => changed('closes.edited'),
      fired: (alerts) => {
        reactions.announce(alerts);
        changed('closes.edited');
      },
    }),
    scheduleHandlers({ ...scope, writable: db, scheduler }),
    alertHandlers({ ...scope, writable: db, checkNow: (c) => reactions.checkAlertsNow(c) }),
    backupHandlers(session, backups),
    userDataHandlers({ current, target, app: `Folioscope ${appVersion}`, changed }),
    reportHandlers({ current, target }),
    {
      // The desktop on a team server is the shell's team client (src/main/team-client), which
      // answers these before the core: a core alone (a team server, the CLI) has none.
      'team.status': () => ({ available: false, state: 'signedOut', origin: null, person: null, role: null, replicaAt: null, problem: null }),
      'team.signIn': desktopOnly,
      'team.useToken': desktopOnly,
      'team.signOut': desktopOnly,
      'team.refreshReplica': desktopOnly,
      // A shell that prints what a sync did (the CLI) waits for what the jobs set off first; one
      // that ends then (the CLI) asks the screens' last requests again itself (portfolio/warm.ts).
      'sync.settle': async (input) => {
        await reactions.settle();
        const flagged = reactions.takeFlagged();
        return { flagged, warmed: input?.warm && warmer ? await warmer.now() : 0 };
      },
    },
  );

  async function call<K extends OperationName>(
    op: K,
    input: ParsedInputOf<K>,
    ctx: HandlerContext = { signal: NEVER },
    by: EditAuthor = author,
  ): Promise<OutputOf<K>> {
    // The operation, the person and the shell are what the audit trail names for any edit it makes.
    return withAuditOrigin(op, () => (handlers[op] as (i: ParsedInputOf<K>, c: HandlerContext) => Promise<OutputOf<K>> | OutputOf<K>)(input, ctx), o.now, by);
  }

  async function dispatch(op: string, input: unknown, options: DispatchOptions = {}): Promise<Envelope<unknown>> {
    const signal = options.signal ?? NEVER;
    if (!Object.hasOwn(CONTRACT, op))
      return { ok: false, error: { kind: 'validation', message: `Unknown operation "${String(op).slice(0, 60)}".`, retryable: false } };
    const name = op as OperationName;
    // The one gate: before anything of the input is read, so a role that may not ask learns nothing of it.
    const refused = forbidden(name, options.actor);
    if (refused) return refused;
    // A team server's service and key are its machine's (docs/team.md): a person's request never
    // carries the key through a browser, nor moves everyone's books to another service's cache.
    if (o.team && options.actor && SERVICE_ON_SERVER.has(name))
      return { ok: false, error: { kind: 'forbidden', retryable: false, ...coded('team.serviceOnServer', { op: name }) } };
    if (o.team && options.actor && ENCRYPTION_ON_SERVER.has(name))
      return { ok: false, error: { kind: 'forbidden', retryable: false, ...coded('team.encryptionOnServer', { op: name }) } };
    if (session.swapping) await session.swapping;
    const profile = session.profile;
    // Whether it writes is declared on the contract's operation (src/shared/contract.ts).
    const writes = CONTRACT[name].writes;
    // A team server's replica, offline (docs/team.md): it reads; what writes, syncs or would
    // reach the service is the server's to do, and says so with the copy's time.
    if (profile.replica && (writes || REPLICA_REFUSES.has(name))) {
      const { origin, madeAt } = profile.replica;
      return { ok: false, error: { kind: 'validation', field: 'replica', retryable: false, ...coded('team.replicaReadOnly', { origin, madeAt, op: name }) } };
    }
    if (profile.readOnly && writes) {
      return {
        ok: false,
        error: { kind: 'validation', field: 'cache', retryable: false, ...coded('storage.readOnlyCache', { file: profile.databaseFile }) },
      };
    }
    const parsed = CONTRACT[name].input.safeParse(input);
    if (!parsed.success) {
      return { ok: false, error: schemaError(parsed.error.issues[0]!) };
    }
    // The gate again for an input that needs more than its operation (logs.get's refresh).
    const raised = CONTRACT[name].raised?.(parsed.data);
    const refusedInput = raised ? forbidden(name, options.actor, raised) : null;
    if (refusedInput) return refusedInput;
    // Cancelled before it started (it waited behind a switch of service): nothing is run.
    if (signal.aborted) return CANCELLED;
    try {
      // Never into a cache moved or deleted while the app runs: it would be lost at exit.
      if (writes) assertCacheInPlace(profile.db);
      // A team server's person is named by the server that signed them in (via the web).
      const by: EditAuthor = options.actor ? { person: options.actor.person, via: 'web' } : author;
      const result = shownTo(
        options.actor,
        name,
        await call(
          name,
          parsed.data as never,
          { signal, ...(options.background && { background: true }), ...(options.actor && { person: options.actor.person }) },
          by,
        ),
      );
      // A write that finished is reported as done; a read nobody waits for any more is not sent.
      return signal.aborted && !writes ? CANCELLED : { ok: true, result };
    } catch (err) {
      if (signal.aborted && (err as Error | null)?.name === 'AbortError') return CANCELLED;
      // A damaged page met now: the next start checks the cache and offers the ways forward.
      noteDamage(session.profile.db, err);
      return { ok: false, error: serializeError(err) };
    }
  }

  warmer = answerWarmer({
    db: () => (session.profile.readOnly ? null : db()),
    // Through the contract's own check of the input, as a screen's ask: the request was read from the file.
    ask: async (op, input, signal) => {
      const res = await dispatch(op, input, { signal, background: true });
      if (!res.ok) throw new Error(res.error.message);
    },
    busy: () => reactions.syncsPending(),
  });

  return {
    dispatch,
    async request(op, input) {
      const res = await dispatch(op, input);
      if (!res.ok) throw new Error(res.error.message);
      // The handler of `op` produced it, typed by the contract.
      return res.result as OutputOf<typeof op>;
    },
    call,
    on: (event, listener) => events.on(event, listener),
    demoService: () => session.profile.demo,
    people: peopleOf(db, author),
    // Without the secrets the asker's role may not see (replica.ts scrubForReplica), off this thread.
    replica: (origin, ro) =>
      backups.replica(({ db, cacheFile, target, appVersion, now }) =>
        makeReplicaOffThread(db, cacheFile, target, { origin, appVersion, now, role: ro?.role ?? null }),
      ),
    close: async () => {
      if (scheduleTimer) clearInterval(scheduleTimer);
      warmer?.stop();
      await reactions.settle();
      // Jobs cancelled from here on change nothing the checks need to see.
      session.unwire();
      // A schedule run is stopped first (not recorded: it runs at the next start), so it gives
      // its lease back while the cache is still open.
      await scheduler.stop();
      // A backup in progress is finished (its copy is named only once checked, so none is left half made).
      await backups.settle();
      await reactions.stop();
      await session.close();
    },
  };
}
