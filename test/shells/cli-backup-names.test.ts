import { describe, expect, it } from 'vitest';
import { runCliSync } from '../support/cli-process.ts';
import { WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * A backup's name, as `backup create` printed it, still names it after `cache encrypt` and
 * `cache decrypt` converted it into a copy named after it (`…-encrypted.sqlite`, `…-plain.sqlite`):
 * before, a verify or restore by the name the user had noted said there was no such backup.
 */
const PASSPHRASE = 'correct horse battery staple';
const ok = (r: ReturnType<typeof runCliSync>) => {
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
};

describe('a backup restored by its name after encrypt and decrypt, as a process', () => {
  it('the name printed when it was made restores it, encrypted and decrypted again', { timeout: 180_000 }, () => {
    const dir = tempDir();
    const g = ['--data-dir', dir];
    const env = { FOLIOSCOPE_CACHE_PASSPHRASE: PASSPHRASE };
    ok(runCliSync([...g, 'wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Treasury']));
    const made = ok(runCliSync([...g, 'backup', 'create']));
    const name = /^Backup (\S+\.sqlite) made/.exec(made)?.[1];
    expect(name, made).toBeDefined();

    ok(runCliSync([...g, 'cache', 'encrypt', '--passphrase-stdin'], { input: `${PASSPHRASE}\n` }));
    expect(ok(runCliSync([...g, 'backup', 'list'], { env }))).toContain(name!.replace(/\.sqlite$/, '-encrypted.sqlite'));
    const verified = runCliSync([...g, 'backup', 'verify', name!], { env });
    expect(verified.status, verified.stderr).toBe(0);
    const restored = runCliSync([...g, 'backup', 'restore', name!], { env });
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stderr).not.toMatch(/no backup/i);

    ok(runCliSync([...g, 'cache', 'decrypt'], { env }));
    expect(ok(runCliSync([...g, 'backup', 'list']))).toContain(name!.replace(/\.sqlite$/, '-plain.sqlite'));
    const again = runCliSync([...g, 'backup', 'restore', name!]);
    expect(again.status, again.stderr).toBe(0);
    expect(ok(runCliSync([...g, 'wallet', 'list']))).toContain('Treasury');
  });
});
