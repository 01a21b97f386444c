import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAppConfig, databaseFileFor } from './session/index.ts';
import { type Keychain, systemKeychain, CACHE_KEY_SERVICE, folderKey, PASSPHRASE_ENV, previousKeyOf, readEncryptionConfig } from './secrets/index.ts';
import { keyOpening } from './store/cache-conversion.ts';
import { openDatabase, schemaVersion, sqliteVersion } from './store/db.ts';
import { cipherLibraryVersion } from './store/driver.ts';
import { workerWriter } from './transactions/index.ts';

/**
 * What `Folioscope --self-check` reports (one JSON line), for a packaged app on a new machine
 * or a release job: can it open its cache, do its native modules load in this runtime, is
 * the keychain there. Only a broken cache or a native module that does not load fails it: a
 * missing keychain is a fact of the machine the app copes with (session-only keys).
 */
export interface SelfCheckReport {
  selfCheck: 'folioscope';
  ok: boolean;
  app: string;
  platform: string;
  versions: {
    node: string;
    electron: string | null;
    chrome: string | null;
    modules: string;
    napi: string | null;
    sqlite: string | null;
    /** SQLite3 Multiple Ciphers, the encryption layer linked into the driver. */
    sqlite3mc: string | null;
    betterSqlite3MultipleCiphers: string | null;
    keytar: string | null;
  };
  nativeModules: { 'better-sqlite3-multiple-ciphers': ModuleCheck; keytar: ModuleCheck };
  /**
   * The sync's write worker started from this build, on a scratch cache of its own: a worker
   * file the packaged app cannot find or load leaves every write on the main thread, silently
   * (it once was looked for in the wrong folder), so a release job fails on it.
   */
  workers: { writer: ModuleCheck };
  cache: { ok: true; file: string; schema: number } | { ok: false; file: string; error: string };
  keychain: { available: boolean; detail?: string };
}

type ModuleCheck = { ok: true } | { ok: false; error: string };

/** An account no base URL can produce: reading it proves the keychain answers, and reads no key. */
export const SELF_CHECK_ACCOUNT = 'folioscope-self-check';

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err)
    .split('\n')[0]!
    .slice(0, 300);
}

export async function selfCheck(o: {
  dataDir: string;
  version: string;
  keychain?: Keychain;
  cacheKeychain?: Keychain;
  env?: Record<string, string | undefined>;
}): Promise<SelfCheckReport> {
  const require = createRequire(import.meta.url);
  const pkgVersion = (name: string): string | null => {
    try {
      return (require(`${name}/package.json`) as { version: string }).version;
    } catch {
      return null;
    }
  };
  const load = (name: string): ModuleCheck => {
    try {
      require(name);
      return { ok: true };
    } catch (err) {
      return { ok: false, error: firstLine(err) };
    }
  };
  const nativeModules = { 'better-sqlite3-multiple-ciphers': load('better-sqlite3-multiple-ciphers'), keytar: load('keytar') };

  // The cache the app would open now: the current profile's file, migrated as at start.
  const file = databaseFileFor(o.dataDir, readAppConfig(o.dataDir).baseUrl);
  let cache: SelfCheckReport['cache'];
  let sqlite: string | null = null;
  let sqlite3mc: string | null = null;
  try {
    // An encrypted data folder's cache is opened with its key, as the app opens it.
    const config = readEncryptionConfig(o.dataDir, file);
    const key = config
      ? await folderKey(
          config,
          { keychain: o.cacheKeychain ?? systemKeychain(CACHE_KEY_SERVICE), passphrase: (o.env ?? process.env)[PASSPHRASE_ENV] ?? null },
          file,
        )
      : null;
    // A change of key a stop left midway (the app's start finishes it): the file under the key it is under now.
    const opening = config?.next && key ? (keyOpening(file, [key, previousKeyOf(config, key, file)]) ?? key) : key;
    const db = openDatabase(file, { key: opening });
    try {
      sqlite = sqliteVersion(db);
      sqlite3mc = cipherLibraryVersion(db);
      cache = { ok: true, file, schema: schemaVersion(db) };
    } finally {
      db.close();
    }
  } catch (err) {
    cache = { ok: false, file, error: firstLine(err) };
  }

  const workers = { writer: await writeWorkerStarts() };

  let keychain: SelfCheckReport['keychain'];
  try {
    await (o.keychain ?? systemKeychain()).get(SELF_CHECK_ACCOUNT);
    keychain = { available: true };
  } catch (err) {
    keychain = { available: false, detail: firstLine(err) };
  }

  const v = process.versions as NodeJS.ProcessVersions & { electron?: string; chrome?: string };
  return {
    selfCheck: 'folioscope',
    ok: cache.ok && nativeModules['better-sqlite3-multiple-ciphers'].ok && nativeModules.keytar.ok && workers.writer.ok,
    app: o.version,
    platform: `${process.platform}-${process.arch}`,
    versions: {
      node: v.node,
      electron: v.electron ?? null,
      chrome: v.chrome ?? null,
      modules: v.modules,
      napi: v.napi ?? null,
      sqlite,
      sqlite3mc,
      betterSqlite3MultipleCiphers: pkgVersion('better-sqlite3-multiple-ciphers'),
      keytar: pkgVersion('keytar'),
    },
    nativeModules,
    workers,
    cache,
    keychain,
  };
}

/** Starts the write worker on a scratch cache in the system's temporary folder, then removes it. */
async function writeWorkerStarts(): Promise<ModuleCheck> {
  const dir = mkdtempSync(join(tmpdir(), 'folioscope-self-check-'));
  try {
    const db = openDatabase(join(dir, 'worker-check.sqlite'));
    try {
      const writer = workerWriter(db);
      try {
        await writer.ready;
        return { ok: true };
      } finally {
        await writer.close().catch(() => undefined);
      }
    } finally {
      db.close();
    }
  } catch (err) {
    return { ok: false, error: firstLine(err) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
