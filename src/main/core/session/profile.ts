/**
 * A profile is what the app is connected to: the built-in reference service (demo) or a
 * real service at a base URL. Each has its own cache file, so demo data and real data
 * never mix. Which profile is current is kept in `app.json` (never a secret).
 */
import { randomBytes, createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServiceClient, type ServiceClient, RequestPacer, loadPace, savePace } from '../service/index.ts';
import { openDatabase, type WritableDB } from '../store/db.ts';
import { openReadOnlyCopy } from '../store/recovery.ts';
import { finishConversions } from '../store/cache-conversion.ts';
import type { CacheKey } from '../store/driver.ts';
import { getSettings } from '../store/settings.ts';
import { refusal, ValidationError } from '../store/validation.ts';
import type { Secrets } from '../secrets/index.ts';
import { SyncEngine } from '../sync/index.ts';

/**
 * The demo mode's service, as the shell hands it over: the core never imports the reference
 * service (src/sim), so each shell injects a starter (docs/design-notes.md, "The walls").
 */
export interface DemoService {
  /** Its base URL (a loopback port). */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts a demo service that accepts `accessKey`, a key the core makes up for the run. */
export type DemoStarter = (accessKey: string) => Promise<DemoService>;

export interface AppConfig {
  baseUrl: string | null;
}

export function readAppConfig(dataDir: string): AppConfig {
  const path = join(dataDir, 'app.json');
  if (!existsSync(path)) return { baseUrl: null };
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { baseUrl?: unknown };
    return { baseUrl: typeof parsed.baseUrl === 'string' ? parsed.baseUrl : null };
  } catch {
    return { baseUrl: null };
  }
}

export function writeAppConfig(dataDir: string, config: AppConfig): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Write then rename, so a crash never leaves half a file.
  const tmp = join(dataDir, `app.json.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
    renameSync(tmp, join(dataDir, 'app.json'));
  } catch (err) {
    // A full disk: app.json keeps its previous content, and no half-written file stays beside it.
    rmSync(tmp, { force: true });
    throw err;
  }
}

export function databaseFileFor(dataDir: string, baseUrl: string | null): string {
  if (!baseUrl) return join(dataDir, 'demo.sqlite');
  const id = createHash('sha256').update(normaliseBaseUrl(baseUrl)).digest('hex').slice(0, 12);
  return join(dataDir, `live-${id}.sqlite`);
}

export function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not echoed: a pasted URL may carry a key.
    throw refusal('baseUrl', 'url.invalid', {});
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refusal('baseUrl', 'url.scheme', {});
  if (url.username || url.password) throw refusal('baseUrl', 'url.credentials', {});
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

export interface Profile {
  mode: 'demo' | 'live';
  baseUrl: string;
  databaseFile: string;
  db: WritableDB;
  client: ServiceClient;
  engine: SyncEngine;
  /** The demo service this profile started; null when connected to a real service. */
  demo: DemoService | null;
  /** Opened read-only (a private copy): viewing and exports work, nothing is written. */
  readOnly: boolean;
  /** A team server's replica opened offline (docs/team.md): which server, and when the copy was made. Null otherwise. */
  replica: ReplicaOf | null;
  close(): Promise<void>;
}

/** A team server's replica a desktop opens while the server cannot be reached (docs/team.md, "The desktop on a team server"). */
export interface ReplicaOf {
  /** The replica's file (checked against its manifest by the shell before it was kept). */
  file: string;
  /** The team server it is a copy of. */
  origin: string;
  /** When the server made it (ISO). */
  madeAt: string;
}

export interface ProfileOptions {
  /** Open this team server's replica, read-only, with no service client at all (Session.open). */
  replica?: ReplicaOf;
  dataDir: string;
  secrets: Secrets;
  /** null: demo mode on the service `demo` starts. */
  baseUrl: string | null;
  /** Starts the demo mode's service; without it, demo mode is refused with why. */
  demo?: DemoStarter;
  /** Open the cache read-only, through a private copy (the way forward from a damaged or unwritable cache). */
  readOnly?: boolean;
  /** The data folder's key when its caches are encrypted (encryption.ts, loadFolderKey); null otherwise. */
  cacheKey?: CacheKey | null;
  /** The sync engine's clock in ms (SessionOptions.now); this computer's unless given. */
  now?: () => number;
}

export async function openProfile(o: ProfileOptions): Promise<Profile> {
  if (o.replica) return openReplica(o.replica);
  // Before any file is made: a shell with no demo service changes nothing.
  if (o.baseUrl === null && !o.demo) throw new ValidationError('baseUrl', 'Demo mode is not available here: connect to a service (its base URL and key).');
  const databaseFile = databaseFileFor(o.dataDir, o.baseUrl);
  const key = o.cacheKey ?? null;
  const copy = o.readOnly ? openReadOnlyCopy(databaseFile, key) : null;
  const db = copy ? copy.db : openDatabase(databaseFile, { key });
  // A conversion's old file is kept until the new one has opened at its place: it has now.
  if (!copy) finishConversions(databaseFile);
  const closeDb = () => (copy ? copy.close() : db.open && db.close());
  let demo: DemoService | null = null;
  try {
    let baseUrl: string;
    let accessKey: () => Promise<string | null>;
    if (o.baseUrl === null) {
      // The demo key is made up per run and lives only here: it is not a user's secret.
      const demoKey = randomBytes(16).toString('hex');
      demo = await o.demo!(demoKey); // there is one: checked above
      baseUrl = demo.url;
      accessKey = async () => demoKey;
    } else {
      baseUrl = normaliseBaseUrl(o.baseUrl);
      const url = baseUrl;
      accessKey = () => o.secrets.get(url);
    }
    // One request budget per service, starting at the pace it showed before (see RequestPacer).
    const limiter = new RequestPacer({ concurrency: 4, rate: loadPace(db) });
    const client = createServiceClient({ baseUrl, accessKey, limiter });
    const engine = new SyncEngine({ db, client, transactionPageSize: getSettings(db).transactionPageSize, ...(o.now && { now: o.now }) });
    return {
      mode: o.baseUrl === null ? 'demo' : 'live',
      baseUrl,
      databaseFile,
      db,
      client,
      engine,
      demo,
      readOnly: copy !== null,
      replica: null,
      close: async () => {
        engine.queue.cancelAll();
        await engine.queue.drain();
        const pace = limiter.state.rate;
        if (pace !== null && copy === null && db.open && !db.readonly) {
          try {
            savePace(db, pace);
          } catch {
            // Best effort: a pace not kept is learned again from the service's next refusals.
          }
        }
        await demo?.close();
        closeDb();
      },
    };
  } catch (err) {
    await demo?.close();
    closeDb();
    throw err;
  }
}

/**
 * A team server's replica as the cache (read-only, through a private copy: the file kept is never
 * changed, not even by SQLite's journal). There is no service here: the access key is the
 * server's, and anything that would reach the service is refused by the client itself, as by the
 * core's gate before it (app.ts).
 */
function openReplica(r: ReplicaOf): Profile {
  const copy = openReadOnlyCopy(r.file, null);
  try {
    const limiter = new RequestPacer({ concurrency: 1, rate: null });
    const client = new Proxy({} as ServiceClient, {
      get: (_t, prop) => {
        if (prop === 'limiter') return limiter;
        if (prop === 'then' || prop === 'serviceNowMs') return undefined;
        return () => {
          throw refusal('replica', 'team.replicaReadOnly', { origin: r.origin, madeAt: r.madeAt, op: 'service' });
        };
      },
    });
    const engine = new SyncEngine({ db: copy.db, client, transactionPageSize: getSettings(copy.db).transactionPageSize });
    return {
      mode: 'live',
      baseUrl: r.origin,
      databaseFile: r.file,
      db: copy.db,
      client,
      engine,
      demo: null,
      readOnly: true,
      replica: r,
      close: async () => {
        engine.queue.cancelAll();
        await engine.queue.drain();
        copy.close();
      },
    };
  } catch (err) {
    copy.close();
    throw err;
  }
}
