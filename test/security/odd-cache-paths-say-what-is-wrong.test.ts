import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';

/**
 * Findings (attack round, issue 26): a FIFO at the cache's path hung every command forever; a
 * cache opened on a full disk was called unwritable and the user told to move it aside and
 * rebuild (it was healthy: SQLite could not make its -wal); `serve` whose web shell could not
 * start printed the error and sat with the cache open. Each now ends, saying what to do.
 */
const WALLET = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const KILL_AFTER_MS = 30_000;

/** The program, killed if it does not end on its own (a hang fails the test rather than the run). */
async function runBounded(args: string[]) {
  const { child, done } = startCli(args);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<null>((r) => (timer = setTimeout(() => (child.kill('SIGKILL'), r(null)), KILL_AFTER_MS)));
  const ran = await Promise.race([done, hung]);
  clearTimeout(timer);
  return ran;
}

let full: string;
beforeAll(() => {
  full = join('/tmp', `folioscope-openfull-${process.pid}-${Date.now()}`);
  mkdirSync(full);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', full]);
});
afterAll(() => {
  execFileSync('umount', ['-l', full]);
  rmSync(full, { recursive: true, force: true });
});

describe('a cache path that is not an ordinary file, or a disk with no room', () => {
  it('a FIFO at the cache path: refused at once, naming it; nothing waits on it', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, 'demo.sqlite')]);
    for (const args of [
      ['wallet', 'list'],
      ['sync', '--no-transactions'],
      ['watch', '--once'],
    ]) {
      const ran = await runBounded(['--data-dir', dir, ...args]);
      expect(ran, `${args.join(' ')} did not end`).not.toBeNull();
      expect(ran!.status).not.toBe(0);
      expect(ran!.stderr).toMatch(/not a regular file/);
    }
  });

  it('a full disk at open: says the disk is full and the cache is as it was, not "move it aside"', { timeout: 60_000 }, async () => {
    const home = tempDir();
    expect((await runCli(['--data-dir', home, 'wallet', 'add', WALLET, '--chains', 'eth'])).status).toBe(0);
    const data = join(full, 'data');
    mkdirSync(data, { mode: 0o700 });
    copyFileSync(join(home, 'demo.sqlite'), join(data, 'demo.sqlite'));
    const before = createHash('sha256')
      .update(readFileSync(join(data, 'demo.sqlite')))
      .digest('hex');
    const fd = openSync(join(full, 'filler'), 'w');
    try {
      for (;;) writeSync(fd, Buffer.alloc(4096));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    } finally {
      closeSync(fd);
    }
    const ran = await runBounded(['--data-dir', data, 'wallet', 'list']);
    expect(ran).not.toBeNull();
    expect(ran!.status).not.toBe(0);
    expect(ran!.stderr).toMatch(/the disk is full/);
    expect(ran!.stderr).not.toMatch(/move it aside/);
    expect(
      createHash('sha256')
        .update(readFileSync(join(data, 'demo.sqlite')))
        .digest('hex'),
    ).toBe(before);
    // Room again: the same cache opens, with its wallet.
    rmSync(join(full, 'filler'));
    const after = await runCli(['--data-dir', data, 'wallet', 'list']);
    expect(after.status, after.stderr).toBe(0);
    expect(after.stdout).toContain(WALLET);
  });

  it('serve whose web shell cannot start (its port is taken) ends with the error instead of sitting with the cache open', { timeout: 60_000 }, async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const ran = await runBounded(['--data-dir', tempDir(), 'serve', '--port', String(port)]);
      expect(ran, 'serve did not end').not.toBeNull();
      expect(ran!.status).not.toBe(0);
      expect(ran!.stderr).toMatch(/EADDRINUSE|in use/i);
    } finally {
      blocker.close();
    }
  });
});
