import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EchoService, startEchoService } from '../support/echo-service.ts';
import { cliAsync } from '../support/hostile-service.ts';
import { tempDir } from '../support/store.ts';

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
});
