import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/store.ts';

/** The CLI's answers to mistakes: the command's usage, warnings that say what to do, the user's own paths. */
const CLI = join(import.meta.dirname, '../../bin/folioscope.mjs');
const ADDRESS = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';

function cli(args: string[]) {
  const env = { ...process.env };
  delete env['FOLIOSCOPE_ACCESS_KEY'];
  delete env['FOLIOSCOPE_BASE_URL'];
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.replace(/.*dbus-daemon.*\n/g, '') };
}

describe('CLI usage and warnings', () => {
  it('answers an unknown option or a missing value with one sentence and the command’s usage', () => {
    const dir = tempDir();
    const unknown = cli(['--data-dir', dir, 'wallet', 'add', ADDRESS, '--chains', 'eth', '--bogus']);
    expect(unknown.status).toBe(2);
    const [first, blank, ...usage] = unknown.stderr.split('\n');
    expect(first).toBe('folioscope: Unknown option --bogus.');
    expect(blank).toBe('');
    expect(usage.join('\n')).toContain('folioscope wallet add ADDRESS --chains C1,C2');
    expect(unknown.stderr).not.toMatch(/positional argument|parseArgs/);
    const missing = cli(['--data-dir', dir, 'wallet', 'add', ADDRESS, '--chains']);
    expect(missing.status).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('folioscope: --chains needs a value.');
    const sync = cli(['--data-dir', dir, 'sync', '--every=week', '--nope']);
    expect(sync.stderr.split('\n')[0]).toBe('folioscope: Unknown option --nope.');
    expect(sync.stderr).toContain('Usage: folioscope sync');
    // Nothing was added by the refused commands.
    expect(cli(['--data-dir', dir, 'wallet', 'list', '--json']).stdout.trim()).toBe('[]');
  });

  it('adds a wallet with an unknown chain, and warns about that chain by name', () => {
    const dir = tempDir();
    const r = cli(['--data-dir', dir, 'wallet', 'add', ADDRESS, '--chains', 'eth,foo']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Watching');
    expect(r.stderr).toMatch(/^folioscope: warning: "foo" is not a chain this app knows \(eth, arb/);
    expect(r.stderr).not.toMatch(/"eth"/);
    const ok = cli(['--data-dir', dir, 'wallet', 'add', '0x00000000219ab540356cbb839cbe05303d7705fa', '--chains', 'eth,arb']);
    expect(ok.stderr).toBe('');
  });

  it('names the user’s path when the output folder is missing, never the temporary file', () => {
    const dir = tempDir();
    expect(cli(['--data-dir', dir, 'wallet', 'add', ADDRESS, '--chains', 'eth']).status).toBe(0);
    const out = join(dir, 'no-such-folder', 'report.csv');
    const r = cli(['--data-dir', dir, 'export', 'csv', '--report', 'history', '--from', '2025-01-01', '--to', '2025-01-31', '--out', out]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(`folioscope: Cannot write ${out}: the folder ${join(dir, 'no-such-folder')} does not exist.`);
    expect(r.stderr).not.toContain('.partial');
  });
});
