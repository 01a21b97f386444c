import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { runCliHere } from '../support/cli-in-process.ts';
import { runCli } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';

/**
 * `folioscope counterparties` as a user runs it, in demo mode: add, list, an import that fails on
 * a row (named by its line, exit 1, nothing written), one that works, export read back as CSV
 * and imported into another data folder unchanged, remove. The commands run in this process
 * (runCliHere, the entry the process runs); the last refusal runs as a process of its own.
 */
const A = '0x' + 'a1'.repeat(20);
const B = '0x' + 'b2'.repeat(20);
const C = '0x' + 'c3'.repeat(20);
const env = { FOLIOSCOPE_ACCESS_KEY: '' };

describe('folioscope counterparties', () => {
  it('adds, lists, imports all or nothing, exports what import reads, removes', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const run = (...args: string[]) => runCliHere(['--data-dir', dir, 'counterparties', ...args], { env });

    let r = await run('add', A.toUpperCase().replace('0X', '0x'), 'Grantee X', '--chains', 'eth,arb', '--tags', 'grants');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`Saved ${A} as "Grantee X" (arb, eth).`);

    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, `address,name,chainId\n${B},Payroll,1\n${B},Payroll,137\nnot-hex-0x,Broken,1\n${A},Someone else,1\n`);
    r = await run('import', bad);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/line 2\tADD\t0xb2b2/);
    expect(r.stdout).toMatch(/line 3\tMERGED/);
    expect(r.stdout).toMatch(/line 4\tERROR\tnot-hex-0x\tBroken\t/);
    expect(r.stdout).toMatch(/line 5\tCONFLICT\t0xa1a1.*the address book names it "Grantee X"/);
    expect(r.stdout).toMatch(/Nothing was imported: .*1 conflict, 1 error/);
    r = await run('list', '--json');
    expect((JSON.parse(r.stdout) as Array<{ address: string }>).map((c) => c.address)).toEqual([A]);

    const good = join(dir, 'good.csv');
    writeFileSync(good, `address,name,tags,ours,chains,note\nbase:${B},Payroll,ops;monthly,false,matic,"paid, monthly"\n${C},Our cold wallet,,true,,\n`);
    r = await run('import', good, '--dry-run');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Would import: 2 entries to add');
    expect(JSON.parse((await run('list', '--json')).stdout)).toHaveLength(1);
    r = await run('import', good);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Imported (CSV): 2 entries added');

    r = await run('list');
    expect(r.stdout.split('\n')[0]).toBe('address\tname\tours\tchains\ttags\tnote');
    expect(r.stdout).toContain(`${C}\tOur cold wallet\tours\tevery chain\t\t`);
    expect(r.stdout).toContain(`${B}\tPayroll\t\tbase,matic\tops,monthly\tpaid, monthly`);

    const out = join(dir, 'book.csv');
    r = await run('export', '--out', out);
    expect(r.stdout).toContain(`Wrote 3 entries to ${out}.`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const rows = parse(readFileSync(out), { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(rows).toEqual([
      { address: A, name: 'Grantee X', tags: 'grants', ours: 'false', chains: 'arb;eth', note: '' },
      { address: C, name: 'Our cold wallet', tags: '', ours: 'true', chains: '', note: '' },
      { address: B, name: 'Payroll', tags: 'ops;monthly', ours: 'false', chains: 'base;matic', note: 'paid, monthly' },
    ]);
    // The same bytes through the reports' export (the app's Export CSV button runs this report).
    const report = join(dir, 'book-report.csv');
    expect((await runCliHere(['--data-dir', dir, 'export', 'csv', '--report', 'counterparties', '--out', report], { env })).status).toBe(0);
    expect(readFileSync(report, 'utf8')).toBe(readFileSync(out, 'utf8'));
    // Read back by import into another data folder: the same book.
    const other = tempDir();
    expect((await runCliHere(['--data-dir', other, 'counterparties', 'import', out], { env })).status).toBe(0);
    expect(JSON.parse((await runCliHere(['--data-dir', other, 'counterparties', 'list', '--json'], { env })).stdout)).toEqual(
      (JSON.parse((await run('list', '--json')).stdout) as Array<Record<string, unknown>>).map((c) => ({
        ...c,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        // A version is the data folder's (its audit trail's), not the entry's: another folder has its own.
        version: expect.any(Number),
      })),
    );

    r = await run('remove', B);
    expect(r.stdout).toContain(`Removed ${B}`);
    r = await run('remove', B);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('is not in the address book');
    // As a process: the refusal's exit code and line on a real standard error.
    r = await runCli(['--data-dir', dir, 'counterparties', 'add', A, 'Bad\u202Ename'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/U\+202E/);
  });
});
