import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { databaseFileFor } from '../../src/main/core/session/profile.ts';
import { SELF_CHECK_ACCOUNT, selfCheck } from '../../src/main/core/self-check.ts';
import { KEYCHAIN_SERVICE } from '../../src/main/core/secrets/keychain.ts';
import { SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { runTs } from '../support/run.ts';
import { tempDir } from '../support/store.ts';

/** The core part of `Folioscope --self-check`, with the real SQLite, keytar and gnome-keyring. */
const require = createRequire(import.meta.url);
const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;

describe('self-check', () => {
  it('opens the cache, loads the native modules, finds the keychain, and names the versions', async () => {
    const dataDir = tempDir();
    const report = await selfCheck({ dataDir, version: '1.2.3' });
    expect(report).toMatchObject({
      selfCheck: 'folioscope',
      ok: true,
      app: '1.2.3',
      platform: `${process.platform}-${process.arch}`,
      nativeModules: { 'better-sqlite3-multiple-ciphers': { ok: true }, keytar: { ok: true } },
      workers: { writer: { ok: true } },
      cache: { ok: true, file: join(dataDir, 'demo.sqlite'), schema: SCHEMA_VERSION },
      keychain: { available: true },
    });
    expect(report.versions).toEqual({
      node: process.versions.node,
      electron: null,
      chrome: null,
      modules: process.versions.modules,
      napi: process.versions.napi,
      sqlite: new BetterSqlite3(':memory:').prepare('select sqlite_version() as v').pluck().get(),
      sqlite3mc: new BetterSqlite3(':memory:').prepare('select sqlite3mc_version() as v').pluck().get(),
      betterSqlite3MultipleCiphers: version('better-sqlite3-multiple-ciphers'),
      keytar: version('keytar'),
    });
    // The cache it opened is the app's, migrated: the file is there at the current schema.
    const db = new BetterSqlite3(join(dataDir, 'demo.sqlite'), { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
    // It only read the keychain: nothing was stored under its probe account.
    expect(() => execFileSync('secret-tool', ['lookup', 'service', KEYCHAIN_SERVICE, 'account', SELF_CHECK_ACCOUNT], { encoding: 'utf8' })).toThrow();
  });

  it("checks the current profile's cache: a connected service's file, not the demo's", async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'app.json'), JSON.stringify({ baseUrl: 'https://api.example.com' }));
    const report = await selfCheck({ dataDir, version: '1.2.3' });
    expect(report.cache).toEqual({ ok: true, file: databaseFileFor(dataDir, 'https://api.example.com'), schema: SCHEMA_VERSION });
    expect(existsSync(join(dataDir, 'demo.sqlite'))).toBe(false);
  });

  it('fails on a cache written by a newer version, and leaves the file as it was', async () => {
    const dataDir = tempDir();
    const file = join(dataDir, 'demo.sqlite');
    const future = new BetterSqlite3(file);
    future.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    future.close();
    const before = readFileSync(file);
    const report = await selfCheck({ dataDir, version: '1.2.3' });
    expect(report.ok).toBe(false);
    expect(report.cache).toMatchObject({ ok: false, file });
    expect(report.cache.ok === false && report.cache.error).toMatch(/written by a newer version of Folioscope/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('without a Secret Service: the keychain is reported unavailable with what to do, and the check still passes', () => {
    const dataDir = tempDir();
    const run = runTs('support/self-check-child.ts', [dataDir], { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/folioscope-no-bus' });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]!);
    expect(report).toMatchObject({ ok: true, nativeModules: { keytar: { ok: true } }, keychain: { available: false } });
    expect(report.keychain.detail).toMatch(/keychain is not available.*gnome-keyring/);
  });
});
