import { describe, expect, it } from 'vitest';
import { runCliHere } from '../support/cli-in-process.ts';
import { type Ran, runCliSync } from '../support/cli-process.ts';
import { WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * A backup's name, as `backup create` printed it, still names it after `cache encrypt` and
 * `cache decrypt` converted it into a copy named after it (`…-encrypted.sqlite`, `…-plain.sqlite`):
 * before, a verify or restore by the name the user had noted said there was no such backup. The
 * commands run in this process (runCliHere, the entry the process runs) but the encrypt, whose
 * passphrase is read from a real standard input.
 */
const PASSPHRASE = 'correct horse battery staple';
const ok = (r: Ran) => {
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
};

describe('a backup restored by its name after encrypt and decrypt', () => {
  it('the name printed when it was made restores it, encrypted and decrypted again', { timeout: 180_000 }, async () => {
    const dir = tempDir();
    const g = ['--data-dir', dir];
    const env = { FOLIOSCOPE_CACHE_PASSPHRASE: PASSPHRASE };
    ok(await runCliHere([...g, 'wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Treasury']));
    const made = ok(await runCliHere([...g, 'backup', 'create']));
    const name = /^Backup (\S+\.sqlite) made/.exec(made)?.[1];
    expect(name, made).toBeDefined();

    ok(runCliSync([...g, 'cache', 'encrypt', '--passphrase-stdin'], { input: `${PASSPHRASE}\n` }));
    expect(ok(await runCliHere([...g, 'backup', 'list'], { env }))).toContain(name!.replace(/\.sqlite$/, '-encrypted.sqlite'));
    const verified = await runCliHere([...g, 'backup', 'verify', name!], { env });
    expect(verified.status, verified.stderr).toBe(0);
    const restored = await runCliHere([...g, 'backup', 'restore', name!], { env });
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stderr).not.toMatch(/no backup/i);

    ok(await runCliHere([...g, 'cache', 'decrypt'], { env }));
    expect(ok(await runCliHere([...g, 'backup', 'list']))).toContain(name!.replace(/\.sqlite$/, '-plain.sqlite'));
    const again = await runCliHere([...g, 'backup', 'restore', name!]);
    expect(again.status, again.stderr).toBe(0);
    expect(ok(await runCliHere([...g, 'wallet', 'list']))).toContain('Treasury');
  });
});
