import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core/app.ts';
import { KeychainUnavailableError, type Keychain } from '../../src/main/core/secrets/keychain.ts';
import { CacheProblemError } from '../../src/main/core/store/db.ts';
import type { DataChanged, Envelope } from '../../src/shared/contract.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * `cache.locked` and `cache.unlock` (issue 39, item 11): a data folder encrypted with a
 * passphrase, started by the app or the web shell without FOLIOSCOPE_CACHE_PASSPHRASE, waits for
 * it rather than stop; everything else is refused until it is given; a wrong one changes nothing;
 * the passphrase appears in no answer and no file. The CLI still stops, saying what to set.
 */
const PASSPHRASE = 'plover-quartz-73-tundra';
const keys = new Map<string, string>();
const keychain: Keychain = { get: async (a) => keys.get(a) ?? null, set: async (a, s) => void keys.set(a, s), delete: async (a) => keys.delete(a) };
const demo = demoStarter({ now: () => SIM_NOW });
const start = (dataDir: string, shell: 'web' | 'electron' | 'cli' = 'web', env: Record<string, string> = {}) =>
  createCore({ dataDir, shell, baseUrl: null, env, demo, cacheKeychain: keychain, scheduleEveryMs: 0, now: () => SIM_NOW });

/** A folder with one watched wallet, encrypted with PASSPHRASE through the contract, closed. */
async function encryptedFolder(): Promise<string> {
  const dir = tempDir();
  const core = await start(dir);
  await core.request('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
  const status = await core.request('cache.encrypt', { passphrase: PASSPHRASE });
  expect(status).toMatchObject({ on: true, keySource: 'passphrase', unfinished: false });
  await core.close();
  return dir;
}

/** Every file of the folder, by name, with a hash of its bytes; and whether any holds the passphrase. */
function folder(dir: string): { hashes: Record<string, string>; holdsPassphrase: string[] } {
  const hashes: Record<string, string> = {};
  const holdsPassphrase: string[] = [];
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    const bytes = readFileSync(path);
    hashes[name] = createHash('sha256').update(bytes).digest('hex');
    if (bytes.includes(PASSPHRASE) || bytes.includes(Buffer.from(PASSPHRASE, 'utf16le'))) holdsPassphrase.push(name);
  }
  return { hashes, holdsPassphrase };
}

describe('a folder encrypted with a passphrase, started without it', () => {
  it('waits for it: only cache.locked and cache.unlock answer; a wrong one changes nothing; the right one opens the cache and its events', async () => {
    const dir = await encryptedFolder();
    const core: Core = await start(dir);
    const answers: Array<Envelope<unknown>> = [];
    const ask = async (op: string, input: unknown) => {
      const r = await core.dispatch(op, input);
      answers.push(r);
      return r;
    };
    const changes: DataChanged[] = [];
    // Subscribed while locked, as the shells do at start: heard once it opens.
    core.on('data.changed', (c) => changes.push(c));

    expect(await ask('cache.locked', undefined)).toEqual({ ok: true, result: { locked: true, dataDir: dir, changing: false } });
    for (const op of ['app.info', 'wallets.list', 'cache.encryption']) {
      expect(await ask(op, undefined)).toMatchObject({
        ok: false,
        error: { kind: 'locked', message: expect.stringMatching(/encrypted with a passphrase: unlock it first/) },
      });
    }
    const before = folder(dir);

    const wrong = await ask('cache.unlock', { passphrase: 'not-the-passphrase' });
    expect(wrong).toEqual({
      ok: false,
      error: {
        kind: 'validation',
        field: 'passphrase',
        retryable: false,
        message: expect.stringMatching(/^That is not the passphrase .* Nothing was changed/),
        // Its code, for a screen in another language (shared/core-codes.ts).
        said: { code: 'cache.wrongPassphrase', values: {} },
      },
    });
    expect(JSON.stringify(wrong)).not.toContain('not-the-passphrase');
    expect(await ask('cache.unlock', {})).toMatchObject({ ok: false, error: { kind: 'validation', field: 'passphrase' } });
    expect(await ask('cache.locked', undefined)).toMatchObject({ ok: true, result: { locked: true } });
    expect(folder(dir).hashes).toEqual(before.hashes);

    // Two tabs at once: one opening, the other answered by the cache it opened.
    const [a, b] = await Promise.all([ask('cache.unlock', { passphrase: PASSPHRASE }), ask('cache.unlock', { passphrase: PASSPHRASE })]);
    expect(a).toEqual({ ok: true, result: { locked: false, dataDir: dir } });
    expect(b).toEqual({ ok: true, result: { locked: false, dataDir: dir } });
    expect(await ask('cache.locked', undefined)).toEqual({ ok: true, result: { locked: false, dataDir: dir } });
    expect((await core.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury']);
    expect((await core.request('cache.encryption', {})).keySource).toBe('passphrase');

    await core.request('wallets.add', { address: '0x00000000219ab540356cbb839cbe05303d7705fa', chains: ['eth'] });
    expect(changes.some((c) => c.scope === 'wallets')).toBe(true);
    await core.close();

    // Never in an answer, never in a file of the folder (cache, WAL, encryption.json, backups).
    for (const r of answers) expect(JSON.stringify(r)).not.toContain(PASSPHRASE);
    expect(folder(dir).holdsPassphrase).toEqual([]);
  }, 60_000);

  it('opens at once with FOLIOSCOPE_CACHE_PASSPHRASE; the CLI, which has no screen, stops saying to set it', async () => {
    const dir = await encryptedFolder();
    const withEnv = await start(dir, 'electron', { FOLIOSCOPE_CACHE_PASSPHRASE: PASSPHRASE });
    expect(await withEnv.request('cache.locked', undefined)).toMatchObject({ locked: false });
    expect(await withEnv.request('wallets.list', undefined)).toHaveLength(1);
    await withEnv.close();

    const cli = start(dir, 'cli');
    await expect(cli).rejects.toBeInstanceOf(CacheProblemError);
    await expect(cli).rejects.toThrow(/encrypted with a passphrase and none was given: set FOLIOSCOPE_CACHE_PASSPHRASE/);
  }, 60_000);

  it('a core closed while it waits closes nothing more', async () => {
    const dir = await encryptedFolder();
    const core = await start(dir, 'electron');
    await core.close();
    expect(await core.dispatch('cache.unlock', { passphrase: PASSPHRASE })).toMatchObject({ ok: false, error: { kind: 'locked' } });
  }, 60_000);
});

describe('Settings → Encryption without a keychain', () => {
  it('is told so (and then offers a passphrase), and a passphrase encrypts all the same', async () => {
    const none: Keychain = {
      get: async () => {
        throw new KeychainUnavailableError('no Secret Service', { holds: 'cache-key' });
      },
      set: async () => {
        throw new KeychainUnavailableError('no Secret Service', { holds: 'cache-key' });
      },
      delete: async () => false,
    };
    const dir = tempDir();
    const core = await createCore({ dataDir: dir, shell: 'web', baseUrl: null, env: {}, demo, cacheKeychain: none, scheduleEveryMs: 0 });
    expect((await core.request('cache.encryption', {})).keychainAvailable).toBe(false);
    const refused = await core.dispatch('cache.encrypt', {});
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/passphrase/) } });
    expect(JSON.stringify(refused)).not.toMatch(/session only/);
    expect(await core.request('cache.encrypt', { passphrase: PASSPHRASE })).toMatchObject({ on: true, keySource: 'passphrase' });
    await core.close();
  }, 60_000);
});
