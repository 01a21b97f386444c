import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { folderKey, readEncryptionConfig } from '../../src/main/core/secrets/cache-key.ts';
import type { Keychain } from '../../src/main/core/secrets/keychain.ts';
import { isEncryptedFile } from '../../src/main/core/store/cache-conversion.ts';
import { openConnection } from '../../src/main/core/store/driver.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * A folder encrypted with a passphrase, turned off again (issue 39, item 11): Settings asks for
 * the passphrase once more, and the core checks it before it closes anything. Missing or wrong,
 * it is refused on the field `passphrase`, in words a screen can say in either language, and
 * the folder, its cache and its key stay exactly as they were; the right one leaves every file
 * plain, and the next start asks for nothing. Real SQLite (SQLite3MC), the core as the shells use it.
 * The passphrase is then looked for inside the cache itself, opened with its key (no table, the
 * audit trail among them, holds it), in the audit trail and the data file as the app gives them,
 * in every refusal, and in every file of the folder once it is plain (cache, backup, data file).
 */
const PASSPHRASE = 'kestrel-marble-58-orchard';
const keys = new Map<string, string>();
const keychain: Keychain = { get: async (a) => keys.get(a) ?? null, set: async (a, s) => void keys.set(a, s), delete: async (a) => keys.delete(a) };
const demo = demoStarter({ now: () => SIM_NOW });
const start = (dataDir: string, env: Record<string, string> = {}) =>
  createCore({ dataDir, shell: 'web', baseUrl: null, env, demo, cacheKeychain: keychain, scheduleEveryMs: 0, now: () => SIM_NOW });

const hashes = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((n) => statSync(join(dir, n)).isFile())
      .map((n) => [
        n,
        createHash('sha256')
          .update(readFileSync(join(dir, n)))
          .digest('hex'),
      ]),
  );

/** Every text and blob of every table of the cache, opened with the folder's key: what a thief with the key would read. */
async function everyValue(dir: string, passphrase: string): Promise<{ tables: string[]; text: string }> {
  const file = join(dir, 'demo.sqlite');
  const key = await folderKey(readEncryptionConfig(dir, file)!, { keychain, passphrase }, file);
  const db = openConnection(file, { readonly: true, fileMustExist: true }, key);
  try {
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{ name: string }>).map((t) => t.name);
    const text = tables
      .map((t) =>
        (
          db
            .prepare(`SELECT * FROM "${t.replaceAll('"', '""')}"`)
            .raw()
            .all() as unknown[][]
        )
          .flat()
          .map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v)))
          .join('\u0000'),
      )
      .join('\u0000');
    return { tables, text };
  } finally {
    db.close();
  }
}

describe('turning off a folder encrypted with a passphrase', () => {
  it('needs the passphrase: missing or wrong is refused and changes nothing; the right one leaves every file plain and the next start asks nothing', async () => {
    const dir = tempDir();
    const first = await start(dir);
    await first.request('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
    expect(await first.request('cache.encrypt', { passphrase: PASSPHRASE })).toMatchObject({ on: true, keySource: 'passphrase', unfinished: false });
    // An edit after the encryption: the audit trail records it in the encrypted cache.
    await first.request('wallets.update', { address: WALLET, label: 'Treasury main' });
    await first.close();
    expect(isEncryptedFile(join(dir, 'demo.sqlite'))).toBe(true);

    // The passphrase reached no table of the cache (settings, audit trail, jobs, anything).
    const inside = await everyValue(dir, PASSPHRASE);
    expect(inside.tables).toContain('audit_log');
    expect(inside.text).toContain('Treasury main');
    expect(inside.text).not.toContain(PASSPHRASE);

    // The encrypted cache opened with its passphrase: the wallet and its new label are there.
    const core = await start(dir, { FOLIOSCOPE_CACHE_PASSPHRASE: PASSPHRASE });
    expect((await core.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury main']);
    // The audit trail as a screen reads it, and the user's data file as exported: neither holds it.
    const trail = await core.request('audit.list', {});
    expect(JSON.stringify(trail)).toContain('Treasury main');
    expect(JSON.stringify(trail)).not.toContain(PASSPHRASE);
    const [exported] = await waitForJobs(core, [(await core.request('userData.export', {}))!]);
    expect(JSON.stringify(exported)).not.toContain(PASSPHRASE);
    await core.request('backups.create', undefined);
    const before = hashes(dir);

    const missing = await core.dispatch('cache.decrypt', {});
    expect(missing).toMatchObject({
      ok: false,
      error: {
        kind: 'validation',
        field: 'passphrase',
        message: expect.stringMatching(/encrypted with a passphrase: type it to turn encryption off\. Nothing was changed\./),
        said: { code: 'encryption.passphraseNeeded', values: {} },
      },
    });
    const wrong = await core.dispatch('cache.decrypt', { passphrase: 'kestrel-marble-58-orchards' });
    expect(wrong).toMatchObject({
      ok: false,
      error: { kind: 'validation', field: 'passphrase', said: { code: 'cache.wrongPassphrase', values: {} } },
    });
    expect(JSON.stringify(wrong)).not.toContain('kestrel');
    // Refused before the cache was closed: it answers, on, with the same files byte for byte.
    expect(await core.request('cache.encryption', {})).toMatchObject({ on: true, keySource: 'passphrase', unfinished: false });
    expect((await core.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury main']);
    expect(hashes(dir)).toEqual(before);

    const off = await core.dispatch('cache.decrypt', { passphrase: PASSPHRASE });
    expect(off).toMatchObject({ ok: true, result: { on: false, keySource: null, unfinished: false } });
    expect(JSON.stringify(off)).not.toContain(PASSPHRASE);
    expect(isEncryptedFile(join(dir, 'demo.sqlite'))).toBe(false);
    expect(readdirSync(dir)).not.toContain('encryption.json');
    expect((await core.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury main']);
    await core.close();
    // Every file of the folder plain now (the cache and its WAL, backups, the data file exported): none holds it.
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => statSync(join(dir, n)).isFile());
    expect(files.filter((n) => n.startsWith('downloads/')).length).toBe(1);
    expect(files.filter((n) => n.startsWith('backups/') && n.endsWith('.sqlite')).length).toBe(1);
    for (const n of files) {
      const bytes = readFileSync(join(dir, n));
      expect(bytes.includes(PASSPHRASE) || bytes.includes(Buffer.from(PASSPHRASE, 'utf16le')), n).toBe(false);
    }

    // Started again without a passphrase: nothing to unlock, the data there.
    const again = await start(dir);
    expect(await again.request('cache.locked', undefined)).toMatchObject({ locked: false });
    expect((await again.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury main']);
    await again.close();
  }, 60_000);

  it('a folder with a keychain key is turned off without a passphrase, as before', async () => {
    const dir = tempDir();
    const core = await start(dir);
    await core.request('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
    expect(await core.request('cache.encrypt', {})).toMatchObject({ on: true, keySource: 'keychain' });
    expect(keys.size).toBe(1);
    expect(await core.request('cache.decrypt', {})).toMatchObject({ on: false });
    expect(keys.size).toBe(0);
    await core.close();
  }, 60_000);
});
