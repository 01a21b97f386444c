import Database from 'better-sqlite3-multiple-ciphers';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliHere } from '../support/cli-in-process.ts';
import type { Ran } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';
import { WALLET, WALLET_2 } from '../support/sim.ts';

/**
 * Backups and the user's data file as a user runs them: `folioscope backup` and `folioscope
 * data`, their exit codes and lines read, and the files compared byte for byte. The commands run
 * in this process (runCliHere, the entry the process runs), since what they do is what is
 * tested; the first backup made and the encrypted export (its passphrase on a real standard
 * input) run as processes.
 */
const CLI = join(import.meta.dirname, '../../bin/folioscope.mjs');
const KEY = 'cli-backup-key-7c41e9d2';
const W3 = '0x' + '3'.repeat(40);
let simUrl = '';
let stopSim: () => void = () => undefined;

beforeAll(async () => {
  const child = spawn(process.execPath, [CLI, 'sim', '--access-key', KEY, '--txns-per-wallet', '300'], { stdio: ['ignore', 'pipe', 'pipe'] });
  stopSim = () => child.kill('SIGTERM');
  simUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(String(d).split('\n')[0]!.trim()));
    child.once('exit', (code) => reject(new Error(`sim exited ${code}`)));
  });
});
afterAll(() => stopSim());

function asProcess(args: string[], o: { input?: string; key?: boolean } = {}) {
  const env = { ...process.env };
  if (o.key) env['FOLIOSCOPE_ACCESS_KEY'] = KEY;
  else delete env['FOLIOSCOPE_ACCESS_KEY'];
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, input: o.input ?? '', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
/** A command in this process (runCliHere, the entry the process runs), with the key in its environment when asked. */
const cli = (args: string[], o: { input?: string; key?: boolean } = {}) =>
  runCliHere(args, { ...(o.key && { env: { FOLIOSCOPE_ACCESS_KEY: KEY } }), ...(o.input !== undefined && { input: o.input }) });
const ok = (r: Ran) => {
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
};
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const backupsOf = (dir: string) =>
  existsSync(join(dir, 'backups'))
    ? readdirSync(join(dir, 'backups'))
        .filter((n) => n.endsWith('.sqlite'))
        .sort()
    : [];
function cache<T>(dir: string, fn: (db: Database.Database) => T): T {
  const file = readdirSync(dir).find((f) => /^(demo|live-[0-9a-f]+)\.sqlite$/.test(f))!;
  const db = new Database(join(dir, file));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
const settingsRows = (dir: string) =>
  cache(dir, (db) =>
    Object.fromEntries(
      (db.prepare('SELECT key, value FROM settings ORDER BY key').all() as Array<{ key: string; value: string }>).map((r) => [r.key, r.value]),
    ),
  );

describe('folioscope backup (demo mode: no key)', () => {
  it(
    'create, list with counts, verify; a changed byte is refused by verify and restore; a good backup restores into a fresh folder, every figure equal',
    { timeout: 240_000 },
    async () => {
      const dir = tempDir();
      const g = ['--data-dir', dir];
      ok(await cli([...g, 'wallet', 'add', WALLET, '--chains', 'eth,arb', '--label', 'Treasury', '--tags', 'ops,cold']));
      ok(await cli([...g, 'wallet', 'add', WALLET_2, '--chains', 'eth', '--label', 'Staking']));
      ok(await cli([...g, 'group', 'save', 'Fund I', '--wallets', `${WALLET},${WALLET_2}`]));
      ok(await cli([...g, 'sync', '--date', '2025-06-01', '--no-transactions']));
      const wallets = ok(await cli([...g, 'wallet', 'list', '--json']));
      const groups = ok(await cli([...g, 'group', 'list', '--json']));
      const csv = join(dir, 'positions.csv');
      ok(await cli([...g, 'export', 'csv', '--report', 'positions', '--date', '2025-06-01', '--out', csv]));

      const made = ok(asProcess([...g, 'backup', 'create']));
      expect(made).toMatch(
        /^Backup demo-\d{8}T\d{6}Z\.sqlite made and checked \(integrity_check ok, schema \d+\): 2 wallets, 1 group, 0 schedules, 9 snapshots, 0 transactions\.\n$/,
      );
      const [name] = backupsOf(dir);
      expect(readdirSync(join(dir, 'backups')).sort()).toEqual([name, `${name}.json`]);
      const list = ok(await cli([...g, 'backup', 'list']));
      expect(list).toMatch(
        new RegExp(
          `^name\\tmade\\twhy\\tschema\\tsize\\trows\\n${name!.replace(/\./g, '\\.')}\\t\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\tmanual\\tschema \\d+\\t[\\d.]+ MiB\\t2 wallets, 1 group, 0 schedules, 9 snapshots, 0 transactions\\n$`,
        ),
      );
      const listed = JSON.parse(ok(await cli([...g, 'backup', 'list', '--json'])));
      expect(listed.backups).toEqual([
        expect.objectContaining({ name, reason: 'manual', counts: expect.objectContaining({ wallets: 2, wallet_groups: 1, snapshots: 9 }) }),
      ]);
      expect(ok(await cli([...g, 'backup', 'verify', name!]))).toMatch(
        new RegExp(`^ok ${name!.replace(/\./g, '\\.')}: SHA-256 matches its manifest, integrity_check ok`),
      );

      // A good copy goes to a fresh folder before this one is tampered with.
      const fresh = tempDir();
      mkdirSync(join(fresh, 'backups'));
      for (const f of [name!, `${name}.json`]) copyFileSync(join(dir, 'backups', f), join(fresh, 'backups', f));

      // One byte in the middle changed: verify and restore refuse; the cache is not touched.
      const file = join(dir, 'backups', name!);
      const bytes = readFileSync(file);
      bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
      writeFileSync(file, bytes);
      const before = sha(join(dir, 'demo.sqlite'));
      const verify = await cli([...g, 'backup', 'verify', name!]);
      expect(verify.status).toBe(1);
      expect(verify.stderr).toMatch(
        /does not match its manifest's SHA-256: its bytes were changed after it was made, so it is not restored\. Nothing was changed\./,
      );
      const restore = await cli([...g, 'backup', 'restore', name!]);
      expect(restore.status).toBe(1);
      expect(restore.stderr).toMatch(/SHA-256.*Nothing was changed/);
      expect(sha(join(dir, 'demo.sqlite'))).toBe(before);
      expect(readdirSync(dir).filter((f) => /before-restore|restoring/.test(f))).toEqual([]);
      expect(ok(await cli([...g, 'wallet', 'list', '--json']))).toBe(wallets);
      // An edited manifest is refused too.
      const manifest = JSON.parse(readFileSync(join(fresh, 'backups', `${name}.json`), 'utf8'));
      writeFileSync(join(dir, 'backups', `${name}.json`), JSON.stringify({ ...manifest, counts: { ...manifest.counts, wallets: 1 } }));
      copyFileSync(join(fresh, 'backups', name!), file);
      expect((await cli([...g, 'backup', 'verify', name!])).stderr).toMatch(/holds other rows than its manifest records \(wallets: 2 vs 1\)/);

      // The good backup into a fresh folder: its empty cache kept aside, then every wallet, group and figure equal.
      const f = ['--data-dir', fresh];
      ok(await cli([...f, 'wallet', 'list']));
      const restored = ok(await cli([...f, 'backup', 'restore', name!]));
      expect(restored).toMatch(
        new RegExp(
          `^Restored ${name!.replace(/\./g, '\\.')} \\(made .*: 2 wallets, 1 group, 0 schedules, 9 snapshots, 0 transactions\\)\\. The cache it replaced is kept at .*demo\\.sqlite\\.before-restore-\\d{8}T\\d{6}Z\\.`,
        ),
      );
      expect(readdirSync(fresh).filter((x) => x.startsWith('demo.sqlite.before-restore-'))).toHaveLength(1);
      expect(ok(await cli([...f, 'wallet', 'list', '--json']))).toBe(wallets);
      expect(ok(await cli([...f, 'group', 'list', '--json']))).toBe(groups);
      const csv2 = join(fresh, 'positions.csv');
      ok(await cli([...f, 'export', 'csv', '--report', 'positions', '--date', '2025-06-01', '--out', csv2]));
      expect(readFileSync(csv2).equals(readFileSync(csv))).toBe(true);
      expect(readFileSync(csv, 'utf8').split('\n').length).toBeGreaterThan(3);
    },
  );
});

describe('folioscope data (a live service: the key is known, and found in no file)', () => {
  it(
    'export → a fresh folder: dry run previews, import makes wallets, groups, schedules, alert rules and settings equal; encrypted round trip; wrong passphrase and unknown version change nothing; conflicts block unless --replace',
    { timeout: 300_000 },
    async () => {
      const dir = tempDir();
      const g = ['--data-dir', dir, '--base-url', simUrl];
      const run = (args: string[], o: { input?: string } = {}) => cli(args, { ...o, key: true });
      ok(await run([...g, 'wallet', 'add', WALLET, '--chains', 'eth,arb', '--label', 'Treasury', '--tags', 'ops,cold']));
      ok(await run([...g, 'wallet', 'add', WALLET_2, '--chains', 'eth', '--label', 'Staking']));
      ok(await run([...g, 'group', 'save', 'Fund I', '--wallets', `${WALLET},${WALLET_2}`]));
      ok(await run([...g, 'schedule', 'add', '--group', 'Fund I', '--what', 'positions', '--every', 'hour', '--at', ':15']));
      ok(await run([...g, 'schedule', 'add', '--wallet', WALLET, '--every', 'week', '--on', 'monday', '--at', '07:30']));
      expect(ok(await run([...g, 'alert', 'add', 'health', '--below', '1.1', '--group', 'Fund I']))).toMatch(
        /^Alert rule 1: health below 1\.1, group "Fund I"\./,
      );
      // No CLI command sets these: written as Settings would.
      cache(dir, (db) => {
        const put = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
        put.run('theme', '"dark"');
        put.run('timeZone', '"local"');
        put.run('backupKeep', '3');
      });
      ok(await run([...g, 'sync', '--no-positions']));
      const plain = join(dir, 'data.json');
      expect(ok(await run([...g, 'data', 'export', '--out', plain]))).toBe(`Wrote your data (2 wallets) to ${plain}.\n`);
      const encrypted = join(dir, 'data-encrypted.json');
      expect(ok(asProcess([...g, 'data', 'export', '--out', encrypted, '--passphrase-stdin'], { input: 'correct horse battery\n', key: true }))).toMatch(
        /2 wallets, encrypted/,
      );
      expect(JSON.parse(readFileSync(plain, 'utf8'))).toMatchObject({ format: 'folioscope-user-data', version: 1 });
      expect(JSON.parse(readFileSync(encrypted, 'utf8')).encryption).toMatchObject({ kdf: 'scrypt', N: 131072, r: 8, p: 1, cipher: 'aes-256-gcm' });
      ok(await run([...g, 'backup', 'create']));

      // The key: in no export, no backup, no manifest, not in the cache.
      const files = [
        plain,
        encrypted,
        ...readdirSync(join(dir, 'backups')).map((n) => join(dir, 'backups', n)),
        ...readdirSync(dir)
          .filter((n) => n.includes('.sqlite'))
          .map((n) => join(dir, n)),
      ];
      expect(files.length).toBeGreaterThanOrEqual(5);
      for (const path of files) expect(readFileSync(path).includes(Buffer.from(KEY)), path).toBe(false);
      // Nor service data in the data file.
      expect(readFileSync(plain, 'utf8')).not.toMatch(/txn_hash|snapshot|0x[0-9a-f]{64}/);

      const lists = async (d: string[]) => ({
        wallets: ok(await run([...d, 'wallet', 'list', '--json'])),
        groups: ok(await run([...d, 'group', 'list', '--json'])),
        schedules: JSON.parse(ok(await run([...d, 'schedule', 'list', '--json']))).map((s: any) => ({ scope: s.scope, what: s.what, cadence: s.cadence })),
        // What the user made of each rule (its id, creation time and last check are the folder's own).
        alertRules: JSON.parse(ok(await run([...d, 'alert', 'list', '--json']))).map((r: any) => ({ scope: r.scope, condition: r.condition })),
      });
      const source = await lists(g);
      expect(source.alertRules).toEqual([{ scope: { kind: 'group', id: 1 }, condition: { kind: 'health', below: 1.1 } }]);
      // The rule is in the file (its group by name), not the alerts it fired.
      expect(JSON.parse(readFileSync(plain, 'utf8')).data.alertRules).toEqual([
        { scope: { kind: 'group', name: 'Fund I' }, condition: { kind: 'health', below: 1.1 } },
      ]);

      // A fresh folder: the dry run previews and changes nothing, the import makes everything equal.
      const fresh = tempDir();
      const f = ['--data-dir', fresh, '--base-url', simUrl];
      const dry = await run([...f, 'data', 'import', plain, '--dry-run']);
      expect(dry.status, dry.stderr).toBe(0);
      expect(dry.stdout).toContain(`add       wallet    ${WALLET}  "Treasury" on eth, arb`);
      expect(dry.stdout).toContain('add       group     Fund I  2 wallets');
      expect(dry.stdout).toContain('add       schedule  positions of group "Fund I", every hour at :15');
      expect(dry.stdout).toContain('add       alert     health below 1.1, group "Fund I"');
      expect(dry.stdout).toContain('change    setting   theme  "system" → "dark"');
      expect(dry.stdout).toContain('same      setting   chains');
      // Unchanged: 5 settings, and the 8 categories every folder is seeded with (the books' list).
      expect(dry.stdout).toMatch(/6 to add, 3 to change, 13 unchanged, 0 conflicts\.\nDry run: nothing was changed\.\n$/);
      expect(dry.stdout.match(/^same {6}category/gm)).toHaveLength(8);
      expect(JSON.parse(ok(await run([...f, 'data', 'import', plain, '--dry-run', '--json']))).counts).toEqual({
        added: 6,
        changed: 3,
        unchanged: 13,
        conflict: 0,
      });
      expect(ok(await run([...f, 'wallet', 'list', '--json'])).trim()).toBe('[]');
      expect(ok(await run([...f, 'data', 'import', plain]))).toMatch(/Imported: 6 added, 3 changed\.\n$/);
      expect(await lists(f)).toEqual(source);
      // Again: the same rule is there, so it is unchanged (not added twice).
      const again = ok(await run([...f, 'data', 'import', plain]));
      expect(again).toContain('same      alert     health below 1.1, group "Fund I"\n');
      expect(again).toMatch(/Imported: 0 added, 0 changed\.\n$/);
      expect(await lists(f)).toEqual(source);
      expect(settingsRows(fresh)).toEqual(settingsRows(dir));

      // Encrypted: the passphrase round-trips; a wrong one, or none, is refused and changes nothing.
      const enc = tempDir();
      const e = ['--data-dir', enc, '--base-url', simUrl];
      const wrong = await run([...e, 'data', 'import', encrypted, '--passphrase-stdin'], { input: 'wrong horse battery\n' });
      expect(wrong.status).toBe(1);
      expect(wrong.stderr).toMatch(/The passphrase is wrong .*Nothing was imported\./);
      const none = await run([...e, 'data', 'import', encrypted]);
      expect(none.status).toBe(1);
      expect(none.stderr).toMatch(/This data file is encrypted: give its passphrase\./);
      expect(ok(await run([...e, 'wallet', 'list', '--json'])).trim()).toBe('[]');
      expect(ok(await run([...e, 'data', 'import', encrypted, '--passphrase-stdin'], { input: 'correct horse battery\n' }))).toMatch(
        /Data file of .* \(encrypted\):/,
      );
      expect(await lists(e)).toEqual(source);
      expect(settingsRows(enc)).toEqual(settingsRows(dir));

      // A version this Folioscope does not know: refused, nothing changed.
      const future = join(dir, 'future.json');
      writeFileSync(future, JSON.stringify({ ...JSON.parse(readFileSync(plain, 'utf8')), version: 2 }));
      const other = tempDir();
      const o = ['--data-dir', other, '--base-url', simUrl];
      const refused = await run([...o, 'data', 'import', future]);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/This data file is version 2; this Folioscope reads version 1 only\. .*Nothing was imported\./);
      expect(ok(await run([...o, 'wallet', 'list', '--json'])).trim()).toBe('[]');

      // A populated folder: a wallet on other chains and a group of that name with other members
      // are conflicts; they block the whole import (nothing added, no setting changed) unless --replace.
      const mine = tempDir();
      const m = ['--data-dir', mine, '--base-url', simUrl];
      ok(await run([...m, 'wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Mine']));
      ok(await run([...m, 'wallet', 'add', W3, '--chains', 'eth']));
      ok(await run([...m, 'group', 'save', 'Fund I', '--wallets', `${WALLET},${W3}`]));
      const mineBefore = { ...lists(m), settings: settingsRows(mine) };
      const blocked = await run([...m, 'data', 'import', plain]);
      expect(blocked.status).toBe(1);
      expect(blocked.stdout).toContain(`CONFLICT  wallet    ${WALLET}  chains differ: here eth; in the file eth, arb`);
      expect(blocked.stdout).toContain(`CONFLICT  group     Fund I  other members: only here ${W3}; only in the file ${WALLET_2}`);
      expect(blocked.stdout).toContain(`add       wallet    ${WALLET_2}`);
      expect(blocked.stderr).toMatch(/2 conflicts with what is here: nothing was imported\. Run again with --replace/);
      expect({ ...lists(m), settings: settingsRows(mine) }).toEqual(mineBefore);
      expect(ok(await run([...m, 'data', 'import', plain, '--replace']))).toMatch(/Imported: 4 added, 3 changed, 2 replaced\.\n$/);
      expect((await lists(m)).alertRules).toEqual([{ scope: { kind: 'group', id: 1 }, condition: { kind: 'health', below: 1.1 } }]);
      const replaced = JSON.parse(ok(await run([...m, 'wallet', 'list', '--json'])));
      expect(replaced.find((w: any) => w.address === WALLET)).toMatchObject({ chains: ['eth', 'arb'], label: 'Treasury', tags: ['ops', 'cold'] });
      expect(JSON.parse(ok(await run([...m, 'group', 'list', '--json'])))).toEqual([
        expect.objectContaining({ name: 'Fund I', wallets: [WALLET_2, WALLET].sort() }),
      ]);
    },
  );
});
