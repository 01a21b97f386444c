import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, cpSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { folderKey, readEncryptionConfig } from '../../src/main/core/secrets/cache-key.ts';
import type { Keychain } from '../../src/main/core/secrets/keychain.ts';
import { rekeyFolder } from '../../src/main/core/session/encryption.ts';
import { opensWith } from '../../src/main/core/store/cache-conversion.ts';
import { type CacheKey, openConnection } from '../../src/main/core/store/driver.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { startKilledRekey } from '../support/killed-rekey.ts';
import { tempDir } from '../support/store.ts';

/**
 * A change of an encrypted folder's key in one step (issue 39: a new passphrase was encryption
 * off, then on, with every file plain in between). Through the core as the shells use it, real
 * SQLite3MC files: the current passphrase is asked for and checked before anything is closed; the
 * change puts every cache and backup under the new key, which alone opens them afterwards; the
 * keychain entry follows the key. Then a process doing the change is killed before each of its
 * renames in turn: at every stop no file of the folder is plain, and the next start, given the new
 * passphrase, finishes the change with every row there (the old passphrase is told apart).
 */
const P1 = 'kestrel-marble-58-orchard';
const P2 = 'heron-quartz-17-meadow';
/** scrypt's least cost a folder may name (shared/scrypt-params.ts). */
const CHEAP = { N: 2 ** 14, r: 8, p: 1 };
const keys = new Map<string, string>();
const keychain: Keychain = { get: async (a) => keys.get(a) ?? null, set: async (a, s) => void keys.set(a, s), delete: async (a) => keys.delete(a) };
const demo = demoStarter({ now: () => SIM_NOW });
const start = (dataDir: string, env: Record<string, string> = {}, at = SIM_NOW) =>
  createCore({ dataDir, shell: 'web', baseUrl: null, env, demo, cacheKeychain: keychain, scheduleEveryMs: 0, now: () => at });

const filesOf = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => statSync(join(dir, n)).isFile());
const hashes = (dir: string): Record<string, string> =>
  Object.fromEntries(
    filesOf(dir).map((n) => [
      n,
      createHash('sha256')
        .update(readFileSync(join(dir, n)))
        .digest('hex'),
    ]),
  );
/** Every cache, backup and copy of one of them in the folder (not a WAL, a manifest or encryption.json). */
const databases = (dir: string) => filesOf(dir).filter((n) => /\.sqlite($|\.)/.test(n) && !/-(wal|shm|journal)$|\.json$|\.partial$/.test(n));
/** A backup's name without what a conversion adds (`-encrypted`, `-encrypted-2`). */
const stemOf = (name: string) => name.replace(/\.sqlite$/, '').replace(/-(encrypted|plain)(-\d+)?$/, '');
/** No file of the folder starts as a plain SQLite file does. */
const plainFiles = (dir: string) => filesOf(dir).filter((n) => readFileSync(join(dir, n)).subarray(0, 16).equals(Buffer.from('SQLite format 3\0', 'latin1')));

async function keyOf(dir: string, passphrase: string): Promise<CacheKey> {
  const file = join(dir, 'demo.sqlite');
  return folderKey(readEncryptionConfig(dir, file)!, { keychain, passphrase }, file);
}

/** An encrypted folder with a passphrase: the demo cache with a wallet, two backups of it, a copy kept aside by a restore, a second cache. */
async function encryptedFolder(): Promise<{ dir: string; oldKey: CacheKey }> {
  const dir = tempDir();
  const core = await start(dir);
  await core.request('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
  await core.request('cache.encrypt', { passphrase: P1 });
  await core.request('backups.create', undefined);
  await core.close();
  // A second backup a minute later (a backup's name is its time).
  const later = await start(dir, { FOLIOSCOPE_CACHE_PASSPHRASE: P1 }, SIM_NOW + 60_000);
  await later.request('backups.create', undefined);
  await later.close();
  // A service's cache beside the demo's, and a copy a restore kept aside (the change converts every one).
  copyFileSync(join(dir, 'demo.sqlite'), join(dir, 'live-0123456789ab.sqlite'));
  copyFileSync(join(dir, 'demo.sqlite'), join(dir, 'demo.sqlite.before-restore-20261120T115900Z'));
  return { dir, oldKey: await keyOf(dir, P1) };
}

describe('changing the key of an encrypted folder', () => {
  it('asks for the current passphrase, then puts every file under the new key, never plain; the old passphrase opens nothing', async () => {
    const { dir, oldKey } = await encryptedFolder();
    const core = await start(dir, { FOLIOSCOPE_CACHE_PASSPHRASE: P1 });
    const before = hashes(dir);
    const missing = await core.dispatch('cache.rekey', { passphrase: P2 });
    expect(missing).toMatchObject({ ok: false, error: { kind: 'validation', field: 'currentPassphrase', said: { code: 'encryption.passphraseToChange' } } });
    const wrong = await core.dispatch('cache.rekey', { passphrase: P2, currentPassphrase: 'kestrel-marble-58-orchards' });
    expect(wrong).toMatchObject({ ok: false, error: { field: 'currentPassphrase', said: { code: 'cache.wrongPassphrase' } } });
    expect(JSON.stringify([missing, wrong])).not.toMatch(/kestrel|heron/);
    expect(hashes(dir)).toEqual(before);

    const changed = await core.dispatch('cache.rekey', { passphrase: P2, currentPassphrase: P1 });
    expect(changed).toMatchObject({
      ok: true,
      result: { on: true, keySource: 'passphrase', unfinished: false, changing: false, backups: { encrypted: 2, plain: 0 } },
    });
    expect(JSON.stringify(changed)).not.toMatch(/kestrel|heron/);
    // The session goes on under the new key: reads, edits and a backup.
    await core.request('wallets.update', { address: WALLET, label: 'Treasury main' });
    await core.request('backups.create', undefined);
    await core.close();

    const newKey = await keyOf(dir, P2);
    expect(newKey.id()).not.toBe(oldKey.id());
    expect(readEncryptionConfig(dir, dir)).not.toHaveProperty('next');
    const dbs = databases(dir);
    expect(dbs.filter((n) => n.startsWith('backups'))).toHaveLength(3);
    expect(dbs.filter((n) => !n.startsWith('backups')).sort()).toEqual([
      'demo.sqlite',
      'demo.sqlite.before-restore-20261120T115900Z',
      'live-0123456789ab.sqlite',
    ]);
    for (const n of dbs) {
      expect(opensWith(join(dir, n), newKey), n).toBe(true);
      expect(opensWith(join(dir, n), oldKey), n).toBe(false);
    }
    expect(plainFiles(dir)).toEqual([]);
    for (const n of filesOf(dir)) expect(readFileSync(join(dir, n)).includes(P2), n).toBe(false);

    // The old passphrase opens nothing; the new one opens the folder with everything in it.
    const locked = await start(dir);
    expect(await locked.dispatch('cache.unlock', { passphrase: P1 })).toMatchObject({
      ok: false,
      error: { field: 'passphrase', said: { code: 'cache.wrongPassphrase' } },
    });
    expect(await locked.dispatch('cache.unlock', { passphrase: P2 })).toMatchObject({ ok: true });
    expect((await locked.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury main']);
    const list = await locked.request('backups.list', undefined);
    for (const b of list.backups) expect(await locked.request('backups.verify', { name: b.name })).toMatchObject({ ok: true });
    await locked.close();
  }, 90_000);

  it('moves between the keychain and a passphrase, and to a new random key, with the keychain entry following the key', async () => {
    keys.clear();
    const dir = tempDir();
    const core = await start(dir);
    await core.request('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
    const on = await core.request('cache.encrypt', {});
    expect([...keys.keys()]).toHaveLength(1);
    const first = [...keys.keys()][0];

    // A new random key: another entry, the old one gone.
    const rotated = await core.request('cache.rekey', {});
    expect(rotated).toMatchObject({ on: true, keySource: 'keychain', changing: false });
    expect(rotated.keyId).not.toBe(on.keyId);
    expect([...keys.keys()]).toHaveLength(1);
    expect([...keys.keys()][0]).not.toBe(first);

    // To a passphrase: no entry is left; the next start asks for it.
    expect(await core.request('cache.rekey', { passphrase: P1 })).toMatchObject({ keySource: 'passphrase' });
    expect(keys.size).toBe(0);
    expect((await core.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury']);
    await core.close();
    const asks = await start(dir);
    expect(await asks.request('cache.locked', undefined)).toMatchObject({ locked: true, changing: false });
    await asks.request('cache.unlock', { passphrase: P1 });

    // Back to the keychain, with the passphrase typed again: the next start asks for nothing.
    expect(await asks.dispatch('cache.rekey', {})).toMatchObject({ ok: false, error: { field: 'currentPassphrase' } });
    expect(await asks.request('cache.rekey', { currentPassphrase: P1 })).toMatchObject({ keySource: 'keychain' });
    expect(keys.size).toBe(1);
    await asks.close();
    const again = await start(dir);
    expect(await again.request('cache.locked', undefined)).toMatchObject({ locked: false });
    expect((await again.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury']);
    expect(await again.request('cache.encryption', {})).toMatchObject({ keySource: 'keychain', unfinished: false, changing: false });
    await again.close();
  }, 90_000);

  it('a failure midway is undone: every file under the old key again, encryption.json as it was, the new keychain entry gone, the app goes on', async () => {
    keys.clear();
    const dir = tempDir();
    const core = await start(dir);
    await core.request('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
    await core.request('cache.encrypt', {});
    await core.request('backups.create', undefined);
    const oldKey = await keyOf(dir, '');
    // A second cache whose last pages are damaged: it opens, but cannot be copied, so the change fails after the demo cache was converted.
    const live = join(dir, 'live-0123456789ab.sqlite');
    const db = openConnection(live, {}, oldKey);
    db.pragma('journal_mode = DELETE');
    db.exec('CREATE TABLE pad (x BLOB); INSERT INTO pad VALUES (randomblob(300000));');
    db.close();
    const fd = openSync(live, 'r+');
    writeSync(fd, Buffer.alloc(64, 0xff), 0, 64, statSync(live).size - 2048);
    closeSync(fd);
    const config = readFileSync(join(dir, 'encryption.json'), 'utf8');
    const entries = [...keys.entries()];

    const failed = await core.dispatch('cache.rekey', {});
    expect(failed.ok).toBe(false);
    expect(readFileSync(join(dir, 'encryption.json'), 'utf8')).toBe(config);
    expect([...keys.entries()]).toEqual(entries);
    for (const n of databases(dir)) expect(opensWith(join(dir, n), oldKey), n).toBe(true);
    expect(plainFiles(dir)).toEqual([]);
    // The session goes on under the old key: reads, edits, the folder's state as before.
    await core.request('wallets.update', { address: WALLET, label: 'Treasury main' });
    expect(await core.request('cache.encryption', {})).toMatchObject({ on: true, keySource: 'keychain', changing: false, keyId: oldKey.id() });
    await core.close();
  }, 90_000);

  it('a backup that cannot be converted keeps the old key: the change is undone in process, and kept open at the next start until the backup is removed', async () => {
    const damage = (file: string) => {
      const fd = openSync(file, 'r+');
      writeSync(fd, Buffer.alloc(16, 0xee), 0, 16, Math.floor(statSync(file).size / 2));
      closeSync(fd);
    };
    const { dir, oldKey } = await encryptedFolder();
    const backup = join(
      dir,
      databases(dir).find((n) => n.startsWith('backups'))!,
    );
    damage(backup);
    const config = readFileSync(join(dir, 'encryption.json'), 'utf8');
    const core = await start(dir, { FOLIOSCOPE_CACHE_PASSPHRASE: P1 });
    const refused = await core.dispatch('cache.rekey', { passphrase: P2, currentPassphrase: P1 });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        message: expect.stringMatching(
          /^The key was not changed: 1 backup or copy kept aside could not be converted .*Every file is under the current key as before/,
        ),
      },
    });
    expect(readFileSync(join(dir, 'encryption.json'), 'utf8')).toBe(config);
    for (const n of databases(dir)) expect(opensWith(join(dir, n), oldKey), n).toBe(true);
    expect((await core.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury']);
    await core.close();

    // Stopped midway with that backup there: the next start finishes what it can and keeps the old key for the rest.
    const child = startKilledRekey(dir, 2, { OLD_PASSPHRASE: P1, NEW_PASSPHRASE: P2 });
    expect(await new Promise((resolve) => child.on('exit', (_code, signal) => resolve(signal)))).toBe('SIGKILL');
    const again = await start(dir, { FOLIOSCOPE_CACHE_PASSPHRASE: P2 });
    expect((await again.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury']);
    expect(await again.request('cache.encryption', {})).toMatchObject({ changing: true });
    await again.close();
    expect(readEncryptionConfig(dir, dir)).toHaveProperty('next');
    expect(opensWith(backup, oldKey)).toBe(true);
    const newKey = await keyOf(dir, P2);
    for (const n of databases(dir).filter((f) => !f.startsWith('backups'))) expect(opensWith(join(dir, n), newKey), n).toBe(true);

    // The backup removed, the next start finishes the change.
    rmSync(backup);
    rmSync(`${backup}.json`);
    const done = await start(dir, { FOLIOSCOPE_CACHE_PASSPHRASE: P2 });
    expect(await done.request('cache.encryption', {})).toMatchObject({ changing: false, unfinished: false, keyId: newKey.id() });
    await done.close();
    expect(readEncryptionConfig(dir, dir)).not.toHaveProperty('next');
  }, 90_000);

  it('killed before each of its renames and removals of an old backup, it leaves no plain file, and the next start with the new passphrase finishes it, without doubles', async () => {
    const { dir: fixture, oldKey: dearKey } = await encryptedFolder();
    // Thirty processes and a hundred derivations of a key: at the least cost a folder may name
    // (the passphrase's key made again with it, then the change's new key), each is an eighth of
    // the default's, and the steps between the renames are what this test is about.
    const oldKey = await rekeyFolder(fixture, { keychain, key: dearKey, passphrase: P1, cost: CHEAP });
    expect(readEncryptionConfig(fixture, fixture)).toMatchObject({ keySource: 'passphrase', kdf: CHEAP });
    const fixtureBackups = databases(fixture)
      .filter((n) => n.startsWith('backups'))
      .map((n) => stemOf(n.replace(/^backups\//, '')))
      .sort();
    expect(fixtureBackups).toHaveLength(2);
    const outcomes: string[] = [];
    for (let n = 1; n < 30; n++) {
      const dir = tempDir();
      cpSync(fixture, dir, { recursive: true });
      const child = startKilledRekey(dir, n, { OLD_PASSPHRASE: P1, NEW_PASSPHRASE: P2, NEW_COST: JSON.stringify(CHEAP) }, 'pipe');
      let out = '';
      let err = '';
      child.stdout!.on('data', (d) => (out += String(d)));
      child.stderr!.on('data', (d) => (err += String(d)));
      const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, s) => resolve(s)));
      const done = out.includes('done');
      expect(done || signal === 'SIGKILL', err).toBe(true);
      // Never plain, at any stop.
      expect(plainFiles(dir), `stopped before rename ${n}`).toEqual([]);
      const pending = readEncryptionConfig(dir, dir)?.next !== undefined;
      const started = pending || readEncryptionConfig(dir, dir)!.keyCheck !== oldKey.check();
      outcomes.push(done ? 'done' : pending ? 'pending' : started ? 'changed' : 'not started');

      if (!started) {
        // Stopped before the new key was named: the folder is as it was, under the old passphrase.
        const core = await start(dir, { FOLIOSCOPE_CACHE_PASSPHRASE: P1 });
        expect((await core.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury']);
        await core.close();
        continue;
      }
      if (pending && !outcomes.slice(0, -1).includes('pending')) {
        // The old passphrase is told apart, and opens nothing; the unlock screen says a change is under way (once: scrypt twice a try).
        const locked = await start(dir);
        expect(await locked.request('cache.locked', undefined)).toMatchObject({ locked: true, changing: true });
        expect(await locked.dispatch('cache.unlock', { passphrase: P1 })).toMatchObject({
          ok: false,
          error: { field: 'passphrase', said: { code: 'cache.passphraseBefore' } },
        });
        await locked.close();
      }
      // The new passphrase opens it and finishes the change: every file under the new key, every row there.
      const core = await start(dir, { FOLIOSCOPE_CACHE_PASSPHRASE: P2 });
      expect((await core.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury']);
      expect(await core.request('cache.encryption', {})).toMatchObject({ on: true, unfinished: false, changing: false });
      // The one backup, once: no double of a backup converted before the stop, no copy or manifest half made.
      const list = await core.request('backups.list', undefined);
      expect(list.backups.map((b) => stemOf(b.name)).sort()).toEqual(fixtureBackups);
      for (const b of list.backups) expect(await core.request('backups.verify', { name: b.name })).toMatchObject({ ok: true });
      await core.close();
      expect(filesOf(dir).filter((n) => n.endsWith('.partial') || (n.endsWith('.sqlite.json') && !filesOf(dir).includes(n.slice(0, -5))))).toEqual([]);
      const newKey = await keyOf(dir, P2);
      for (const f of databases(dir)) {
        expect(opensWith(join(dir, f), newKey), `${f} after a stop before rename ${n}`).toBe(true);
        expect(opensWith(join(dir, f), oldKey), f).toBe(false);
      }
      expect(plainFiles(dir)).toEqual([]);
      if (done) break;
    }
    // The kills fell on every side: before the change was named, midway, after it was written, and past its end.
    expect(outcomes[0]).toBe('not started');
    expect(outcomes).toContain('pending');
    // Stops inside the conversion's worker as well as on the main thread: two caches' and a copy's
    // swaps, and each of two backups' naming and its old file's removal, at least.
    expect(outcomes.filter((o) => o === 'pending').length).toBeGreaterThanOrEqual(7);
    expect(outcomes.at(-1)).toBe('done');
  }, 240_000);
});
