import BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { openDatabase, schemaVersion } from '../../src/main/core/store/db.ts';
import { SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { backupsFolderOf, createBackup, listBackups, sha256File, stageRestore, verifyBackup } from '../../src/main/core/store/backup-files.ts';
import { backupDue, pruneBackups } from '../../src/main/core/backups/policy.ts';
import { swapInRestore } from '../../src/main/core/backups/swap.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { createBackupOffThread, verifyBackupOffThread } from '../../src/main/core/store/backup-thread.ts';
import { saveGroup } from '../../src/main/core/store/groups.ts';
import { createDB, tempDir } from '../support/store.ts';
import { WALLET, WALLET_2 } from '../support/sim.ts';

/** Backups of the cache: made with VACUUM INTO and checked, refused when changed, kept to a count, made before a migration. */
function populated() {
  const db = createDB();
  const path = db.name;
  addWallet(db, { address: WALLET, chains: ['eth', 'arb'], label: 'Treasury', tags: ['ops'] });
  addWallet(db, { address: WALLET_2, chains: ['eth'] });
  saveGroup(db, { name: 'Fund I', wallets: [WALLET, WALLET_2] });
  return { db, path };
}
const manifestOf = (path: string, name: string) => join(backupsFolderOf(path), `${name}.json`);
const editManifest = (path: string, name: string, edit: (m: any) => void) => {
  const m = JSON.parse(readFileSync(manifestOf(path, name), 'utf8'));
  edit(m);
  writeFileSync(manifestOf(path, name), JSON.stringify(m));
};

describe('a backup', () => {
  it('is a checked copy named <stem>-<UTC time>.sqlite with a manifest of its schema, rows and SHA-256; owner-only', () => {
    const { db, path } = populated();
    const made = createBackup(db, path, { reason: 'manual', appVersion: '9.9.9', now: new Date('2026-01-15T06:00:00.123Z') });
    expect(made).toMatchObject({
      name: 'cache-20260115T060000Z.sqlite',
      cache: 'cache.sqlite',
      reason: 'manual',
      schemaVersion: SCHEMA_VERSION,
      problem: null,
    });
    expect(made.counts).toMatchObject({ wallets: 2, wallet_groups: 1, wallet_group_members: 2, schedules: 0, snapshots: 0, transactions: 0 });
    const dir = backupsFolderOf(path);
    const file = join(dir, made.name);
    expect(readdirSync(dir).sort()).toEqual([made.name, `${made.name}.json`]);
    expect(made.sha256).toBe(sha256File(file));
    expect(made.bytes).toBe(statSync(file).size);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}.json`).mode & 0o777).toBe(0o600);
    const manifest = JSON.parse(readFileSync(`${file}.json`, 'utf8'));
    expect(manifest).toMatchObject({ format: 'folioscope-backup', version: 1, integrityCheck: 'ok', appVersion: '9.9.9', encryption: null });
    // The copy is a plain cache of the same rows.
    const copy = new BetterSqlite3(file, { readonly: true });
    expect(copy.prepare('SELECT label FROM wallets ORDER BY label').pluck().all()).toEqual(['', 'Treasury']);
    copy.close();
    // Two in the same second get two names.
    const again = createBackup(db, path, { reason: 'manual', appVersion: '9.9.9', now: new Date('2026-01-15T06:00:00.900Z') });
    expect(again.name).toBe('cache-20260115T060000Z-2.sqlite');
    expect(listBackups(path).map((b) => b.name)).toEqual([again.name, made.name]);
    expect(verifyBackup(path, made.name)).toEqual(made);
  });

  it('is refused when a byte of it changed, its manifest was edited, its hash is another, or its manifest is gone', () => {
    const { db, path } = populated();
    const fresh = () => createBackup(db, path, { reason: 'manual', appVersion: 't' }).name;

    const tampered = fresh();
    const file = join(backupsFolderOf(path), tampered);
    const bytes = readFileSync(file);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    writeFileSync(file, bytes);
    expect(() => verifyBackup(path, tampered)).toThrow(/does not match its manifest's SHA-256.*Nothing was changed/);

    const counted = fresh();
    editManifest(path, counted, (m) => (m.counts.wallets = 3));
    expect(() => verifyBackup(path, counted)).toThrow(/holds other rows than its manifest records \(wallets: 2 vs 3\)/);

    const hashed = fresh();
    editManifest(path, hashed, (m) => (m.sha256 = '0'.repeat(64)));
    expect(() => verifyBackup(path, hashed)).toThrow(/SHA-256/);

    const unsigned = fresh();
    editManifest(path, unsigned, (m) => (m.extra = 'x'));
    expect(() => verifyBackup(path, unsigned)).toThrow(/not one Folioscope wrote/);

    const orphan = fresh();
    writeFileSync(manifestOf(path, orphan), '{"format": "folioscope-backup"');
    expect(() => verifyBackup(path, orphan)).toThrow(/not valid JSON/);
    expect(listBackups(path).find((b) => b.name === orphan)?.problem).toMatch(/not valid JSON/);

    const elsewhere = fresh();
    editManifest(path, elsewhere, (m) => (m.cache = 'live-0123456789ab.sqlite'));
    expect(() => verifyBackup(path, elsewhere)).toThrow(/is a backup of live-0123456789ab\.sqlite, not of the cache in use \(cache\.sqlite\)/);

    expect(() => verifyBackup(path, '../cache.sqlite')).toThrow(/not the name of a backup/);
    expect(() => verifyBackup(path, 'nothing.sqlite')).toThrow(/There is no backup nothing\.sqlite/);
    // A refused backup is never staged: nothing is written beside the cache.
    expect(() => stageRestore(path, tampered)).toThrow(/SHA-256/);
    expect(readdirSync(join(path, '..')).filter((n) => n.includes('restoring'))).toEqual([]);
  });

  it("is refused when its schema is newer than this version's, even with a manifest that matches", () => {
    const { db, path } = populated();
    const made = createBackup(db, path, { reason: 'manual', appVersion: 't' });
    const file = join(backupsFolderOf(path), made.name);
    const copy = new BetterSqlite3(file);
    copy.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    copy.close();
    editManifest(path, made.name, (m) => {
      m.sha256 = sha256File(file);
      m.bytes = statSync(file).size;
      m.schemaVersion = SCHEMA_VERSION + 1;
    });
    expect(() => verifyBackup(path, made.name)).toThrow(
      new RegExp(`newer Folioscope \\(schema ${SCHEMA_VERSION + 1}; this version reads up to ${SCHEMA_VERSION}\\)`),
    );
  });

  it('keeps the newest N and never prunes one made before a migration; is due daily', () => {
    const { db, path } = populated();
    expect(backupDue(path)).toBe(true);
    const day = (d: number) => new Date(Date.UTC(2026, 0, d, 6));
    createBackup(db, path, { reason: 'before-migration', appVersion: 't', now: day(1) });
    for (let d = 2; d <= 6; d++) createBackup(db, path, { reason: 'scheduled', appVersion: 't', now: day(d) });
    expect(pruneBackups(path, 3)).toEqual(['cache-20260103T060000Z.sqlite', 'cache-20260102T060000Z.sqlite']);
    expect(listBackups(path).map((b) => `${b.name.slice(6, 14)} ${b.reason}`)).toEqual([
      '20260106 scheduled',
      '20260105 scheduled',
      '20260104 scheduled',
      '20260101 before-migration',
    ]);
    expect(backupDue(path, new Date(day(6).getTime() + 23 * 3600_000))).toBe(false);
    expect(backupDue(path, new Date(day(7).getTime()))).toBe(true);
  });

  it('restores by renames: the cache kept aside with its companions, the staged copy in its place', () => {
    const { db, path } = populated();
    const made = createBackup(db, path, { reason: 'manual', appVersion: 't' });
    addWallet(db, { address: '0x' + '1'.repeat(40), chains: ['eth'] });
    const { staged } = stageRestore(path, made.name);
    db.close();
    const before = readFileSync(path);
    const kept = swapInRestore(path, staged, new Date('2026-02-01T00:00:00Z'));
    expect(kept).toBe(`${path}.before-restore-20260201T000000Z`);
    expect(readFileSync(kept).equals(before)).toBe(true);
    expect(sha256File(path)).toBe(made.sha256);
    const reopened = openDatabase(path);
    expect(reopened.prepare('SELECT count(*) FROM wallets').pluck().get()).toBe(2);
    reopened.close();
  });
});

describe('off the main thread', () => {
  it('a backup is made and verified on a worker with a connection of its own (the one passed is only the fallback)', async () => {
    const { db, path } = populated();
    // A closed connection: only a worker, with its own, can make the backup.
    const closed = openDatabase(path, { sibling: true });
    closed.close();
    const made = await createBackupOffThread(closed, path, 'manual', 't');
    expect(made.counts).toMatchObject({ wallets: 2, wallet_groups: 1 });
    expect(await verifyBackupOffThread(closed, path, made.name)).toEqual(made);
    const bytes = readFileSync(join(backupsFolderOf(path), made.name));
    bytes[bytes.length >> 1]! ^= 1;
    writeFileSync(join(backupsFolderOf(path), made.name), bytes);
    await expect(verifyBackupOffThread(closed, path, made.name)).rejects.toMatchObject({
      name: 'BackupRefusedError',
      message: expect.stringMatching(/SHA-256/),
    });
    db.close();
  });

  it('runs bundled: out/main/store-backup.js (electron-vite build) makes a backup that verifies', async () => {
    const bundled = join(import.meta.dirname, '../../out/main/store-backup.js');
    expect(existsSync(bundled), 'run `npx electron-vite build` first').toBe(true);
    const { path } = populated();
    const ask = (workerData: unknown) =>
      new Promise<any>((resolve, reject) => {
        const worker = new Worker(bundled, { workerData });
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    const made = await ask({ op: 'create', cacheFile: path, reason: 'manual', appVersion: 'bundled' });
    expect(made).toMatchObject({ ok: true, result: { reason: 'manual', counts: { wallets: 2 } } });
    expect(await ask({ op: 'verify', cacheFile: path, name: made.result.name })).toEqual({ ok: true, result: made.result });
  });
});

describe('a migration', () => {
  /** A cache as version 12 of Folioscope left it, with a wallet. */
  function version12(): string {
    const path = join(tempDir(), 'demo.sqlite');
    const old = openDatabase(path, { upToVersion: 12 });
    old.prepare("INSERT INTO wallets (address, label, tags, chains, created_at) VALUES (?, 'Old', '[]', '[\"eth\"]', '2025-01-01T00:00:00.000Z')").run(WALLET);
    old.close();
    return path;
  }

  it('of an existing cache first copies it, checked, to the backups folder', () => {
    const path = version12();
    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    db.close();
    const [backup, ...more] = listBackups(path);
    expect(more).toEqual([]);
    expect(backup).toMatchObject({ reason: 'before-migration', schemaVersion: 12, counts: { wallets: 1 }, problem: null });
    expect(backup!.name).toMatch(/^demo-\d{8}T\d{6}Z\.sqlite$/);
    expect(verifyBackup(path, backup!.name).schemaVersion).toBe(12);
    // Opening it again (now current) makes no other backup; nor does a new cache.
    openDatabase(path).close();
    expect(listBackups(path)).toHaveLength(1);
    const fresh = join(tempDir(), 'demo.sqlite');
    openDatabase(fresh).close();
    expect(existsSync(backupsFolderOf(fresh))).toBe(false);
  });

  it('does not run when the backup cannot be made: the cache stays at its version', () => {
    const path = version12();
    // A file where the folder should be: the backup fails.
    writeFileSync(backupsFolderOf(path), 'not a folder');
    expect(() => openDatabase(path)).toThrow(/Before upgrading the cache \(schema 12 to \d+\) Folioscope keeps a backup of it, and it could not/);
    const check = new BetterSqlite3(path, { readonly: true });
    expect(schemaVersion(check)).toBe(12);
    check.close();
  });
});
