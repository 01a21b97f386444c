import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliSync, useSimProcess } from '../support/cli-process.ts';
import { WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * `folioscope key set --base-url URL` stored the key but left the data folder on demo data:
 * later commands without --base-url read the demo service, saying "Demo data" only in their
 * labels. Now `key set --base-url` makes URL the configured service, and a command that reads
 * demo data while a key is kept for a service (in the keychain, or in FOLIOSCOPE_ACCESS_KEY)
 * says so on stderr, naming the service and how to use it. Run under scripts/with-keyring.sh
 * (a real Secret Service).
 */
const KEY = 'cli-key-base-url-key-7c1e';
const sim = useSimProcess(['--access-key', KEY, '--txns-per-wallet', '50']);
const cli = runCliSync;
const ok = (r: ReturnType<typeof cli>) => {
  expect(r.status, r.stderr).toBe(0);
  return r;
};

afterAll(() => {
  // The keychain is shared by every test of the run: this test's key leaves with it.
  if (sim.url) cli(['--data-dir', tempDir(), '--base-url', sim.url, 'key', 'clear']);
});

describe('key set --base-url, as processes with the real keychain', { timeout: 120_000 }, () => {
  it('makes the URL the configured service: later commands without --base-url use it', () => {
    const dir = tempDir();
    const set = ok(cli(['--data-dir', dir, '--base-url', sim.url, 'key', 'set'], { input: `${KEY}\n` }));
    expect(set.stdout).toMatch(/Key stored in the system keychain/);
    expect(set.stdout).toContain(`${sim.url} is now the configured service`);
    expect(JSON.parse(readFileSync(join(dir, 'app.json'), 'utf8'))).toMatchObject({ baseUrl: sim.url });

    expect(ok(cli(['--data-dir', dir, 'key', 'status'])).stdout).toMatch(/A key is set for .* \(from the keychain\)/);
    const add = ok(cli(['--data-dir', dir, 'wallet', 'add', WALLET, '--chains', 'eth']));
    expect(add.stderr).not.toMatch(/demo/i);
    expect(existsSync(join(dir, 'demo.sqlite'))).toBe(false);
    expect(readdirSync(dir).some((f) => /^live-[0-9a-f]+\.sqlite$/.test(f))).toBe(true);
  });

  it('a URL that answers nothing stores the key unchecked, says so, and does not replace the configured service (exit 3)', async () => {
    const dir = tempDir();
    ok(cli(['--data-dir', dir, '--base-url', sim.url, 'key', 'set'], { input: `${KEY}\n` }));
    // A mistyped port: nothing listens there.
    const dead = 'http://127.0.0.1:9';
    const set = cli(['--data-dir', dir, '--base-url', dead, 'key', 'set'], { input: `${KEY}\n` });
    expect(set.status, set.stdout + set.stderr).toBe(3);
    expect(set.stderr).toMatch(/Not checked: The access key could not be verified/);
    expect(set.stderr).toContain(`${dead} was not made the configured service`);
    expect(set.stdout).not.toContain('is now the configured service');
    expect(JSON.parse(readFileSync(join(dir, 'app.json'), 'utf8'))).toMatchObject({ baseUrl: sim.url });
    expect(set.stdout + set.stderr).not.toContain(KEY);
    cli(['--data-dir', dir, '--base-url', dead, 'key', 'clear']);
  });

  it('a command reading demo data while the keychain holds a key for a service this folder was used with says so on stderr', () => {
    const dir = tempDir();
    ok(cli(['--data-dir', dir, '--base-url', sim.url, 'key', 'set'], { input: `${KEY}\n` }));
    // Back on demo data (as a folder set up before key set made the URL its service).
    rmSync(join(dir, 'app.json'));
    // Another data folder, never used with the service, says nothing of a key the keychain holds for it.
    expect(ok(cli(['--data-dir', tempDir(), 'wallet', 'list'])).stderr).not.toMatch(/demo data/i);
    const list = ok(cli(['--data-dir', dir, 'wallet', 'list']));
    const warning = list.stderr.split('\n').filter((l) => /demo data/i.test(l));
    expect(warning, list.stderr).toHaveLength(1);
    expect(warning[0]).toContain(sim.url);
    expect(warning[0]).toContain('--base-url');
  });

  it('a command reading demo data with FOLIOSCOPE_ACCESS_KEY set says the key is not used', () => {
    const list = ok(cli(['--data-dir', tempDir(), 'wallet', 'list'], { env: { FOLIOSCOPE_ACCESS_KEY: KEY } }));
    expect(list.stderr).toMatch(/FOLIOSCOPE_ACCESS_KEY is set.*demo data.*--base-url URL/i);
    expect(list.stderr).not.toContain(KEY);
  });
});
