/**
 * The core's live state: the service it talks to, the cache it has open for it (the Profile), that
 * cache's key, and the moves between them (connect, demo, restore, encrypt, decrypt), during
 * which requests wait rather than meet a closed cache. Every capability reads the current cache
 * through it; only it replaces the profile.
 */
import type { AppInfo, EventPayloads } from '../../../shared/contract.ts';
import { CacheProblemError } from '../store/db.ts';
import type { ReadableDB, WritableDB } from '../store/handles.ts';
import type { CacheKey } from '../store/driver.ts';
import { refusal, ValidationError } from '../store/validation.ts';
import type { Emitter } from '../util/emitter.ts';
import { CACHE_KEY_SERVICE, type Keychain, KEYCHAIN_SERVICE, type KeySources, PASSPHRASE_ENV, Secrets, systemKeychain } from '../secrets/index.ts';
import { loadFolderKey } from './encryption.ts';
import { databaseFileFor, type DemoStarter, normaliseBaseUrl, openProfile, type Profile, readAppConfig, type ReplicaOf, writeAppConfig } from './profile.ts';

export interface SessionOptions {
  dataDir: string;
  shell: AppInfo['shell'];
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
  /** Open the start-up cache read-only (a way forward from a damaged or unwritable cache). */
  readOnlyCache?: boolean;
  /**
   * A desktop signed in to a team server that cannot be reached: open the server's last replica
   * instead of a cache of this data folder, read-only, with no service (docs/team.md). Every
   * operation that writes, syncs or would reach the service is refused, saying so.
   */
  replica?: ReplicaOf;
  /**
   * The core's clock in ms: the sync's (profile.ts: where a transaction sync's range ends, what a
   * conventions check reads history up to) and the audit trail's (an edit's time). This
   * computer's clock unless given: tests pin it to the simulator's.
   */
  now?: () => number;
}

/** Work that must settle before the cache closes under it (a backup being made, a scheduled run), and what it is called while it runs. */
export interface CacheUser {
  /** What runs now, named for a refusal ("a scheduled run"), or null when idle (a backup is waited for, never refused). */
  running(): string | null;
  /** Waits for it to end. */
  settle(): Promise<void>;
  /** 'finish': waited for while the cache is still in use (a backup reads it); 'stop': waited for once the jobs are cancelled (a scheduled run's jobs). */
  settles: 'finish' | 'stop';
}

/**
 * Rows of the cache that belong to the data folder now rather than to whatever file is opened in
 * its place: a team server's people, sessions, tokens and lock-outs (core/people). A backup is of
 * the books; restoring last week's must not bring back a person disabled or a token revoked since,
 * and connecting another service (another cache file) must not change who may sign in.
 */
export interface CacheKeeper {
  take(db: ReadableDB): unknown;
  put(db: WritableDB, taken: unknown): void;
}

export class Session {
  readonly secrets: Secrets;
  readonly cacheKeychain: Keychain;
  /** The folder's key as it now is (null: not encrypted). */
  cacheKey: CacheKey | null;
  private cachePassphrase: string | null;
  private current: Profile;
  /** Set while the cache is closed for a swap: requests wait for it. */
  swapping: Promise<void> | null = null;
  private busy = false;
  /** Settled when the restore or conversion under way has ended (its cache open again, or not): close waits for it. */
  private swap: Promise<void> = Promise.resolve();
  private readonly wiring: Array<(p: Profile) => () => void> = [];
  private unwires: Array<() => void> = [];
  private readonly users: CacheUser[] = [];
  private readonly keepers: CacheKeeper[] = [];

  private constructor(
    private readonly o: SessionOptions,
    private readonly events: Emitter<EventPayloads>,
    init: { secrets: Secrets; cacheKeychain: Keychain; cachePassphrase: string | null; cacheKey: CacheKey | null; profile: Profile },
  ) {
    this.secrets = init.secrets;
    this.cacheKeychain = init.cacheKeychain;
    this.cachePassphrase = init.cachePassphrase;
    this.cacheKey = init.cacheKey;
    this.current = init.profile;
  }

  static async open(o: SessionOptions, events: Emitter<EventPayloads>): Promise<Session> {
    const env = o.env ?? process.env;
    if (o.replica) {
      // No key of any kind: the service's is the server's, and a replica is a plain file.
      const none = { get: async () => null, set: async () => undefined, delete: async () => false } satisfies Keychain;
      const secrets = new Secrets(none, {}, { envKeyBaseUrl: null });
      const profile = await openProfile({ dataDir: o.dataDir, secrets, baseUrl: null, replica: o.replica });
      return new Session(o, events, { secrets, cacheKeychain: none, cachePassphrase: null, cacheKey: null, profile });
    }
    // The environment's key belongs to the service named with it at start-up, and to no other:
    // FOLIOSCOPE_BASE_URL when set (the two travel together), else the command line's URL.
    const secrets = new Secrets(o.keychain ?? systemKeychain(KEYCHAIN_SERVICE, { cli: o.shell === 'cli' }), env, {
      envKeyBaseUrl: env['FOLIOSCOPE_BASE_URL'] ?? o.baseUrl ?? null,
    });
    const configured = o.baseUrl !== undefined ? o.baseUrl : (env['FOLIOSCOPE_BASE_URL'] ?? readAppConfig(o.dataDir).baseUrl);
    const startUrl = usableBaseUrl(configured, o.baseUrl !== undefined);
    // Encryption at rest (encryption.ts): one key for every cache of the data folder, found at
    // start (a missing or wrong one stops here with CacheProblemError 'locked', nothing opened).
    const cacheKeychain = o.cacheKeychain ?? systemKeychain(CACHE_KEY_SERVICE, { cli: o.shell === 'cli', holds: 'cache-key' });
    const cachePassphrase = o.cachePassphrase ?? env[PASSPHRASE_ENV] ?? null;
    const cacheKey = await loadFolderKey(o.dataDir, databaseFileFor(o.dataDir, startUrl), { keychain: cacheKeychain, passphrase: cachePassphrase });
    const profile = await openProfile({
      dataDir: o.dataDir,
      secrets,
      baseUrl: startUrl,
      cacheKey,
      ...(o.demo && { demo: o.demo }),
      ...(o.now && { now: o.now }),
      ...(o.readOnlyCache && { readOnly: true }),
    });
    return new Session(o, events, { secrets, cacheKeychain, cachePassphrase, cacheKey, profile });
  }

  /** The cache open now (it changes when the user switches service, restores or converts). */
  get profile(): Profile {
    return this.current;
  }

  get dataDir(): string {
    return this.o.dataDir;
  }

  /** What follows each profile (job progress, a damaged page noted): applied to the current one now and to every later one. */
  onProfile(wire: (p: Profile) => () => void): void {
    this.wiring.push(wire);
    this.unwires.push(wire(this.current));
  }

  /** Work to settle before the cache closes, and to name when a swap is refused. */
  addUser(user: CacheUser): void {
    this.users.push(user);
  }

  /** Rows that are the data folder's, not a cache file's: carried into the cache opened in its place (a restore's `keep`, `switchTo`). */
  keepWithFolder(keeper: CacheKeeper): void {
    this.keepers.push(keeper);
  }

  keySources(): KeySources {
    return { keychain: this.cacheKeychain, passphrase: this.cachePassphrase };
  }

  /** The key's status for the live service; demo mode needs none and says so. */
  async keyStatus() {
    const p = this.current;
    return p.mode === 'demo' ? { set: false, source: 'none' as const, keychainAvailable: true, keychainProblem: null } : this.secrets.status(p.baseUrl);
  }

  /** The live service's base URL, or a refusal saying demo mode needs no key. */
  requireLive(): string {
    if (this.current.mode === 'demo') throw new ValidationError('key', 'Demo mode needs no key. Connect to a service (base URL and key) first.');
    return this.current.baseUrl;
  }

  /** The base URL the current cache is for (null: demo mode). */
  private baseUrlOf(p: Profile): string | null {
    return p.mode === 'demo' ? null : p.baseUrl;
  }

  private reopen(baseUrl: string | null): Promise<Profile> {
    return openProfile({
      dataDir: this.o.dataDir,
      secrets: this.secrets,
      baseUrl,
      cacheKey: this.cacheKey,
      ...(this.o.demo && { demo: this.o.demo }),
      ...(this.o.now && { now: this.o.now }),
    });
  }

  /** Stops following the current profile (the core is closing: its cancelled jobs are not reported). */
  unwire(): void {
    this.detach();
  }

  private detach(): void {
    for (const off of this.unwires) off();
    this.unwires = [];
  }

  private attach(p: Profile): void {
    this.current = p;
    this.unwires = this.wiring.map((wire) => wire(p));
  }

  /** Opens the cache of another service (null: demo mode), then closes the old one. */
  async switchTo(baseUrl: string | null): Promise<void> {
    const next = await this.reopen(baseUrl);
    // The keepers' rows go with the data folder, not with a service's cache: read and written with
    // no wait in between, so nothing changes them meanwhile. Not carried: nothing switched.
    try {
      const kept = this.keepers.map((k) => k.take(this.current.db));
      this.keepers.forEach((k, i) => k.put(next.db, kept[i]));
    } catch (err) {
      await next.close();
      throw err;
    }
    this.detach();
    await this.current.close();
    this.attach(next);
    writeAppConfig(this.o.dataDir, { baseUrl });
    this.events.emit('data.changed', { scope: 'mode' });
  }

  /** Jobs running (or other work on the cache): refused with what runs and what to do, unless they may be cancelled. */
  private refuseWhileJobsRun(cancelJobs: boolean, then: 'restore' | 'try again'): void {
    const active = this.current.engine.jobs().filter((j) => j.state === 'queued' || j.state === 'running');
    const others = this.users.map((u) => u.running()).filter((x): x is string => x !== null);
    if ((active.length || others.length) && !cancelJobs) {
      const names = active.length ? active.map((j) => j.label) : others;
      throw refusal('jobs', 'jobs.running', { count: active.length || 1, names: names.join(', '), then });
    }
  }

  /**
   * Runs `work` on the data folder's files with the cache closed (a restore, a conversion of
   * every cache and backup), then opens the cache again with the folder's key as it then is;
   * requests wait meanwhile. Refused while jobs run unless they may be cancelled, and while
   * another such move is under way. `prepare` runs first with the cache still open (a restore
   * verifies and stages its backup), so a failure there changes nothing. A failure of `work` is
   * thrown once the cache is open again; when the cache does not open after work that
   * succeeded, `undo` puts the files back and it is opened as it was.
   */
  async withCacheClosed<T>(
    o: {
      what: string;
      cancelJobs: boolean;
      /** What the user may do once the jobs are cancelled ("restore", "try again"). */
      then: 'restore' | 'try again';
      busy: ValidationError;
      prepare?: () => Promise<void>;
      /** The keepers' rows are read from the cache before it closes and written into the one opened after (a restore). */
      keep?: boolean;
      undo?: (done: T) => void;
      undone?: (err: Error) => string;
    },
    work: () => Promise<T>,
  ): Promise<T> {
    this.refuseWhileJobsRun(o.cancelJobs, o.then);
    if (this.busy) throw o.busy;
    this.busy = true;
    let ended = () => {};
    this.swap = new Promise<void>((resolve) => (ended = resolve));
    let release = () => {};
    const settle = async (when: CacheUser['settles']) => {
      for (const u of this.users) if (u.settles === when) await u.settle().catch(() => undefined);
    };
    try {
      // A backup being made finishes first (it reads the cache about to be closed).
      await settle('finish');
      if (o.prepare) {
        await o.prepare();
        this.refuseWhileJobsRun(o.cancelJobs, o.then); // one started meanwhile
      }
      // From here until the cache is open again, other requests wait rather than meet a closed cache.
      this.swapping = new Promise<void>((resolve) => (release = resolve));
      const baseUrl = this.baseUrlOf(this.current);
      this.current.engine.queue.cancelAll();
      await settle('stop');
      // Read while requests wait (swapping): nothing can change them between here and the close.
      const kept = o.keep ? this.keepers.map((k) => k.take(this.current.db)) : [];
      this.detach();
      await this.current.close();
      let failure: unknown = null;
      let done: T | undefined;
      try {
        done = await work();
      } catch (err) {
        failure = err;
        // A stop midway leaves every file openable with the folder's key as it now is.
        this.cacheKey = await loadFolderKey(this.o.dataDir, databaseFileFor(this.o.dataDir, baseUrl), this.keySources()).catch(() => this.cacheKey);
      }
      let opened: Profile;
      try {
        const candidate = await this.reopen(baseUrl);
        // Before anyone is let in: a restored file's people (a person disabled since, a token
        // revoked since) never answer a request, not even once. Not carried: the restore undone.
        try {
          if (o.keep) this.keepers.forEach((k, i) => k.put(candidate.db, kept[i]));
        } catch (err) {
          await candidate.close();
          throw err;
        }
        opened = candidate;
      } catch (err) {
        if (failure || !o.undo) {
          throw new Error(`${o.what} stopped, and the cache did not open again (${(err as Error).message}): restart Folioscope.`, { cause: err });
        }
        o.undo(done as T);
        this.attach(await this.reopen(baseUrl));
        throw new Error(o.undone?.(err as Error) ?? `${o.what}: the result did not open; the cache was put back as it was.`, { cause: err });
      }
      this.attach(opened);
      this.events.emit('data.changed', { scope: 'mode' });
      if (failure) throw failure;
      return done as T;
    } finally {
      this.busy = false;
      this.swapping = null;
      release();
      ended();
    }
  }

  /** Whether a restore or a conversion has the cache closed now. */
  get converting(): boolean {
    return this.busy;
  }

  /**
   * A passphrase typed for an encryption opens the folder's caches for the rest of this run (also
   * after a stop midway, when some of them are already encrypted with it); `restore` puts the
   * one before back when the encryption was refused before anything was written.
   */
  usePassphrase(passphrase: string | undefined): { restore(err: unknown): void } {
    const before = this.cachePassphrase;
    if (passphrase !== undefined) this.cachePassphrase = passphrase;
    return {
      restore: (err) => {
        if (err instanceof CacheProblemError || err instanceof ValidationError) this.cachePassphrase = before;
      },
    };
  }

  /** Once the folder is plain again (cache.decrypt): nothing needs its passphrase, so this process no longer holds it. */
  forgetPassphrase(): void {
    this.cachePassphrase = null;
  }

  async close(): Promise<void> {
    // A restore or a conversion under way ends first (it runs on a worker: the window can be
    // closed meanwhile), so the cache it opens again is the one closed here, not left open.
    await this.swap;
    this.detach();
    await this.current.close();
  }
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
