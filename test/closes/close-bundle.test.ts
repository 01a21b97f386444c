import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { CLI } from '../support/cli-process.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * The auditor's bundle (issue 37 item 6), as its users run it: `folioscope close bundle` writes a
 * closed month's bundle from the preparer's data folder; `folioscope verify-bundle` checks it as a
 * process with no data folder at all (none is created), passes on the bundle as written, and
 * fails, naming the part, on a copy with one transaction's amount changed, one service response
 * changed, or a document swapped. The close was made in the core with a pinned clock, so the
 * month is whole whatever the machine's date.
 */
const SHOTS = join(import.meta.dirname, '../../test-results/screenshots');
let dataDir: string;
let hash: string;
let bundle: string;

const cli = (args: string[], dir: string = dataDir) => {
  const r = spawnSync(process.execPath, [CLI, '--data-dir', dir, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, FOLIOSCOPE_ACCESS_KEY: '' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

/** A copy of the bundle with `change` applied to its files (the manifest kept as written). */
function tampered(change: (files: Record<string, Uint8Array>) => void): string {
  const files = unzipSync(readFileSync(bundle));
  change(files);
  const file = join(tempDir(), 'tampered.zip');
  writeFileSync(file, zipSync(files));
  return file;
}

beforeAll(async () => {
  dataDir = tempDir();
  const core = await createCore({
    dataDir,
    shell: 'web',
    env: {},
    scheduleEveryMs: 0,
    now: () => SIM_NOW,
    demo: demoStarter({ txnsPerWallet: 120, now: () => SIM_NOW }),
    person: 'preparer@books',
  });
  try {
    await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
    for (const date of ['2026-09-30', '2026-10-31']) await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date })]);
    const closed = await core.request('closes.close', { wallet: WALLET, month: '2026-10' });
    hash = closed.hash;
  } finally {
    await core.close();
  }
  bundle = join(tempDir(), 'close-1.zip');
  const written = cli(['close', 'bundle', '1', '--out', bundle]);
  expect(written.status, written.stderr).toBe(0);
  expect(written.stdout).toContain(`Wrote the auditor's bundle of close 1 to ${bundle}.`);
}, 240_000);

describe("the auditor's bundle", () => {
  it('holds the pack, the record, the audit trail and every input of the hash; verify-bundle passes on it with no data folder', () => {
    const files = unzipSync(readFileSync(bundle));
    const manifest = JSON.parse(strFromU8(files['manifest.json']!)) as {
      close: { hash: string; closedBy: string; parts: Record<string, string> };
      snapshots: unknown[];
    };
    expect(manifest.close).toMatchObject({ hash, closedBy: 'preparer@books' });
    for (const name of Object.keys(manifest.close.parts)) expect(Object.keys(files)).toContain(`parts/${name}.txt`);
    expect(manifest.snapshots.length).toBeGreaterThan(0);
    // The pack's PDF as a closed period's: who closed it and its hash, read back with poppler.
    const pdf = join(tempDir(), 'pack.pdf');
    writeFileSync(pdf, files['pack.pdf']!);
    const text = spawnSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).stdout;
    mkdirSync(SHOTS, { recursive: true });
    spawnSync('pdftoppm', ['-r', '60', '-png', '-f', '1', '-l', '1', pdf, join(SHOTS, 'close-bundle-pack')]);
    expect(text.replace(/\s+/g, ' ')).toMatch(/closed .* UTC by preparer@books: the figures as closed \(data hash [0-9a-f]{16}…\)/);
    const csv = parse(Buffer.from(files['pack.csv']!), { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(csv.find((r) => r['section'] === 'closed')).toMatchObject({ key: hash, name: expect.stringMatching(/ by preparer@books$/) });
    const audit = parse(Buffer.from(files['audit.csv']!), { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(audit.find((r) => r['action'] === 'close')).toMatchObject({ entity: 'period', person: 'preparer@books', via: 'web' });

    // The auditor's machine: a data folder that does not exist, and is never made.
    const nowhere = join(tempDir(), 'never-made');
    const ok = cli(['verify-bundle', bundle, '--hash', hash], nowhere);
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`The close's hash: ${hash}`);
    expect(ok.stdout).toMatch(/OK: the bundle is the data its close hashed\./);
    expect(existsSync(nowhere)).toBe(false);
    const json = JSON.parse(cli(['verify-bundle', bundle, '--json'], nowhere).stdout) as { ok: boolean; hashNow: string; checked: { parts: number } };
    expect(json).toMatchObject({ ok: true, hashNow: hash });
    expect(json.checked.parts).toBe(Object.values(manifest.close.parts).filter((h) => h !== 'missing').length);
    // Another hash than the one given: refused, saying both.
    const other = cli(['verify-bundle', bundle, '--hash', 'a'.repeat(64)], nowhere);
    expect(other.status).toBe(1);
    expect(other.stdout).toContain(`the close's hash is ${hash}, not the ${'a'.repeat(64)} given.`);
  });

  it("fails, naming the part, on a copy with one transaction's amount changed", () => {
    const copy = tampered((files) => {
      const lines = strFromU8(files['parts/transactions.txt']!).split('\n');
      // The first transaction that moved a token: the first digit of its quantity (`qty` in the
      // details the service sent, as the part holds them) changed.
      const i = lines.findIndex((l, n) => n > 1 && /\\"qty\\":\d/.test(l));
      expect(i).toBeGreaterThan(1);
      lines[i] = lines[i]!.replace(/(\\"qty\\":)(\d)/, (_m, head: string, d: string) => `${head}${(Number(d) + 1) % 10}`);
      files['parts/transactions.txt'] = strToU8(lines.join('\n'));
    });
    const r = cli(['verify-bundle', copy], join(tempDir(), 'x'));
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/DIFFERS: /);
    expect(r.stdout).toContain('- parts/transactions.txt: changed');
    expect(r.stdout).toContain('- part "transactions": differs from the close');
    expect(r.stdout).toContain("- the period's hash: the parts give");
    // Nothing else is named: the other parts and files check out.
    expect(r.stdout).not.toMatch(/part "(?!transactions)/);
  });

  it('fails on a service response changed, and on a document swapped', () => {
    const body = tampered((files) => {
      const name = Object.keys(files).find((f) => f.startsWith('snapshots/'))!;
      files[name] = strToU8(strFromU8(files[name]!).replace(/"principal_nav":(\d)/, (_m, d: string) => `"principal_nav":${(Number(d) + 1) % 10}`));
    });
    const r = cli(['verify-bundle', body], join(tempDir(), 'x'));
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/snapshots\/\d{5}\.json \(0x[0-9a-f]+\|eth\|\w+\|2026-\d\d-\d\d\): its content is not the one the close hashed/);

    const swapped = tampered((files) => {
      files['pack.csv'] = strToU8(strFromU8(files['pack.csv']!).replace(/\d/, '9'));
    });
    const s = cli(['verify-bundle', swapped], join(tempDir(), 'x'));
    expect(s.status).toBe(1);
    expect(s.stdout).toContain('- pack.csv: changed');
  });

  it('refuses a file that is not a bundle, with a reason and no change anywhere', () => {
    const junk = join(tempDir(), 'junk.zip');
    writeFileSync(junk, 'not a zip');
    const r = cli(['verify-bundle', junk], join(tempDir(), 'x'));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/This is not a Folioscope close bundle: it cannot be read as a zip file/);
    const noFile = cli(['verify-bundle', join(tempDir(), 'missing.zip')], join(tempDir(), 'x'));
    expect(noFile.status).toBe(1);
    expect(noFile.stderr).toMatch(/there is no such file/);
    expect(cli(['verify-bundle'], join(tempDir(), 'x')).status).toBe(2);
    expect(cli(['close', 'bundle', '1']).status).toBe(2);
    const none = cli(['close', 'bundle', '99', '--out', join(tempDir(), 'b.zip')]);
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/There is no close 99\./);
  });
});
