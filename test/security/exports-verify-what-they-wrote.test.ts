import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { cliAsync } from '../support/hostile-service.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';

/**
 * Finding: a CSV or iCalendar export onto a full disk said "Wrote N rows", exited 0 and left a
 * cut-off file (the stream's error was dropped at end()); an export followed a planted
 * `<out>.partial` link and wrote through it, and took a stale 0644 `.partial`'s mode.
 */
const demo = demoStarter({ now: () => SIM_NOW });

async function realCache(): Promise<string> {
  const dataDir = tempDir();
  const core = await createCore({ dataDir, shell: 'cli', baseUrl: null, env: {}, demo });
  await core.call('wallets.add', { address: WALLET, chains: ['eth', 'arb'], label: 'Treasury' });
  await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date: '2025-06-01' })]);
  await core.close();
  return dataDir;
}

/** A real small disk (tmpfs), filled until `free` bytes are left. */
function smallDisk(): { dir: string; fill: (free: number) => void; unmount: () => void } {
  const dir = join('/tmp', `folioscope-full-${process.pid}-${Date.now()}`);
  mkdirSync(dir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k,mode=0700', 'tmpfs', dir]);
  return {
    dir,
    fill(free) {
      // A reserve of `free` bytes, then everything else taken, then the reserve given back.
      const reserve = join(dir, 'reserve');
      writeFileSync(reserve, Buffer.alloc(free));
      const fd = openSync(join(dir, 'filler'), 'w');
      try {
        for (;;) writeSync(fd, Buffer.alloc(4096));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        closeSync(fd);
      }
      rmSync(reserve);
    },
    unmount: () => {
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('an export onto a full disk fails, saying so, and leaves the previous file untouched', { timeout: 120_000 }, () => {
  let dataDir: string;
  let disk: ReturnType<typeof smallDisk>;
  beforeAll(async () => {
    dataDir = await realCache();
    disk = smallDisk();
  });
  afterAll(() => disk?.unmount());

  for (const [format, extra] of [
    ['csv', ['--report', 'positions', '--date', '2025-06-01']],
    ['ics', ['--date', '2025-06-01']],
    ['pdf', ['--date', '2025-06-01']],
  ] as const) {
    it(`${format}: exit non-zero, "disk is full", no half file under the name or beside it`, async () => {
      // What the export writes on a disk with room, to leave it less than that.
      const roomy = join(tempDir(), `full.${format}`);
      const ok = await cliAsync(['--data-dir', dataDir, 'export', format, ...extra, '--out', roomy]);
      expect(ok.status, ok.stderr).toBe(0);
      // Room for part of it (tmpfs counts whole 4 KiB pages): the old code wrote that part and said "Wrote".
      const free = Math.floor(statSync(roomy).size / 2 / 4096) * 4096;

      for (const f of readdirSync(disk.dir)) rmSync(join(disk.dir, f));
      const out = join(disk.dir, `report.${format}`);
      writeFileSync(out, 'the previous export\n');
      disk.fill(free);
      const r = await cliAsync(['--data-dir', dataDir, 'export', format, ...extra, '--out', out]);
      expect(r.status).not.toBe(0);
      expect(r.stdout).not.toMatch(/Wrote/);
      expect(r.stderr).toMatch(/disk is full.*Free some space/i);
      expect(r.stderr).not.toContain('.partial');
      expect(readFileSync(out, 'utf8')).toBe('the previous export\n');
      expect(readdirSync(disk.dir).sort()).toEqual(['filler', `report.${format}`]);
    });
  }
});

describe('the temporary file is made exclusively, owner-only, never through a link', () => {
  it('a planted <out>.partial link is not followed; a stale 0644 .partial gives the export no mode', async () => {
    const dir = tempDir();
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'not yours\n');
    const out = join(dir, 'report.csv');
    symlinkSync(victim, `${out}.partial`);
    await writeAtomically(out, async (s) => void s.end('a,b\r\n'));
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n');
    expect(readFileSync(out, 'utf8')).toBe('a,b\r\n');
    expect(statSync(out).mode & 0o777).toBe(0o600);

    const out2 = join(dir, 'stale.csv');
    writeFileSync(`${out2}.partial`, 'stale', { mode: 0o644 });
    await writeAtomically(out2, async (s) => void s.end('x\r\n'));
    expect(statSync(out2).mode & 0o777).toBe(0o600);
    expect(readFileSync(out2, 'utf8')).toBe('x\r\n');
  });
});
