/**
 * The composition root: one core that every shell (Electron, web, CLI) drives through the
 * contract. It validates each input against the contract's schema, runs the operation on
 * the current profile, and turns failures into serialisable errors without stacks.
 */
import {
  CONTRACT,
  type AppInfo,
  type Envelope,
  type EventPayloads,
  type InputOf,
  type OutputOf,
  type ParsedInputOf,
  type TimelineFacets,
  type WalletStatus,
} from '../../shared/contract.ts';
import { allowedExternalUrl } from '../../shared/explorers.ts';
import type { Alert, AlertKind, DueRuns, ScheduleScope, Wallet } from '../../shared/model.ts';
import { portfolioHandlers } from './portfolio/index.ts';
import { transactionHandlers, incompleteReasons, refreshTransferDaysFor } from './transactions/index.ts';
import { auditHandlers } from './audit/index.ts';
import { packHandlers } from './pack/index.ts';
import { closeHandlers, runCloseCheck } from './closes/index.ts';
import { withAuditOrigin } from './store/audit.ts';
import { annotationHandlers, applyRulesToAll, applyRulesToNew } from './annotations/index.ts';
import { listRules } from './store/annotations.ts';
import { counterpartyHandlers, counterpartyNamer, nameTrace } from './counterparties/index.ts';
import { combine, type HandlerContext, type Handlers, type ScopeContext } from './handlers.ts';
export type { HandlerContext, Handlers } from './handlers.ts';
import type { EventName, OperationName } from '../../shared/operations.ts';
import { type Keychain, KEYCHAIN_SERVICE, systemKeychain, Secrets, checkKey, CACHE_KEY_SERVICE, PASSPHRASE_ENV, type KeySources } from './secrets/index.ts';
import { conventionsReport, listAnomalies, redactText, conventionItems, runServiceCheck, loadServiceCheck, saveServiceCheck } from './service/index.ts';
import { checkPeriod, reconcile, reconcileTrace } from './analytics/index.ts';
import { getGroup, listGroups, removeGroup, saveGroup } from './store/groups.ts';
import { getSettings, readSettings, updateSettings } from './store/settings.ts';
import { clearCache } from './positions/index.ts';
import { ValidationError } from './store/validation.ts';
import { addressKey } from './store/address-key.ts';
import { assertCacheInPlace, CacheProblemError, noteDamage } from './store/db.ts';
import { addWallet, getWallet, listWallets, removeWallet, updateWallet } from './store/wallets.ts';
import { listSchedules, removeSchedule, saveSchedule } from './store/schedules.ts';
import { leaseHolder, runDueSchedules, withNextSlot } from './schedule/index.ts';
import { acknowledgeAlert, alertInbox, listAlertRules, recordDelivery, removeAlertRule, saveAlertRule, snoozeAlert } from './store/alerts.ts';
import { checkAlerts, CLOCK_KINDS, postWebhook, webhookPayload } from './alerts/index.ts';
import { walletCacheSummary } from './sync/index.ts';
import { Emitter } from './util/emitter.ts';
import { serializeError } from './util/errors.ts';
import { databaseFileFor, type DemoService, type DemoStarter, normaliseBaseUrl, openProfile, type Profile, readAppConfig, writeAppConfig } from './profile.ts';
import { type SaveFormat, startExport } from './reports/index.ts';
import { join } from 'node:path';
import { backupDue, backupsFolderOf, listBackups, pruneBackups, swapInRestore, undoRestore } from './store/backups.ts';
import { createBackupOffThread, stageRestoreOffThread, verifyBackupOffThread } from './store/backup-thread.ts';
import { applyUserData } from './store/user-data.ts';
import { readUserDataFile, planImport, startUserDataExport } from './userdata/index.ts';
import { rmSync } from 'node:fs';
import { decryptFolder, encryptFolder, encryptionStatus, loadFolderKey } from './encryption.ts';
import type { CacheKey } from './store/driver.ts';

export type { DemoService, DemoStarter } from './profile.ts';

export interface CoreOptions {
  dataDir: string;
  shell: AppInfo['shell'];
  version?: string;
  keychain?: Keychain;
  /** The keychain of the data folders' cache keys (default: the system's, service "Folioscope cache key"). */
  cacheKeychain?: Keychain;
  /** The passphrase of a passphrase-encrypted data folder (default: FOLIOSCOPE_CACHE_PASSPHRASE). */
  cachePassphrase?: string;
  env?: Record<string, string | undefined>;
  /** A base URL from the command line or the environment; overrides app.json for this run. */
  baseUrl?: string | null;
  /**
   * Starts the demo mode's service (the shells hand in the reference service of src/sim; tests
   * its options, such as a fixed clock). Without it, demo mode is refused with why.
   */
  demo?: DemoStarter;
  /** Opens an allowed external URL (the Electron shell passes shell.openExternal). */
  openExternal?: (url: string) => Promise<void>;
  /** Open the start-up cache read-only (a way forward from a damaged or unwritable cache). */
  readOnlyCache?: boolean;
  /** How often the app and web shell look for due schedules and a due backup (0: never, for tests that drive them). */
  scheduleEveryMs?: number;
  /** Asks where to save an export (the Electron shell's save dialog, the CLI's --out); without it, exports are web downloads. */
  chooseSavePath?: (defaultName: string, format: SaveFormat) => Promise<string | null>;
}

/** The signal of a caller that never cancels (the shells' own `request`, tests' `call`). */
const NEVER = new AbortController().signal;

/** The answer to a request its caller cancelled: never a result the caller has stopped waiting for. */
const CANCELLED = { ok: false, error: { kind: 'cancelled', message: 'Cancelled: the answer is no longer needed.', retryable: false } } as const;

/**
 * What a shell holds: the contract (`dispatch` for what crosses a process boundary, `request`
 * for a shell in this process), its events, and nothing of the core's internals.
 */
export interface Core {
  /** With a signal, the caller may cancel: the work stops where it checks, and the answer is `cancelled`. */
  dispatch(op: string, input: unknown, options?: { signal?: AbortSignal }): Promise<Envelope<unknown>>;
  /** An already-validated input straight to its handler (tests; shells use `request`). */
  call<K extends OperationName>(op: K, input: ParsedInputOf<K>): Promise<OutputOf<K>>;
  /** An operation as a shell asks it: validated by the contract like any request; a failure is thrown with its message. */
  request<K extends OperationName>(op: K, input: InputOf<K>): Promise<OutputOf<K>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
  /** The demo mode's service the starter gave; null when connected to a real service. */
  demoService(): DemoService | null;
  close(): Promise<void>;
}

export async function createCore(o: CoreOptions): Promise<Core> {
  const env = o.env ?? process.env;
  // The environment's key belongs to the service named with it at start-up, and to no other:
  // FOLIOSCOPE_BASE_URL when set (the two travel together), else the command line's URL.
  const secrets = new Secrets(o.keychain ?? systemKeychain(KEYCHAIN_SERVICE, { cli: o.shell === 'cli' }), env, {
    envKeyBaseUrl: env['FOLIOSCOPE_BASE_URL'] ?? o.baseUrl ?? null,
  });
  const events = new Emitter<EventPayloads>();
  // Filter choices of the timeline: distinct protocols need a scan (~1 s at 1M rows), so they
  // are kept until transactions or wallets change.
  const facetsCache = new Map<string, TimelineFacets>();
  events.on('data.changed', (c) => {
    if (c.scope === 'transactions' || c.scope === 'wallets' || c.scope === 'mode') facetsCache.clear();
  });
  const configured = o.baseUrl !== undefined ? o.baseUrl : (env['FOLIOSCOPE_BASE_URL'] ?? readAppConfig(o.dataDir).baseUrl);
  const startUrl = usableBaseUrl(configured, o.baseUrl !== undefined);
  // Encryption at rest (encryption.ts): one key for every cache of the data folder, found at
  // start (a missing or wrong one stops here with CacheProblemError 'locked', nothing opened).
  const cacheKeychain = o.cacheKeychain ?? systemKeychain(CACHE_KEY_SERVICE, { cli: o.shell === 'cli' });
  let cachePassphrase = o.cachePassphrase ?? env[PASSPHRASE_ENV] ?? null;
  const keySources = (): KeySources => ({ keychain: cacheKeychain, passphrase: cachePassphrase });
  let cacheKey: CacheKey | null = await loadFolderKey(o.dataDir, databaseFileFor(o.dataDir, startUrl), keySources());
  let profile = await openProfile({
    dataDir: o.dataDir,
    secrets,
    baseUrl: startUrl,
    cacheKey,
    ...(o.demo && { demo: o.demo }),
    ...(o.readOnlyCache && { readOnly: true }),
  });
  let unsubscribe = wire(profile);

  /** Forwards job progress, and says what data changed when a job finishes. */
  function wire(p: Profile): () => void {
    // A damaged page a job met: the next start checks the cache and offers the ways forward.
    const offFailure = p.engine.queue.on('failure', (err) => noteDamage(p.db, err));
    const offProgress = p.engine.onProgress((info) => {
      events.emit('sync.progress', info);
      if (info.kind !== 'export' && (info.state === 'done' || info.state === 'failed' || info.state === 'cancelled')) {
        const scope = info.kind === 'transactions' ? 'transactions' : 'positions';
        events.emit('data.changed', { scope, ...(info.wallet && { wallet: info.wallet }) });
        // Every finished sync job: the category rules and the alert rules look at what it wrote, and
        // the closed periods of its wallet (docs/closes.md) are checked against it.
        if (info.kind === 'transactions') queueRuleApplication();
        queueAlertCheck();
        queueCloseCheck(info.wallet);
      }
    });
    return () => {
      offFailure();
      offProgress();
    };
  }

  const reopen = (baseUrl: string | null) => openProfile({ dataDir: o.dataDir, secrets, baseUrl, cacheKey, ...(o.demo && { demo: o.demo }) });

  async function switchTo(baseUrl: string | null): Promise<void> {
    const next = await reopen(baseUrl);
    unsubscribe();
    await profile.close();
    profile = next;
    unsubscribe = wire(profile);
    writeAppConfig(o.dataDir, { baseUrl });
    events.emit('data.changed', { scope: 'mode' });
  }

  /** The key's status for the live service; demo mode needs none and says so. */
  const keyStatus = async () =>
    profile.mode === 'demo' ? { set: false, source: 'none' as const, keychainAvailable: true, keychainProblem: null } : secrets.status(profile.baseUrl);

  const requireLive = () => {
    if (profile.mode === 'demo') throw new ValidationError('key', 'Demo mode needs no key. Connect to a service (base URL and key) first.');
    return profile.baseUrl;
  };

  const wallet = (address: string) => {
    const w = getWallet(profile.db, address);
    if (!w) throw new ValidationError('wallet', `${address} is not a watched wallet.`);
    return w;
  };

  /** The wallets an operation covers: one wallet, a group's members, or (undefined) all. */
  const scopeOf = (address: string | undefined, group: number | undefined): string[] | undefined => {
    if (address && group !== undefined) throw new ValidationError('group', 'Choose a wallet or a group, not both.');
    if (address) return [wallet(address).address];
    if (group !== undefined) return getGroup(profile.db, group).wallets;
    return undefined;
  };

  /** The watched wallets a wallet, a group or (neither) all stand for, in the order they are watched. */
  const scopeWallets = (address: string | undefined, group: number | undefined): Wallet[] => {
    const members = scopeOf(address, group);
    return listWallets(profile.db).filter((w) => !members || members.includes(w.address));
  };

  const changed = (scope: EventPayloads['data.changed']['scope'], walletAddress?: string) =>
    events.emit('data.changed', { scope, ...(walletAddress && { wallet: walletAddress }) });

  // Alerts (README, "Alerts"): checked after sync jobs (coalesced: a burst of jobs is one check),
  // after each scheduled run, and on the schedules' timer for the kinds that move with the clock.
  // A fired alert is an event (inbox, desktop notification, `watch`) and, when a webhook is
  // set, one POST that never blocks: its outcome is recorded on the alert.
  const deliveries = new Set<Promise<void>>();
  let closing = false;
  const deliver = (p: Profile, a: Alert) => {
    const url = getSettings(p.db).alertWebhookUrl;
    if (!url) return;
    const rule = listAlertRules(p.db).find((r) => r.id === a.ruleId) ?? null;
    const task: Promise<void> = (async () => {
      // Built from the cache only; the key is also redacted from it, in case a cached text held it.
      const key = p.mode === 'live' ? await secrets.get(p.baseUrl).catch(() => null) : null;
      const delivery = await postWebhook(url, redactText(JSON.stringify(webhookPayload(a, rule)), key));
      if (!p.db.open) return;
      recordDelivery(p.db, a.id, delivery);
    })()
      .catch(() => undefined)
      .finally(() => deliveries.delete(task));
    deliveries.add(task);
  };
  const checkAlertsNow = (o: { kinds?: ReadonlySet<AlertKind>; ruleId?: number } = {}): Alert[] => {
    const p = profile;
    if (closing || p.readOnly) return [];
    const fired = checkAlerts(p.db, o);
    for (const a of fired) {
      events.emit('alert.fired', a);
      deliver(p, a);
    }
    return fired;
  };
  let alertCheckQueued = false;
  function queueAlertCheck(): void {
    if (alertCheckQueued) return;
    alertCheckQueued = true;
    setImmediate(() => {
      alertCheckQueued = false;
      try {
        checkAlertsNow();
      } catch {
        // Closed under it, or busy: the next sync or timer checks again.
      }
    });
  }
  // Category rules (core/annotations): applied to the transactions a sync wrote once its job has
  // finished, off the ingest path and coalesced like the alert check (a burst of jobs is one pass
  // over what they added; with no rule it only notes how far the cache goes).
  // A wallet watched or no longer watched changes which transfers are internal: then every
  // rule-made category is decided again (when there is a rule at all).
  let rulesQueued: 'new' | 'all' | null = null;
  function queueRuleApplication(what: 'new' | 'all' = 'new'): void {
    const queued = rulesQueued;
    rulesQueued = queued === 'all' ? 'all' : what;
    if (queued) return;
    setImmediate(() => {
      const all = rulesQueued === 'all';
      rulesQueued = null;
      const p = profile;
      if (closing || p.readOnly || !p.db.open) return;
      try {
        const namer = counterpartyNamer(p.db);
        if (all ? listRules(p.db).length && applyRulesToAll(p.db, { namer }).evaluated : applyRulesToNew(p.db, { namer }).categorised) {
          changed('annotations');
          queueCloseCheck();
        }
      } catch {
        // Closed under it, or busy: the next finished sync (or rule saved) applies them again.
      }
    });
  }
  /** Alerts the core fired without a rule (a closed period changed): announced and delivered as a rule's are. */
  const announce = (fired: Alert[]) => {
    for (const a of fired) {
      events.emit('alert.fired', a);
      deliver(profile, a);
    }
  };
  /**
   * Closed periods (docs/closes.md) are checked against their data after every sync job (those
   * with the job's wallet as a member) and after each user edit that changes what their figures
   * show (labels, groups, imports: all of them): a change is flagged on the period, not absorbed.
   * Coalesced: the wallets asked for meanwhile are checked in one run; one run at a time.
   */
  let closeCheck: Promise<void> | null = null;
  /** What the next run checks: the closes of these wallets (address keys), every close ('all'), or nothing asked (null). */
  let closeCheckAsked: Set<string> | 'all' | null = null;
  let closeCheckTimer = false;
  const checkClosesNow = () => {
    const p = profile;
    const asked = closeCheckAsked;
    if (closing || p.readOnly || !asked || closeCheck) return;
    closeCheckAsked = null;
    closeCheck = runCloseCheck({ writable: () => p.db, fired: announce }, { wallets: asked === 'all' ? undefined : asked })
      .then(({ flagged }) => {
        if (flagged.length) changed('closes');
      })
      .catch(() => undefined) // closed under it, or busy: the next sync or edit checks again
      .finally(() => {
        closeCheck = null;
        // Asked for while it ran (the data may have changed again): another run.
        if (closeCheckAsked) scheduleCloseCheck();
      });
  };
  const scheduleCloseCheck = () => {
    if (closeCheckTimer || closeCheck) return;
    closeCheckTimer = true;
    setImmediate(() => {
      closeCheckTimer = false;
      checkClosesNow();
    });
  };
  /** Asks for a check of the closes of `wallet` (undefined or null: of every close), soon. */
  function queueCloseCheck(wallet?: string | null): void {
    if (!wallet) closeCheckAsked = 'all';
    else if (closeCheckAsked !== 'all') {
      closeCheckAsked ??= new Set<string>();
      closeCheckAsked.add(addressKey(wallet));
    }
    scheduleCloseCheck();
  }
  /**
   * The daily transfer sums a reconciliation reads, brought up to date from the writer's side
   * first (store/queries/transfer-days.ts): a reconciliation or a report only reads. A read-only
   * cache keeps none, and its reconciliation sums the transactions directly.
   */
  const transferDaysKeeper = (p: Profile) =>
    p.readOnly ? {} : { keepTransferDays: (wallets: readonly string[]) => void refreshTransferDaysFor(p.db, wallets) };
  /** A scope as stored: a wallet's address as the wallets list keeps it; a wallet or group that does not exist is refused. */
  const storedScope = (scope: ScheduleScope): ScheduleScope => {
    if (scope.kind === 'wallet') return { kind: 'wallet', address: wallet(scope.address).address };
    if (scope.kind === 'group') getGroup(profile.db, scope.id);
    return scope;
  };

  // Scheduled syncs: the app and the web shell run them while open (checked every minute);
  // the CLI runs them when asked (`folioscope watch`). One run at a time in this process, and
  // one process at a time on a cache (the lease in runDueSchedules).
  const holder = leaseHolder(o.shell);
  let scheduleRun: Promise<DueRuns> | null = null;
  const runSchedules = (): Promise<DueRuns> => {
    scheduleRun ??= runDueSchedules({ db: profile.db, engine: profile.engine, zone: getSettings(profile.db).timeZone, holder })
      .then((due) => {
        // After a run every rule; with nothing run, the ones the clock alone can change.
        try {
          checkAlertsNow(due.runs.length ? {} : { kinds: CLOCK_KINDS });
        } catch {
          // A rule's failure is on the rule; a closed cache is checked at the next start.
        }
        return due;
      })
      .finally(() => {
        scheduleRun = null;
        changed('wallets');
      });
    return scheduleRun;
  };
  // Backups (store/backups.ts): daily while the app or web shell runs, checked with the
  // schedules, made on a worker thread (a large cache takes seconds); a failure is kept for
  // Settings to show, and tried again at the next check. One backup at a time; a restore
  // waits for it.
  let restoring = false;
  /** Set while a restore closes the cache and opens the restored one: requests wait for it. */
  let swapping: Promise<void> | null = null;
  let backupRun: Promise<unknown> | null = null;
  let backupProblem: string | null = null;
  const appVersion = o.version ?? '0.0.0';
  const appName = `Folioscope ${appVersion}`;
  const oneBackupAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const next = (backupRun ?? Promise.resolve()).catch(() => undefined).then(work);
    const settled = next.finally(() => {
      if (backupRun === settled) backupRun = null;
    });
    backupRun = settled;
    settled.catch(() => undefined);
    return next;
  };
  const makeBackup = (reason: 'scheduled' | 'manual') =>
    oneBackupAtATime(async () => {
      const made = await createBackupOffThread(profile.db, profile.databaseFile, reason, appVersion);
      pruneBackups(profile.databaseFile, getSettings(profile.db).backupKeep);
      return made;
    });
  const backupIfDue = () => {
    if (profile.readOnly || restoring || backupRun) return;
    const settings = getSettings(profile.db);
    // A cache with no wallet holds nothing of the user's yet.
    if (!settings.backupEnabled || !listWallets(profile.db).length || !backupDue(profile.databaseFile)) return;
    makeBackup('scheduled').then(
      () => (backupProblem = null),
      (err: unknown) => (backupProblem = (err as Error).message),
    );
  };
  const scheduleTimer =
    o.shell === 'cli' || o.scheduleEveryMs === 0
      ? null
      : setInterval(() => {
          if (profile.readOnly || restoring) return;
          backupIfDue();
          runSchedules().catch(() => undefined); // each job's failure is in its info and the run's note
        }, o.scheduleEveryMs ?? 60_000);
  scheduleTimer?.unref();

  /** Jobs running (or a scheduled run): refused with what runs and what to do, unless they may be cancelled. */
  const refuseWhileJobsRun = (cancelJobs: boolean) => {
    const active = profile.engine.jobs().filter((j) => j.state === 'queued' || j.state === 'running');
    if ((active.length || scheduleRun) && !cancelJobs) {
      const them = active.length === 1 ? 'it' : 'them';
      throw new ValidationError(
        'jobs',
        `${active.length || 1} job${active.length === 1 ? ' is' : 's are'} running (${active.map((j) => j.label).join(', ') || 'a scheduled run'}): wait for ${them} to finish, or cancel ${them} and try again. Nothing was changed.`,
      );
    }
  };

  /**
   * Runs `work` on the data folder's files with the cache closed (a conversion of every cache
   * and backup), then opens the cache again with the folder's key as it then is; requests
   * wait meanwhile, as during a restore. A failure of `work` is thrown once the cache is open again.
   */
  const withCacheClosed = async (what: string, cancelJobs: boolean, work: () => Promise<void>): Promise<void> => {
    refuseWhileJobsRun(cancelJobs);
    if (restoring) throw new ValidationError('cache', 'A restore or a conversion of the cache is under way already.');
    restoring = true;
    let release = () => {};
    try {
      // A backup being made finishes first (it reads the cache about to be closed).
      await backupRun?.catch(() => undefined);
      swapping = new Promise<void>((resolve) => (release = resolve));
      const baseUrl = profile.mode === 'demo' ? null : profile.baseUrl;
      profile.engine.queue.cancelAll();
      await scheduleRun?.catch(() => undefined);
      unsubscribe();
      await profile.close();
      let failure: unknown = null;
      try {
        await work();
      } catch (err) {
        failure = err;
        // A stop midway leaves every file openable with the folder's key as it now is.
        cacheKey = await loadFolderKey(o.dataDir, databaseFileFor(o.dataDir, baseUrl), keySources()).catch(() => cacheKey);
      }
      try {
        profile = await reopen(baseUrl);
      } catch (err) {
        throw new Error(`${what} stopped, and the cache did not open again (${(err as Error).message}): restart Folioscope.`, { cause: err });
      }
      unsubscribe = wire(profile);
      events.emit('data.changed', { scope: 'mode' });
      if (failure) throw failure;
    } finally {
      restoring = false;
      swapping = null;
      release();
    }
  };

  const scope: ScopeContext = { db: () => profile.db, wallet, scopeOf, scopeWallets };

  // The operations of each capability come from its part (core/handlers.ts says how); the rest
  // are still written here, with the profile, the secrets and the schedules they share.
  const handlers: Handlers = combine(
    {
      ...portfolioHandlers(scope),
      ...transactionHandlers(scope, facetsCache),
      ...auditHandlers(scope),
      // Rules match counterparties by their names in the address book too (and its 'ours' entries are internal).
      ...annotationHandlers({
        ...scope,
        writable: () => profile.db,
        changed: () => {
          changed('annotations');
          // A category changed: a closed period's flows by category may have (docs/closes.md).
          queueCloseCheck();
        },
        namer: () => counterpartyNamer(profile.db),
      }),
      // The pack names and files its flows as every reader does (pack.ts scopePack).
      ...packHandlers({ ...scope, keepTransferDays: (w) => transferDaysKeeper(profile).keepTransferDays?.(w) }),
      ...counterpartyHandlers({
        db: () => profile.db,
        changed: () => {
          changed('counterparties');
          // A name or an 'ours' flag changed: what the rules match may have too, and a closed
          // period's flows by counterparty.
          queueRuleApplication('all');
          queueCloseCheck();
        },
      }),
      ...closeHandlers({
        ...scope,
        keepTransferDays: (w) => transferDaysKeeper(profile).keepTransferDays?.(w),
        writable: () => profile.db,
        fired: (alerts) => {
          announce(alerts);
          changed('closes');
        },
      }),
    },
    {
      'app.info': async () => ({
        version: o.version ?? '0.0.0',
        mode: profile.mode,
        baseUrl: profile.baseUrl,
        key: await keyStatus(),
        dataDir: o.dataDir,
        databaseFile: profile.databaseFile,
        chains: getSettings(profile.db).chains,
        shell: o.shell,
        cacheReadOnly: profile.readOnly,
      }),
      'app.connect': async ({ baseUrl, key, sessionOnly }) => {
        const url = normaliseBaseUrl(baseUrl);
        // One cheap request checks the key (the new one, else the one already kept for this
        // service) before anything changes: a refused key changes nothing and says so.
        const candidate = key ? Secrets.checkFormat(key) : await secrets.get(url);
        const keyCheck = await checkKey(url, candidate);
        if (keyCheck.state === 'refused') throw new ValidationError('key', keyCheck.message);
        if (key) await secrets.set(url, key, { sessionOnly: sessionOnly ?? false });
        await switchTo(url);
        return { ...(await handlers['app.info'](undefined, { signal: NEVER })), keyCheck };
      },
      'app.useDemo': async () => {
        if (profile.mode !== 'demo') await switchTo(null);
        return handlers['app.info'](undefined, { signal: NEVER });
      },
      'settings.get': () => {
        const { settings, notices } = readSettings(profile.db);
        return { ...settings, baseUrl: profile.mode === 'live' ? profile.baseUrl : null, notices };
      },
      'settings.update': (changes) => {
        const next = updateSettings(profile.db, changes);
        changed('settings');
        return { ...next, baseUrl: profile.mode === 'live' ? profile.baseUrl : null };
      },
      'key.status': () => keyStatus(),
      'key.set': async ({ key, sessionOnly }) => {
        const url = requireLive();
        // As on connect: a key the service refuses replaces nothing.
        const check = await checkKey(url, Secrets.checkFormat(key));
        if (check.state === 'refused') throw new ValidationError('key', check.message);
        return secrets.set(url, key, { sessionOnly: sessionOnly ?? false });
      },
      'key.clear': async () => secrets.clear(requireLive()),
      'wallets.list': () => listWallets(profile.db),
      'wallets.add': (input) => {
        const w = addWallet(profile.db, input);
        queueRuleApplication('all');
        changed('wallets', w.address);
        return w;
      },
      'wallets.update': ({ address, ...changes }) => {
        const w = updateWallet(profile.db, address, changes);
        changed('wallets', w.address);
        queueCloseCheck();
        return w;
      },
      'wallets.remove': ({ address, purge }) => {
        const removed = removeWallet(profile.db, address, { purge: purge ?? false });
        if (removed) queueRuleApplication('all');
        changed('wallets', addressKey(address));
        queueCloseCheck();
        return removed;
      },
      'wallets.status': () => walletStatuses(profile),
      'logs.get': ({ chain, txnHash, refresh }) => profile.engine.logs(chain, txnHash, { refresh: refresh ?? false }),
      'sync.positions': ({ wallet: address, date }) => profile.engine.syncPositions(address, date ? { date } : {}).info,
      'sync.backfill': (req) => profile.engine.backfill(req).info,
      'sync.transactions': ({ wallet: address }) => profile.engine.syncTransactions(address).info,
      'sync.all': (req) => profile.engine.syncAll({ ...(req?.wallet && { wallet: req.wallet }), ...(req?.date && { date: req.date }) }).map((j) => j.info),
      'sync.cancel': ({ jobId }) => profile.engine.cancel(jobId),
      'schedules.list': () => listSchedules(profile.db).map((x) => withNextSlot(x, getSettings(profile.db).timeZone)),
      'schedules.save': (input) => withNextSlot(saveSchedule(profile.db, { ...input, scope: storedScope(input.scope) }), getSettings(profile.db).timeZone),
      'schedules.remove': ({ id }) => removeSchedule(profile.db, id),
      'schedules.runDue': () => runSchedules(),
      'alerts.rules': () => listAlertRules(profile.db),
      'alerts.saveRule': (input) => {
        const saved = saveAlertRule(profile.db, { ...input, scope: storedScope(input.scope) });
        // Checked at once: a rule that holds now fires now.
        checkAlertsNow({ ruleId: saved.id });
        return listAlertRules(profile.db).find((r) => r.id === saved.id) ?? saved;
      },
      'alerts.removeRule': ({ id }) => removeAlertRule(profile.db, id),
      'alerts.inbox': (input) =>
        alertInbox(profile.db, { ...(input?.all && { all: true }), ...(input?.limit && { limit: input.limit }), now: new Date().toISOString() }),
      'alerts.acknowledge': ({ id }) => acknowledgeAlert(profile.db, id, new Date().toISOString()),
      'alerts.snooze': ({ id, until }) => snoozeAlert(profile.db, id, new Date(until).toISOString()),
      'alerts.check': () => checkAlertsNow(),
      'sync.jobs': () => profile.engine.jobs(),
      'backups.list': () => ({ folder: backupsFolderOf(profile.databaseFile), backups: listBackups(profile.databaseFile), problem: backupProblem }),
      'backups.create': () => makeBackup('manual'),
      'backups.verify': async ({ name }) => {
        try {
          return { name, ok: true, problem: null, backup: await verifyBackupOffThread(profile.db, profile.databaseFile, name, cacheKey) };
        } catch (err) {
          if ((err as Error).name !== 'BackupRefusedError') throw err;
          return { name, ok: false, problem: (err as Error).message, backup: null };
        }
      },
      'backups.restore': async ({ name, cancelJobs }) => {
        const refuseWhileJobsRun = () => {
          const active = profile.engine.jobs().filter((j) => j.state === 'queued' || j.state === 'running');
          if ((active.length || scheduleRun) && !cancelJobs) {
            const them = active.length === 1 ? 'it' : 'them';
            throw new ValidationError(
              'jobs',
              `${active.length || 1} job${active.length === 1 ? ' is' : 's are'} running (${active.map((j) => j.label).join(', ') || 'a scheduled run'}): wait for ${them} to finish, or cancel ${them} and restore. Nothing was changed.`,
            );
          }
        };
        refuseWhileJobsRun();
        if (restoring) throw new ValidationError('name', 'A restore is under way already.');
        restoring = true;
        let staged: string | null = null;
        let release = () => {};
        try {
          // A backup being made finishes first (it reads the cache about to be closed).
          await backupRun?.catch(() => undefined);
          // Verified and copied beside the cache while it is still open: a backup that fails changes nothing.
          const stagedRestore = await stageRestoreOffThread(profile.db, profile.databaseFile, name, cacheKey);
          staged = stagedRestore.staged;
          refuseWhileJobsRun(); // one started meanwhile
          // From here until the cache is open again, other requests wait rather than meet a closed cache.
          swapping = new Promise<void>((resolve) => (release = resolve));
          const baseUrl = profile.mode === 'demo' ? null : profile.baseUrl;
          const file = profile.databaseFile;
          profile.engine.queue.cancelAll();
          await scheduleRun?.catch(() => undefined);
          unsubscribe();
          await profile.close();
          let keptAside: string;
          try {
            keptAside = swapInRestore(file, staged);
          } catch (err) {
            profile = await reopen(baseUrl);
            unsubscribe = wire(profile);
            throw new Error(`The backup could not be put in place (${(err as Error).message}); the cache is as it was.`, { cause: err });
          }
          try {
            profile = await reopen(baseUrl);
          } catch (err) {
            undoRestore(file, keptAside);
            profile = await reopen(baseUrl);
            unsubscribe = wire(profile);
            throw new Error(`The restored cache did not open (${(err as Error).message}); the cache was put back as it was.`, { cause: err });
          }
          unsubscribe = wire(profile);
          events.emit('data.changed', { scope: 'mode' });
          return { restored: stagedRestore.backup, keptAside };
        } finally {
          restoring = false;
          swapping = null;
          release();
          if (staged) rmSync(staged, { force: true });
        }
      },
      'userData.export': (input) =>
        startUserDataExport(
          profile.db,
          profile.engine.queue,
          { ...(o.chooseSavePath && { chooseSavePath: o.chooseSavePath }), downloadsDir: join(o.dataDir, 'downloads') },
          { passphrase: input?.passphrase, app: appName },
        ),
      'userData.preview': async ({ text, passphrase, replace }) => {
        const { doc, encrypted } = await readUserDataFile(text, passphrase);
        return planImport(profile.db, doc, { encrypted, replace: replace ?? false }).preview;
      },
      'userData.import': async ({ text, passphrase, replace }) => {
        const { doc, encrypted } = await readUserDataFile(text, passphrase);
        const { preview, writes } = planImport(profile.db, doc, { encrypted, replace: replace ?? false });
        if (!preview.applicable) return preview;
        applyUserData(profile.db, writes);
        changed('wallets');
        changed('settings');
        if (writes.saveCounterparties.length) changed('counterparties');
        // Imported alert rules are judged over this cache soon, as a rule saved in the app is at once.
        if (writes.addAlertRules.length) queueAlertCheck();
        // Imported rules categorise what is cached, as a rule saved in the app does (not a user edit).
        // (Wallets and address-book entries change what is internal and what names match, too.)
        if (writes.addRules.length || writes.addWallets.length || writes.saveCounterparties.length) queueRuleApplication('all');
        if (writes.saveCategories.length || writes.setNotes.length) changed('annotations');
        queueCloseCheck();
        return { ...preview, applied: true };
      },
      'cache.clear': async () => {
        // Running jobs would write into what is being cleared: stop them first.
        profile.engine.queue.cancelAll();
        await profile.engine.queue.drain();
        const cleared = clearCache(profile.db);
        changed('positions');
        changed('transactions');
        return cleared;
      },
      'cache.encryption': () => encryptionStatus(o.dataDir),
      'cache.encrypt': async (input) => {
        const passphrase = input?.passphrase;
        await withCacheClosed('Encrypting the cache', input?.cancelJobs ?? false, async () => {
          const before = cachePassphrase;
          // A passphrase typed now opens the folder's caches for the rest of this run (also after
          // a stop midway, when some of them are already encrypted with it).
          if (passphrase !== undefined) cachePassphrase = passphrase;
          try {
            cacheKey = await encryptFolder(o.dataDir, { keychain: cacheKeychain, ...(passphrase !== undefined && { passphrase }) });
          } catch (err) {
            // Refused before anything was written (a wrong passphrase for an encrypted folder): as before.
            if (err instanceof CacheProblemError || err instanceof ValidationError) cachePassphrase = before;
            throw err;
          }
        });
        return encryptionStatus(o.dataDir);
      },
      'cache.decrypt': async (input) => {
        if (!cacheKey) throw new ValidationError('encryption', 'This data folder is not encrypted. Nothing was changed.');
        const key = cacheKey;
        await withCacheClosed('Decrypting the cache', input?.cancelJobs ?? false, async () => {
          await decryptFolder(o.dataDir, { keychain: cacheKeychain, key });
          cacheKey = null;
        });
        return encryptionStatus(o.dataDir);
      },
      'export.start': (req) =>
        startExport(
          profile.db,
          profile.engine.queue,
          { ...(o.chooseSavePath && { chooseSavePath: o.chooseSavePath }), downloadsDir: join(o.dataDir, 'downloads'), ...transferDaysKeeper(profile) },
          req,
        ),
      'reconcile.get': ({ wallet: address, group, from, to }) => {
        const wallets = scopeOf(address, group) ?? listWallets(profile.db).map((w) => w.address);
        checkPeriod(from, to);
        transferDaysKeeper(profile).keepTransferDays?.(wallets);
        return reconcile(profile.db, { wallets, from, to });
      },
      'groups.list': () => listGroups(profile.db),
      'groups.save': (input) => {
        const g = saveGroup(profile.db, input);
        changed('wallets');
        queueCloseCheck();
        return g;
      },
      'groups.remove': ({ id }) => {
        const removed = removeGroup(profile.db, id);
        changed('wallets');
        queueCloseCheck();
        return removed;
      },
      'reconcile.trace': ({ wallet: address, chain, tokenCid, from, to }) => {
        const w = wallet(address).address;
        // Each row's other end named from the address book (issue 28).
        return nameTrace(profile.db, w, chain, reconcileTrace(profile.db, { wallet: w, chain, tokenCid, from, to }));
      },
      'service.conventions': () => conventionsReport(profile.db),
      'service.check': () => profile.engine.checkService(),
      'service.doctor': async (input) => {
        const p = profile;
        // The checks of datetimes, numbers and snapshot days are kept from the last run; the
        // learned conventions are read fresh (syncs learn and re-learn them between runs).
        if (!input?.run) {
          const last = loadServiceCheck(p.db);
          if (!last) return { baseUrl: p.baseUrl, mode: p.mode, checkedAt: null, probe: null, requests: 0, items: [] };
          return { ...last, items: [...last.items.filter((i) => !/^(convention|anomaly)-/.test(i.id)), ...conventionItems(conventionsReport(p.db))] };
        }
        // Probes ask about a watched wallet when there is one (a real service knows it), else the zero address.
        const w = listWallets(p.db)[0];
        const check = await runServiceCheck({
          client: p.client,
          baseUrl: p.baseUrl,
          mode: p.mode,
          wallet: w?.address ?? '0x0000000000000000000000000000000000000000',
          chain: w?.chains[0] ?? getSettings(p.db).chains[0]!,
          extra: [async () => conventionItems(await p.engine.checkService())],
        });
        check.requests += conventionsReport(p.db).requests; // the learning run's requests too
        saveServiceCheck(p.db, check);
        return check;
      },
      'shell.openExternal': async ({ url }) => {
        const checked = allowedExternalUrl(url);
        if (!checked) throw new ValidationError('url', 'Only block explorer links (https) can be opened.');
        if (!o.openExternal) return false;
        // The serialised parsed URL, never the string as given.
        await o.openExternal(checked);
        return true;
      },
    },
  );

  async function call<K extends OperationName>(op: K, input: ParsedInputOf<K>, ctx: HandlerContext = { signal: NEVER }): Promise<OutputOf<K>> {
    // The operation is what the audit trail names as the origin of any edit it makes.
    return withAuditOrigin(op, () => (handlers[op] as (i: ParsedInputOf<K>, c: HandlerContext) => Promise<OutputOf<K>> | OutputOf<K>)(input, ctx));
  }

  async function dispatch(op: string, input: unknown, options: { signal?: AbortSignal } = {}): Promise<Envelope<unknown>> {
    const signal = options.signal ?? NEVER;
    if (!Object.hasOwn(CONTRACT, op))
      return { ok: false, error: { kind: 'validation', message: `Unknown operation "${String(op).slice(0, 60)}".`, retryable: false } };
    const name = op as OperationName;
    if (swapping) await swapping;
    // Whether it writes is declared on the contract's operation (src/shared/contract.ts).
    const writes = CONTRACT[name].writes;
    if (profile.readOnly && writes) {
      return {
        ok: false,
        error: {
          kind: 'validation',
          field: 'cache',
          retryable: false,
          message: `The cache is open read-only (${profile.databaseFile}): viewing and exports work; syncing and changes do not. Restart to move it aside and rebuild, or choose another data folder.`,
        },
      };
    }
    const parsed = CONTRACT[name].input.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join('.') || 'input';
      return { ok: false, error: { kind: 'validation', message: `${field}: ${issue.message}`, retryable: false, field } };
    }
    // Cancelled before it started (it waited behind a switch of service): nothing is run.
    if (signal.aborted) return CANCELLED;
    try {
      // Never into a cache moved or deleted while the app runs: it would be lost at exit.
      if (writes) assertCacheInPlace(profile.db);
      const result = await call(name, parsed.data as never, { signal });
      // A write that finished is reported as done; a read nobody waits for any more is not sent.
      return signal.aborted && !writes ? CANCELLED : { ok: true, result };
    } catch (err) {
      if (signal.aborted && (err as Error | null)?.name === 'AbortError') return CANCELLED;
      // A damaged page met now: the next start checks the cache and offers the ways forward.
      noteDamage(profile.db, err);
      return { ok: false, error: serializeError(err) };
    }
  }

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
    demoService: () => profile.demo,
    close: async () => {
      if (scheduleTimer) clearInterval(scheduleTimer);
      // A check of the closed periods an edit or a sync queued is made before the cache closes (a
      // CLI command ends right after its edit): a change is flagged, and its alert sent, now.
      await closeCheck;
      checkClosesNow();
      await closeCheck;
      unsubscribe();
      // A schedule run is stopped first (not recorded: it runs at the next start), so it gives
      // its lease back while the cache is still open.
      if (scheduleRun) {
        profile.engine.queue.cancelAll();
        await scheduleRun.catch(() => undefined);
      }
      // A backup in progress is finished (its copy is named only once checked, so none is left half made).
      await backupRun?.catch(() => undefined);
      closing = true;
      // Webhook posts in flight end within their timeout; their outcome is recorded first.
      await Promise.allSettled([...deliveries]);
      await profile.close();
    },
  };
}

/**
 * The base URL to start with. One given on the command line must be valid (the CLI says
 * so); one remembered in app.json that no longer parses falls back to demo mode rather
 * than keep the app from starting.
 */
function usableBaseUrl(configured: string | null | undefined, explicit: boolean): string | null {
  if (!configured) return null;
  if (explicit) return normaliseBaseUrl(configured);
  try {
    return normaliseBaseUrl(configured);
  } catch {
    return null;
  }
}

function walletStatuses(p: Profile): WalletStatus[] {
  const jobs = p.engine.jobs();
  return listWallets(p.db).map((w) => {
    const cache = walletCacheSummary(p.db, w.address);
    const last = jobs.filter((j) => j.wallet === w.address && j.finishedAt).at(-1);
    const anomalies = listAnomalies(p.db, { wallet: w.address, openOnly: true });
    return {
      address: w.address,
      positionsFetchedAt: cache.positionsFetchedAt,
      transactionsSyncedAt: cache.transactionsSyncedAt,
      latestDate: cache.latestDate,
      incomplete: cache.openRanges > 0 || anomalies.length > 0,
      incompleteReasons: [...incompleteReasons(p.db, w.address), ...anomalies.map((a) => `${a.chain ?? 'service'}: ${a.detail}`)],
      lastError: last?.state === 'failed' ? last.error : null,
    };
  });
}
