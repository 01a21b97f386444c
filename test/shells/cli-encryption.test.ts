import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Driver from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { CACHE_KEY_SERVICE } from '../../src/main/core/secrets/cache-key.ts';
import { systemKeychain, type Keychain } from '../../src/main/core/secrets/keychain.ts';
import { electronStartupDialogs, LOCKED_CHOICES, openCoreWithChoices } from '../../src/main/electron/startup-choice.ts';
import { runCliHere } from '../support/cli-in-process.ts';
import { holdOpen, type Ran, runCliSync } from '../support/cli-process.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Encryption at rest as a user turns it on and off: `folioscope cache encrypt|decrypt|status`,
 * the key in a real gnome-keyring (scripts/with-keyring.sh) or from a passphrase, and the files
 * of the data folder read as a thief of the disk would: the sqlite3 shell, a search for a
 * watched address, a search for the key and the passphrase in every file and every line
 * printed. With the key in the keychain the commands run as processes (the keychain is the
 * process's); a folder's set-up, the refusal while the cache is open elsewhere and the
 * passphrase's runs go through the same entry in this process (runCliHere), but the encrypt
 * that reads the passphrase from a real standard input.
 */
const cli = runCliSync;
/** A command in this process (the entry the process runs): for what is not about the process or the keychain. */
const here = (args: string[], o: { env?: Record<string, string>; input?: string; tty?: boolean } = {}) => runCliHere(args, o);
const ok = (r: Ran) => {
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
};

/** Every file under a folder, with its bytes. */
function filesUnder(dir: string): Array<{ path: string; bytes: Buffer }> {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((n) => join(dir, n))
    .filter((p) => statSync(p).isFile())
    .map((path) => ({ path, bytes: readFileSync(path) }));
}
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
const folderId = (dir: string) => (JSON.parse(readFileSync(join(dir, 'encryption.json'), 'utf8')) as { folderId: string }).folderId;
const keychainEntry = (account: string) => {
  try {
    return execFileSync('secret-tool', ['lookup', 'service', CACHE_KEY_SERVICE, 'account', account], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};
const shell = (path: string) => spawnSync('sqlite3', ['-readonly', path, 'SELECT count(*) FROM wallets'], { encoding: 'utf8' });

/** A data folder with a watched wallet, a few weeks of demo history and a backup. */
async function folderWithHistory(): Promise<string> {
  const dir = tempDir();
  const g = ['--data-dir', dir];
  ok(await here([...g, 'wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Treasury']));
  await here([...g, 'sync', '--from', '2025-12-01', '--to', '2025-12-31', '--every', 'week']);
  ok(await here([...g, 'backup', 'create']));
  return dir;
}

describe('folioscope cache encrypt (key in the system keychain)', () => {
  it('encrypts the cache and its backups: unreadable by the sqlite3 shell, no address or key in any file, everything works with the key', async () => {
    const dir = await folderWithHistory();
    const g = ['--data-dir', dir];
    expect(ok(cli([...g, 'cache', 'status']))).toMatch(/Encryption at rest: off/);
    // Before: the address is in the file for anyone to read (the control).
    expect(readFileSync(join(dir, 'demo.sqlite')).includes(WALLET)).toBe(true);
    const walletsBefore = ok(cli([...g, 'wallet', 'list']));

    const out = ok(cli([...g, 'cache', 'encrypt']));
    expect(out).toMatch(/Encryption at rest: on \(aegis, a random key in the system keychain/);
    expect(out).toMatch(/backups: 1 encrypted, 0 plain/);
    const id = folderId(dir);
    const key = keychainEntry(id);
    expect(key).toMatch(/^[0-9a-f]{64}$/);

    for (const f of filesUnder(dir)) {
      expect(f.bytes.includes(WALLET), f.path).toBe(false);
      expect(f.bytes.includes(key!), f.path).toBe(false);
      expect(f.bytes.includes(Buffer.from(key!, 'hex')), f.path).toBe(false);
    }
    const backup = readdirSync(join(dir, 'backups')).find((n) => n.endsWith('.sqlite'))!;
    for (const file of [join(dir, 'demo.sqlite'), join(dir, 'backups', backup)]) {
      const r = shell(file);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/not a database/);
      expect(() => new Driver(file, { readonly: true }).prepare('SELECT count(*) FROM wallets').get()).toThrow(/not a database/);
    }
    // app.json and encryption.json name no key.
    expect(readFileSync(join(dir, 'encryption.json'), 'utf8')).not.toContain(key!);

    // Everything works as before, with the key from the keychain.
    expect(ok(cli([...g, 'wallet', 'list']))).toBe(walletsBefore);
    expect(ok(cli([...g, 'backup', 'create']))).toMatch(/made and checked/);
    const names = readdirSync(join(dir, 'backups')).filter((n) => n.endsWith('.sqlite'));
    for (const n of names) expect(ok(cli([...g, 'backup', 'verify', n]))).toMatch(/^ok .*SHA-256 matches its manifest, integrity_check ok/);
    const csv = join(tempDir(), 't.csv');
    expect(ok(cli([...g, 'export', 'csv', '--report', 'transactions', '--out', csv]))).toMatch(/Wrote/);
    // The export holds the data (the address), never the key.
    expect(readFileSync(csv, 'utf8')).toContain(WALLET);
    expect(readFileSync(csv, 'utf8')).not.toContain(key!);

    // No line printed by any of these held the key.
    for (const r of [out, walletsBefore]) expect(r).not.toContain(key!);

    // Off again: plain files, the key gone from the keychain, encryption.json gone.
    const off = ok(cli([...g, 'cache', 'decrypt']));
    expect(off).toMatch(/Encryption at rest: off/);
    expect(off).toMatch(/backups: 0 encrypted, 2 plain/);
    expect(keychainEntry(id)).toBeNull();
    expect(existsSync(join(dir, 'encryption.json'))).toBe(false);
    expect(shell(join(dir, 'demo.sqlite')).stdout.trim()).toBe('1');
    expect(ok(cli([...g, 'wallet', 'list']))).toBe(walletsBefore);
    expect(readdirSync(dir).filter((n) => /before-|converting/.test(n))).toEqual([]);
  }, 180_000);

  it('a missing key says so, with the ways forward, and changes nothing; with the entry back, it opens as before', async () => {
    const dir = await folderWithHistory();
    const g = ['--data-dir', dir];
    ok(cli([...g, 'cache', 'encrypt']));
    const id = folderId(dir);
    const key = keychainEntry(id)!;
    execFileSync('secret-tool', ['clear', 'service', CACHE_KEY_SERVICE, 'account', id]);
    const before = sha(join(dir, 'demo.sqlite'));
    const r = cli([...g, 'wallet', 'list']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /is encrypted and cannot be opened: its key is missing from the system keychain \(service "Folioscope cache key", account [0-9a-f-]{36}\)/,
    );
    expect(r.stderr).toMatch(/Nothing was changed and nothing is deleted/);
    expect(r.stderr).toMatch(/elsewhere: +folioscope --data-dir DIR/);
    expect(`${r.stdout}${r.stderr}`).not.toContain(key);
    expect(sha(join(dir, 'demo.sqlite'))).toBe(before);
    expect(readdirSync(dir).sort()).toEqual(['backups', 'demo.sqlite', 'encryption.json']);
    // status still speaks (it reads the files, not the cache).
    expect(ok(cli([...g, 'cache', 'status']))).toMatch(/Encryption at rest: on/);
    // The entry back as the app writes it (keytar, through libsecret, under the Generic schema):
    // keytar's lookup, which asks for that schema, did not always find an item `secret-tool
    // store` made (CI saw null for 10 s while secret-tool's own lookup saw the key).
    const app = systemKeychain(CACHE_KEY_SERVICE, { cli: true });
    await app.set(id, key);
    for (let i = 0; i < 50 && (await app.get(id)) !== key; i++) await new Promise((r) => setTimeout(r, 100));
    expect(keychainEntry(id)).toBe(key);
    expect(await app.get(id)).toBe(key);
    expect(ok(cli([...g, 'wallet', 'list']))).toMatch(/Treasury/);
  }, 180_000);
});

describe('folioscope cache encrypt while another program has the cache open', () => {
  it('is refused before anything is written: no key, no encryption.json, the cache as it was', async () => {
    const dir = await folderWithHistory();
    const file = join(dir, 'demo.sqlite');
    // Another process holding the cache open (as the app or a watch would), in a read transaction.
    const other = await holdOpen(file);
    try {
      expect(other.printed).toMatch(/1/);
      const before = sha(file);
      const r = await here(['--data-dir', dir, 'cache', 'encrypt']);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/demo\.sqlite is open in another Folioscope .* close it and try again\. Nothing was changed\./);
      expect(existsSync(join(dir, 'encryption.json'))).toBe(false);
      expect(sha(file)).toBe(before);
      // Beside the cache only what an open cache has (its -wal and -shm): no key, no copy.
      expect(
        readdirSync(dir)
          .filter((n) => !/-(wal|shm)$/.test(n))
          .sort(),
      ).toEqual(['backups', 'demo.sqlite']);
    } finally {
      other.release();
    }
    expect(ok(await here(['--data-dir', dir, 'cache', 'status']))).toMatch(/Encryption at rest: off/);
  }, 120_000);
});

describe('folioscope cache encrypt --passphrase-stdin', () => {
  it('derives the key with scrypt; every run needs the passphrase, a wrong one is said to be wrong, and it is never written anywhere', async () => {
    const dir = await folderWithHistory();
    const g = ['--data-dir', dir];
    const passphrase = 'correct horse battery staple';
    const out = ok(cli([...g, 'cache', 'encrypt', '--passphrase-stdin'], { input: `${passphrase}\n` }));
    expect(out).toMatch(/a key derived from a passphrase \(scrypt, N=131072, r=8, p=1\)/);
    expect(out).toMatch(/FOLIOSCOPE_CACHE_PASSPHRASE/);
    const status = JSON.parse(ok(await here([...g, 'cache', 'status', '--json'])));
    expect(status).toMatchObject({ on: true, keySource: 'passphrase', cipher: 'aegis', kdf: { name: 'scrypt', N: 131072, r: 8, p: 1 }, unfinished: false });

    const none = await here([...g, 'wallet', 'list']);
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/encrypted with a passphrase and none was given: set FOLIOSCOPE_CACHE_PASSPHRASE/);
    const wrong = await here([...g, 'wallet', 'list'], { env: { FOLIOSCOPE_CACHE_PASSPHRASE: 'incorrect horse battery' } });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/the passphrase given is not the one the data folder was encrypted with/);
    expect(wrong.stderr).not.toContain('incorrect horse');
    const right = await here([...g, 'wallet', 'list'], { env: { FOLIOSCOPE_CACHE_PASSPHRASE: passphrase } });
    expect(right.stdout, right.stderr).toMatch(/Treasury/);

    for (const f of filesUnder(dir)) {
      expect(f.bytes.includes(passphrase), f.path).toBe(false);
      expect(f.bytes.includes(WALLET), f.path).toBe(false);
    }
    for (const r of [out, none.stderr, wrong.stderr, right.stdout, right.stderr]) expect(r).not.toContain(passphrase);

    // Asking for the keychain's kind now is refused, saying how to change it.
    const other = await here([...g, 'cache', 'encrypt'], { env: { FOLIOSCOPE_CACHE_PASSPHRASE: passphrase } });
    expect(other.status).toBe(1);
    expect(other.stderr).toMatch(/already encrypted, with a passphrase\. To change that, change its key \(Settings → Encryption, or folioscope cache rekey\)/);

    // `cache rekey` as a process, in one step each way: to a random key in the real keychain (the run's
    // passphrase is the current one), then to a new passphrase from standard input. Never plain between.
    const without = await here([...g, 'cache', 'rekey']);
    expect(without.status).toBe(1);
    expect(without.stderr).toMatch(/encrypted with a passphrase and none was given/);
    const toKeychain = cli([...g, 'cache', 'rekey'], { env: { FOLIOSCOPE_CACHE_PASSPHRASE: passphrase } });
    expect(ok(toKeychain)).toMatch(/Encryption at rest: on \(aegis, a random key in the system keychain .*later runs need no passphrase/s);
    expect(keychainEntry(folderId(dir))).toMatch(/^[0-9a-f]{64}$/);
    expect(ok(cli([...g, 'wallet', 'list']))).toMatch(/Treasury/);
    expect(shell(join(dir, 'demo.sqlite')).status).not.toBe(0);
    const keychainAccount = folderId(dir);
    const next = 'staple battery horse correct';
    const toPassphrase = cli([...g, 'cache', 'rekey', '--passphrase-stdin'], { input: `${next}\n` });
    expect(ok(toPassphrase)).toMatch(/a key derived from a passphrase .*Every later run needs the new passphrase/s);
    // The keychain's entry went with its key; the first passphrase opens nothing, the new one everything.
    expect(keychainEntry(keychainAccount)).toBeNull();
    const old = await here([...g, 'wallet', 'list'], { env: { FOLIOSCOPE_CACHE_PASSPHRASE: passphrase } });
    expect(old.status).toBe(1);
    expect(old.stderr).toMatch(/the passphrase given is not the one the data folder was encrypted with/);
    expect(ok(await here([...g, 'wallet', 'list'], { env: { FOLIOSCOPE_CACHE_PASSPHRASE: next } }))).toMatch(/Treasury/);
    const backups = ok(await here([...g, 'backup', 'list'], { env: { FOLIOSCOPE_CACHE_PASSPHRASE: next } }));
    expect(backups).toMatch(/encrypted/);
    for (const f of filesUnder(dir)) {
      expect(f.bytes.subarray(0, 16).toString('latin1'), f.path).not.toBe('SQLite format 3\0');
      expect(f.bytes.includes(next), f.path).toBe(false);
    }
    for (const r of [toKeychain.stdout, toKeychain.stderr, toPassphrase.stdout, toPassphrase.stderr]) {
      expect(r).not.toContain(passphrase);
      expect(r).not.toContain(next);
    }

    // No bar where standard error is no terminal (a script, a log)…
    for (const r of [toKeychain, toPassphrase]) expect(r.stderr).not.toMatch(/converted/);
    // …and on a terminal, the conversion's count redrawn on one line, from none to all, then wiped.
    const off = await here([...g, 'cache', 'decrypt'], { env: { FOLIOSCOPE_CACHE_PASSPHRASE: next }, tty: true });
    expect(ok(off)).toMatch(/Encryption at rest: off/);
    const lines = off.stderr.split('\r\x1b[2K').filter(Boolean);
    const files = Number(/^░{28} 0\/(\d+) files? converted \(0(\.0)? ([kMG]?B) of [\d.]+ \3\)$/.exec(lines[0] ?? '')?.[1]);
    expect(files, off.stderr).toBeGreaterThanOrEqual(2);
    expect(lines).toHaveLength(files + 1);
    expect(lines.at(-1)).toMatch(new RegExp(`^█{28} ${files}/${files} files converted \\(([\\d.]+ [kMG]?B) of \\1\\)$`));
    expect(off.stderr.endsWith('\r\x1b[2K')).toBe(true);
    expect(shell(join(dir, 'demo.sqlite')).stdout.trim()).toBe('1');
  }, 180_000);
});

describe('the desktop app at start-up, its cache locked', () => {
  it('says the key is missing and offers another folder or quitting (no read-only copy nor new cache can be made without it)', async () => {
    const dataDir = tempDir();
    const keys = new Map<string, string>();
    const keychain: Keychain = { get: async (a) => keys.get(a) ?? null, set: async (a, s) => void keys.set(a, s), delete: async (a) => keys.delete(a) };
    const demo = demoStarter({ now: () => SIM_NOW });
    const core = await createCore({ dataDir, shell: 'electron', baseUrl: null, env: {}, demo, cacheKeychain: keychain });
    await core.request('wallets.add', { address: WALLET, chains: ['eth'] });
    expect((await core.request('cache.encrypt', {})).on).toBe(true);
    expect(await core.request('wallets.list', undefined)).toHaveLength(1);
    await core.close();
    keys.clear();

    const shown: string[] = [];
    const other = tempDir();
    const answers: Array<number | string> = [0, other];
    const dialogs = electronStartupDialogs({
      showMessageBox: async (o) => {
        shown.push(`${o.message}: ${o.detail}`);
        expect(o.buttons).toEqual([...LOCKED_CHOICES]);
        return { response: answers.shift() as number };
      },
      showOpenDialog: async () => ({ canceled: false, filePaths: [answers.shift() as string] }),
    });
    const opened = await openCoreWithChoices({ dataDir, shell: 'electron', baseUrl: null, env: {}, demo, cacheKeychain: keychain }, createCore, dialogs);
    expect(shown[0]).toMatch(/^Folioscope cannot open its encrypted cache: The cache at .*demo\.sqlite is encrypted and cannot be opened: its key is missing/);
    expect((await opened!.request('app.info', undefined)).dataDir).toBe(other);
    await opened!.close();
    expect(readdirSync(dataDir).sort()).toEqual(['demo.sqlite', 'encryption.json']);
  });
});
