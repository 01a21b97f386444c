import { parse } from 'csv-parse/sync';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliSync } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';
import { WALLET } from '../support/sim.ts';

/**
 * What an edit sets off (reactions.ts) happens before the command that made it ends: a CLI
 * process exits right after its edit, so the category rules a new name or an imported rule
 * decides again, and the alert rules an import adds, are applied before the core closes — not on
 * a later turn of the event loop that a process never reaches. (An attacker's finding: after
 * `counterparties add`, 496 transactions matched a rule by that name and none was categorised.)
 */
const cli = (args: string[]) => runCliSync(args, { timeout: 90_000 });
const categorised = (g: string[], name: string) => {
  const line = cli([...g, 'categories', 'list'])
    .stdout.split('\n')
    .find((l) => l.startsWith(`${name}\t`));
  return Number(line?.split('\t')[3]);
};

describe('an edit from the command line sets off its reactions before the command ends', () => {
  it('a name added to the address book categorises what a rule by that name matches; an imported rule applies at once', () => {
    const dir = tempDir();
    const g = ['--data-dir', dir];
    expect(cli([...g, 'wallet', 'add', WALLET, '--chains', 'eth']).status).toBe(0);
    expect(cli([...g, 'sync', '--no-positions']).status).toBe(0);
    // The address this wallet sends to most often.
    const out = join(dir, 'all.csv');
    cli([...g, 'export', 'csv', '--report', 'transactions', '--out', out]);
    const rows = parse(readFileSync(out), { bom: true, columns: true }) as Array<Record<string, string>>;
    const counts = new Map<string, number>();
    for (const r of rows) if (r['direction'] === 'out' && r['to']) counts.set(r['to'], (counts.get(r['to']) ?? 0) + 1);
    const [to] = [...counts].sort((a, b) => b[1] - a[1])[0]!;

    const rule = cli([...g, 'rules', 'add', '--category', 'Payroll', '--counterparty-name', 'Acme Corp', '--name', 'Acme']);
    expect(rule.status, rule.stderr).toBe(0);
    expect(categorised(g, 'Payroll')).toBe(0);
    expect(cli([...g, 'counterparties', 'add', to, 'Acme Corp']).status).toBe(0);
    const matches = Number(/Matches (\d+) cached/.exec(cli([...g, 'rules', 'preview', '--counterparty-name', 'Acme Corp']).stdout)?.[1]);
    expect(matches).toBeGreaterThan(0);
    // Without `rules apply`: the command that added the name applied the rules before it ended.
    expect(categorised(g, 'Payroll')).toBe(matches);

    // A data file adding a rule: categorised by the import itself.
    const file = join(dir, 'mine.json');
    expect(cli([...g, 'data', 'export', '--out', file]).status).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { data: { rules: Array<Record<string, unknown>> } };
    expect(doc.data.rules).toHaveLength(1);
    doc.data.rules = [{ name: 'Inflows', category: 'Grants', conditions: { direction: 'in' } }];
    const fresh = tempDir();
    const f = ['--data-dir', fresh];
    expect(cli([...f, 'wallet', 'add', WALLET, '--chains', 'eth']).status).toBe(0);
    expect(cli([...f, 'sync', '--no-positions']).status).toBe(0);
    writeFileSync(file, JSON.stringify(doc));
    const imported = cli([...f, 'data', 'import', file]);
    expect(imported.status, imported.stderr + imported.stdout).toBe(0);
    const inflows = Number(/Matches (\d+) cached/.exec(cli([...f, 'rules', 'preview', '--direction', 'in']).stdout)?.[1]);
    expect(inflows).toBeGreaterThan(0);
    expect(categorised(f, 'Grants')).toBe(inflows);
  }, 240_000);
});
