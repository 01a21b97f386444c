import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemKeychain } from '../../src/main/core/secrets/keychain.ts';
import { ENV_KEY, Secrets } from '../../src/main/core/secrets/secrets.ts';
import { runTs } from '../support/run.ts';

/**
 * Against a real Secret Service: npm test runs the suite inside a private D-Bus session
 * with gnome-keyring unlocked (scripts/with-keyring.sh).
 */
const child = (...args: string[]) => {
  const r = runTs('support/keychain-child.ts', args);
  return JSON.parse(r.stdout || 'null');
};

describe('the access key in the OS keychain (gnome-keyring)', () => {
  it('is the real Secret Service', () => {
    expect(process.env['DBUS_SESSION_BUS_ADDRESS']).toBeTruthy();
  });

  it('set, read back in a new process, then cleared', () => {
    const base = `https://svc-${randomBytes(4).toString('hex')}.example/api`;
    const key = `k-${randomBytes(12).toString('hex')}`;
    expect(child('set', base, key)).toMatchObject({ set: true, source: 'keychain', keychainAvailable: true });
    expect(child('get', base)).toBe(key);
    expect(child('status', base)).toMatchObject({ set: true, source: 'keychain' });
    expect(child('clear', base)).toMatchObject({ set: false, source: 'none' });
    expect(child('get', base)).toBeNull();
  });

  it('keeps one entry per base URL', async () => {
    const secrets = new Secrets(systemKeychain(), {});
    const a = `https://a-${randomBytes(4).toString('hex')}.example`;
    const b = `https://b-${randomBytes(4).toString('hex')}.example`;
    await secrets.set(a, 'key-a-0123456789');
    await secrets.set(b, 'key-b-0123456789');
    expect(await secrets.get(a)).toBe('key-a-0123456789');
    expect(await secrets.get(b)).toBe('key-b-0123456789');
    await secrets.clear(a);
    expect(await secrets.get(a)).toBeNull();
    expect(await secrets.get(b)).toBe('key-b-0123456789');
    await secrets.clear(b);
  });

  it('FOLIOSCOPE_ACCESS_KEY overrides the keychain, for the service named with it only', async () => {
    const base = `https://env-${randomBytes(4).toString('hex')}.example`;
    const secrets = new Secrets(systemKeychain(), { [ENV_KEY]: 'from-env-0123456789', FOLIOSCOPE_BASE_URL: base });
    expect(await secrets.get(base)).toBe('from-env-0123456789');
    expect(await secrets.status(base)).toMatchObject({ set: true, source: 'environment' });
    const other = `https://other-${randomBytes(4).toString('hex')}.example`;
    expect(await secrets.get(other)).toBeNull();
    expect(await secrets.status(other)).toMatchObject({ set: false });
  });

  it('rejects an empty key or one with spaces, storing nothing', async () => {
    const secrets = new Secrets(systemKeychain(), {});
    const base = `https://bad-${randomBytes(4).toString('hex')}.example`;
    await expect(secrets.set(base, '   ')).rejects.toThrow('empty');
    await expect(secrets.set(base, 'two words')).rejects.toThrow('spaces');
    expect(await secrets.status(base)).toMatchObject({ set: false });
  });
});

describe('without a Secret Service', () => {
  const noBus = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/folioscope-no-bus' };

  it('says what to install or unlock, and can keep the key for the session only', () => {
    const base = `https://nobus-${randomBytes(4).toString('hex')}.example`;
    const status = JSON.parse(runTs('support/keychain-child.ts', ['status', base], noBus).stdout);
    expect(status).toMatchObject({ set: false, keychainAvailable: false });
    expect(status.keychainProblem).toMatch(/keychain is not available.*gnome-keyring.*session only/s);
    const stored = JSON.parse(runTs('support/keychain-child.ts', ['set', base, 'k-0123456789ab'], noBus).stdout);
    expect(stored.error).toMatch(/keychain is not available/);
    const session = JSON.parse(runTs('support/keychain-child.ts', ['session-set', base, 'session-key-123'], noBus).stdout);
    expect(session).toMatchObject({ status: { set: true, source: 'session' }, key: 'session-key-123' });
  });

  it('never writes a session key to disk', () => {
    const base = `https://nodisk-${randomBytes(4).toString('hex')}.example`;
    const secret = `never-on-disk-${randomBytes(8).toString('hex')}`;
    runTs('support/keychain-child.ts', ['session-set', base, secret], noBus);
    const home = process.env['HOME']!;
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        const st = statSync(p);
        if (st.isDirectory()) walk(p);
        else if (st.size < 5_000_000) files.push(p);
      }
    };
    walk(home);
    for (const f of files) expect(readFileSync(f, 'latin1').includes(secret), f).toBe(false);
  });
});
