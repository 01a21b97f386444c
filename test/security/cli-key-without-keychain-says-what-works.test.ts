import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EchoService, startEchoService } from '../support/echo-service.ts';
import { cliAsync } from '../support/hostile-service.ts';
import { tempDir } from '../support/store.ts';
import { runTs } from '../support/run.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Finding: `key set` in the CLI without a working keychain (no Secret Service) suggested keeping
 * the key "for this session only", which a CLI command cannot do (the session ends with it),
 * did not mention FOLIOSCOPE_ACCESS_KEY, and sent the key to the service before failing.
 */
const KEY = 'cli-nokeychain-key-51ae';
// A session bus that is not there: keytar finds no Secret Service.
const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/folioscope-no-bus' };

let service: EchoService;
beforeAll(async () => {
  service = await startEchoService(47160);
  service.answer = () => ({ status: 200, body: '{"status":"OK","message":"Get Positions (ID: 1) succeed.","data":[]}' });
});
afterAll(() => service.close());

describe('the CLI without a keychain', { timeout: 60_000 }, () => {
  it('key set says what a CLI user can do, and sends the key nowhere', async () => {
    const r = await cliAsync(['--data-dir', tempDir(), '--base-url', service.url, 'key', 'set'], { input: `${KEY}\n`, env: NO_BUS });
    expect(r.status).toBe(1);
    const said = r.stderr.trim();
    expect(said).toMatch(/^folioscope: The system keychain is not available/);
    expect(said).toMatch(/FOLIOSCOPE_ACCESS_KEY/);
    expect(said).toMatch(/FOLIOSCOPE_BASE_URL \(or --base-url\)/);
    expect(said).toMatch(/Secret Service|unlock your keychain/i);
    expect(said).not.toMatch(/session only/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(service.seen).toEqual([]);
  });

  it('key status says the same', async () => {
    const r = await cliAsync(['--data-dir', tempDir(), '--base-url', service.url, 'key', 'status'], { env: NO_BUS });
    expect(r.stdout).toMatch(/No key is set/);
    expect(r.stdout).toMatch(/FOLIOSCOPE_ACCESS_KEY/);
    expect(r.stdout).not.toMatch(/session only/);
  });

  it('cache encrypt says every start needs the cache key, offers a passphrase and never a key "for this session only"; nothing is encrypted (issue 39)', async () => {
    const dir = tempDir();
    const r = await cliAsync(['--data-dir', dir, 'cache', 'encrypt'], { env: NO_BUS });
    expect(r.status).not.toBe(0);
    const said = r.stderr.trim();
    expect(said).toMatch(/^folioscope: The system keychain is not available/);
    expect(said).toMatch(/every start needs it/);
    expect(said).toMatch(/--passphrase-stdin/);
    expect(said).not.toMatch(/session only/);
    expect(said).not.toMatch(/FOLIOSCOPE_ACCESS_KEY/);
    expect(existsSync(join(dir, 'encryption.json'))).toBe(false);
  });
});

describe('the app and the web shell without a keychain', { timeout: 60_000 }, () => {
  it('Settings is told the keychain is missing (it offers a passphrase); Encrypt without one says the same as the CLI, never "session only"', () => {
    const dir = tempDir();
    const r = runTs('support/encrypt-child.ts', [dir], NO_BUS);
    const out = JSON.parse(r.stdout) as { error?: string; keychainAvailable?: boolean };
    expect(out.keychainAvailable).toBe(false);
    expect(out.error).toMatch(/^The system keychain is not available .*every start needs it.*Settings → Encryption.*passphrase/);
    expect(out.error).not.toMatch(/session only/);
    expect(existsSync(join(dir, 'encryption.json'))).toBe(false);
  });
});
