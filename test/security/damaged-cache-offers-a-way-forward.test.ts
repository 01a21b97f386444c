import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type CoreOptions } from '../../src/main/core/app.ts';
import { CacheProblemError } from '../../src/main/core/store/db.ts';
import { CHOICES, electronStartupDialogs, openCoreWithChoices } from '../../src/main/electron/startup-choice.ts';
import { cliAsync } from '../support/hostile-service.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';

/**
 * Finding: a corrupt, truncated, foreign or unwritable cache gave "database disk image is
 * malformed", "file is not a database" or "unable to open database file", with no path and
 * no way forward; the desktop app quit at start-up; viewing and exporting from a read-only
 * folder was impossible.
 */
const demo = demoStarter({ now: () => SIM_NOW });
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

/** A real cache with a watched wallet and a day of positions, closed (WAL checkpointed). */
async function realCache(dataDir = tempDir()): Promise<{ dataDir: string; file: string }> {
  const core = await createCore({ dataDir, shell: 'cli', baseUrl: null, env: {}, demo });
  await core.call('wallets.add', { address: WALLET, chains: ['eth', 'arb'], label: 'Treasury' });
  await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date: '2025-06-01' })]);
  await core.close();
  return { dataDir, file: join(dataDir, 'demo.sqlite') };
}

const damage = {
  /** Garbage over the first page's content (the schema), the header kept. */
  corrupt(file: string) {
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(3000, 0xa5), 0, 3000, 100);
    closeSync(fd);
  },
  truncated(file: string) {
    // The last pages cut off, as an interrupted copy or a full disk leaves it.
    truncateSync(file, statSync(file).size - 4 * 4096);
  },
  foreignFile(file: string) {
    writeFileSync(file, 'these are my holiday notes, not a database\n'.repeat(200));
  },
  foreignDatabase(file: string) {
    for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) writeFileSync(f, '');
    const db = new BetterSqlite3(file);
    db.exec("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT); INSERT INTO photos (path) VALUES ('a.jpg')");
    db.close();
  },
};

async function expectProblem(o: CoreOptions, file: string, problem: string) {
  const err = await createCore(o).then(
    async (c) => (await c.close(), null),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CacheProblemError);
  const e = err as CacheProblemError;
  expect(e.problem).toBe(problem);
  expect(e.path).toBe(file);
  expect(e.message).toContain(file);
  expect(e.message).toMatch(/open it read-only .*move it aside .*another data folder/);
  return e;
}

describe('a damaged cache names its path and the ways forward; nothing is changed', () => {
  for (const [kind, problem] of [
    ['corrupt', 'damaged'],
    ['truncated', 'damaged'],
    ['foreignFile', 'not-a-cache'],
    ['foreignDatabase', 'not-a-cache'],
  ] as const) {
    it(`${kind}: a CacheProblemError (${problem}) with the path, and the file untouched`, async () => {
      const { dataDir, file } = await realCache();
      damage[kind](file);
      const before = sha(file);
      await expectProblem({ dataDir, shell: 'cli', baseUrl: null, env: {}, demo }, file, problem);
      expect(sha(file)).toBe(before);
      if (kind === 'foreignDatabase') {
        const db = new BetterSqlite3(file, { readonly: true });
        expect(db.prepare('SELECT name FROM sqlite_master').all()).toEqual([{ name: 'photos' }]);
        db.close();
      }
    });
  }

  it('truncated: read-only shows what it still holds; writes are refused, saying why', async () => {
    const { dataDir, file } = await realCache();
    damage.truncated(file);
    const before = sha(file);
    const core = await createCore({ dataDir, shell: 'cli', baseUrl: null, env: {}, demo, readOnlyCache: true });
    try {
      expect((await core.call('app.info', undefined)).cacheReadOnly).toBe(true);
      expect(await core.call('wallets.list', undefined)).toMatchObject([{ address: WALLET, label: 'Treasury' }]);
      const w = await core.dispatch('wallets.add', { address: '0x00000000219ab540356cbb839cbe05303d7705fa', chains: ['eth'] });
      expect(w).toMatchObject({ ok: false, error: { field: 'cache' } });
      expect(w.ok || w.error.message).toMatch(/open read-only/);
      expect(await core.dispatch('sync.all', {})).toMatchObject({ ok: false, error: { field: 'cache' } });
    } finally {
      await core.close();
    }
    expect(sha(file)).toBe(before);
  });
});

describe('damage found while running', () => {
  it('a damaged data page is reported as a damaged cache with the way forward, not a bare SQLite code', async () => {
    const { dataDir, file } = await realCache();
    // Garbage over every page of the snapshots table: the schema still reads, the rows do not.
    const probe = new BetterSqlite3(file, { readonly: true });
    const pages = (probe.prepare("SELECT pageno FROM dbstat WHERE name = 'snapshots'").all() as Array<{ pageno: number }>).map((p) => p.pageno);
    // A cache's page size depends on the version that made it (16 KiB since issue 16).
    const size = probe.pragma('page_size', { simple: true }) as number;
    probe.close();
    expect(pages.length).toBeGreaterThan(0);
    // Damaged after start-up (the open checks the file): a write by another connection makes
    // the app's connection drop the pages it holds and read the damaged ones.
    const core = await createCore({ dataDir, shell: 'cli', baseUrl: null, env: {}, demo });
    try {
      const fd = openSync(file, 'r+');
      for (const p of pages) writeSync(fd, Buffer.alloc(size, 0x5a), 0, size, (p - 1) * size);
      closeSync(fd);
      const other = new BetterSqlite3(file);
      other.exec("INSERT INTO settings (key, value) VALUES ('probe', '1'); DELETE FROM settings WHERE key = 'probe'");
      other.close();
      const r = await core.dispatch('positions.get', { wallet: WALLET, date: '2025-06-01', view: 'all' });
      expect(r).toMatchObject({ ok: false, error: { kind: 'storage' } });
      expect(r.ok || r.error.message).toMatch(/The local cache is damaged .*open the cache read-only, move it aside and rebuild/);
    } finally {
      await core.close();
    }
    // The next start checks it, whatever its size, and offers the ways forward.
    expect(existsSync(`${file}-needs-check`)).toBe(true);
    await expectProblem({ dataDir, shell: 'cli', baseUrl: null, env: {}, demo }, file, 'damaged');
  });

  it('a damaged page in the middle of the cache is refused at start-up, before anything is written into it', async () => {
    const { dataDir, file } = await realCache();
    const probe = new BetterSqlite3(file, { readonly: true });
    const size = probe.pragma('page_size', { simple: true }) as number;
    const count = probe.pragma('page_count', { simple: true }) as number;
    probe.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(size, 0x5a), 0, size, Math.floor(count / 2) * size);
    closeSync(fd);
    const before = sha(file);
    const e = await expectProblem({ dataDir, shell: 'cli', baseUrl: null, env: {}, demo }, file, 'damaged');
    expect(e.detail).toMatch(/quick_check/);
    expect(sha(file)).toBe(before);
  });
});

describe('the CLI: the message with its choices, and move-aside with consent', { timeout: 120_000 }, () => {
  it('corrupt: exit 1 with path and choices; cache move-aside keeps the file and starts anew', async () => {
    const { dataDir, file } = await realCache();
    damage.corrupt(file);
    const before = sha(file);
    const r = await cliAsync(['--data-dir', dataDir, 'wallet', 'list']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(/--read-only/);
    expect(r.stderr).toMatch(/cache move-aside/);
    expect(r.stderr).toMatch(/--data-dir DIR/);
    const moved = await cliAsync(['--data-dir', dataDir, 'cache', 'move-aside']);
    expect(moved.status, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/nothing deleted/);
    const aside = readdirSync(dataDir).find((f) => f.startsWith('demo.sqlite.damaged-') && !f.endsWith('-wal') && !f.endsWith('-shm'))!;
    expect(sha(join(dataDir, aside))).toBe(before);
    const list = await cliAsync(['--data-dir', dataDir, 'wallet', 'list']);
    expect(list.status, list.stderr).toBe(0);
  });

  it('truncated: move-aside recovers the watched wallets from the old file', async () => {
    const { dataDir, file } = await realCache();
    damage.truncated(file);
    const moved = await cliAsync(['--data-dir', dataDir, 'cache', 'move-aside']);
    expect(moved.status, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/1 wallet recovered/);
    expect((await cliAsync(['--data-dir', dataDir, 'wallet', 'list'])).stdout).toContain('Treasury');
  });
});

/** A folder the app cannot write: a read-only mount (as root) or a mode without write (others). */
function makeUnwritable(dir: string): (() => void) | null {
  if (process.getuid?.() === 0) {
    const ro = join(tempDir(), 'ro');
    mkdirSync(ro);
    try {
      execFileSync('mount', ['-t', 'tmpfs', 'tmpfs', ro], { stdio: 'ignore' });
    } catch {
      return null;
    }
    execFileSync('cp', ['-a', `${dir}/.`, ro]);
    execFileSync('mount', ['-o', 'remount,ro', ro]);
    execFileSync('rm', ['-rf', dir]);
    execFileSync('ln', ['-s', ro, dir]);
    return () => execFileSync('umount', ['-l', ro]);
  }
  chmodSync(dir, 0o500);
  return () => chmodSync(dir, 0o700);
}

describe('an unwritable cache folder', { timeout: 120_000 }, () => {
  let undo: (() => void) | null = null;
  afterEach(() => {
    undo?.();
    undo = null;
  });

  it('names the problem; read-only views and exports work; the CLI exports with --read-only', async (ctx) => {
    const { dataDir, file } = await realCache();
    undo = makeUnwritable(dataDir);
    if (!undo) return ctx.skip();
    const before = sha(file);
    await expectProblem({ dataDir, shell: 'cli', baseUrl: null, env: {}, demo }, file, 'unwritable');
    const core = await createCore({ dataDir, shell: 'cli', baseUrl: null, env: {}, demo, readOnlyCache: true });
    try {
      const p = await core.call('positions.get', { wallet: WALLET, date: '2025-06-01', view: 'all' });
      expect(p.chains.every((c) => c.snapshot !== null)).toBe(true);
    } finally {
      await core.close();
    }
    const out = join(tempDir(), 'positions.csv');
    const r = await cliAsync(['--data-dir', dataDir, '--read-only', 'export', 'csv', '--report', 'positions', '--date', '2025-06-01', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8').split('\r\n').length).toBeGreaterThan(3);
    expect(sha(file)).toBe(before);
  });
});

describe('the desktop app offers the same choices at start-up instead of quitting', () => {
  /** Electron's dialog, as the app calls it, answering as a user would. */
  function scriptedDialog(answers: Array<number | string | null>) {
    const shown: string[] = [];
    const dialog = {
      showMessageBox: async (o: { message: string; detail: string; buttons: string[] }) => {
        shown.push(`${o.message}: ${o.detail}`);
        if (o.buttons.length === 1) return { response: 0 };
        expect(o.buttons).toEqual([...CHOICES]);
        return { response: answers.shift() as number };
      },
      showOpenDialog: async () => {
        const dir = answers.shift() as string | null;
        return { canceled: dir === null, filePaths: dir ? [dir] : [] };
      },
    };
    return { dialogs: electronStartupDialogs(dialog), shown };
  }

  it('corrupt: read-only fails and says so, then "move aside" starts a new cache', async () => {
    const { dataDir, file } = await realCache();
    damage.corrupt(file);
    const { dialogs, shown } = scriptedDialog([0, 1]);
    const core = await openCoreWithChoices({ dataDir, shell: 'electron', baseUrl: null, env: {}, demo }, createCore, dialogs);
    try {
      expect(core).not.toBeNull();
      expect((await core!.call('app.info', undefined)).cacheReadOnly).toBe(false);
      expect(shown[0]).toContain(file);
      expect(shown[1]).toMatch(/even a read-only copy cannot be read/);
      expect(shown[2]).toMatch(/kept as .*demo\.sqlite\.damaged-/);
    } finally {
      await core?.close();
    }
  });

  it('truncated: "open read-only" opens it read-only; "another folder" and "quit" do what they say', async () => {
    const { dataDir, file } = await realCache();
    damage.truncated(file);
    const ro = scriptedDialog([0]);
    const core = await openCoreWithChoices({ dataDir, shell: 'electron', baseUrl: null, env: {}, demo }, createCore, ro.dialogs);
    expect((await core!.call('app.info', undefined)).cacheReadOnly).toBe(true);
    expect(await core!.call('wallets.list', undefined)).toHaveLength(1);
    await core!.close();

    const other = tempDir();
    const elsewhere = scriptedDialog([2, other]);
    const core2 = await openCoreWithChoices({ dataDir, shell: 'electron', baseUrl: null, env: {}, demo }, createCore, elsewhere.dialogs);
    expect((await core2!.call('app.info', undefined)).dataDir).toBe(other);
    await core2!.close();

    const quit = scriptedDialog([3]);
    expect(await openCoreWithChoices({ dataDir, shell: 'electron', baseUrl: null, env: {}, demo }, createCore, quit.dialogs)).toBeNull();
  });
});
