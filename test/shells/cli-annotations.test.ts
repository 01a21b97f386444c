import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliHere } from '../support/cli-in-process.ts';
import { runCliSync } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';
import { WALLET } from '../support/sim.ts';

/**
 * `folioscope notes`, `rules` and `categories`, in demo mode (the built-in reference service):
 * a rule categorises the synced outflows, a manual category and a note win over it, the filtered
 * export holds exactly those rows with the new columns, and bad input exits 1 or 2 having
 * changed nothing. The program runs in this process (runCliHere, the entry the process runs):
 * what is tested is what the commands do, not the process; the last test runs them as one.
 */
const cli = (args: string[]) => runCliHere(args);

// About thirty runs of the program, one after another, each opening the cache and the demo service.
describe('notes, rules and categories from the command line', { timeout: 180_000 }, () => {
  it('adds a rule, sets a note and a manual category, exports the category filtered, refuses bad input', async () => {
    const dir = tempDir();
    const g = ['--data-dir', dir];
    expect((await cli([...g, 'wallet', 'add', WALLET, '--chains', 'eth'])).status).toBe(0);
    expect((await cli([...g, 'sync', '--no-positions'])).status).toBe(0);
    const categories = await cli([...g, 'categories', 'list']);
    expect(categories.stdout).toMatch(/^name\tkind\tcolour\ttransactions\nPayroll\toutflow\t#7c3aed\t0\n/);

    // A name nobody has in the address book matches nothing (names come from the book).
    expect((await cli([...g, 'rules', 'preview', '--counterparty-name', 'Nobody'])).stdout).toBe('Matches 0 cached transactions.\n');
    const preview = await cli([...g, 'rules', 'preview', '--direction', 'out']);
    const matches = Number(/Matches (\d+) cached/.exec(preview.stdout)?.[1]);
    expect(matches).toBeGreaterThan(0);
    const added = await cli([...g, 'rules', 'add', '--category', 'Vendor payment', '--direction', 'out', '--name', 'Outflows']);
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^Rule 1 "Outflows" \(order 1\) sets Vendor payment\.\nApplied to \d+ cached transactions: (\d+) categorised by a rule\.\n$/);
    expect(Number(/: (\d+) categorised/.exec(added.stdout)?.[1])).toBe(matches);
    const rules = JSON.parse((await cli([...g, 'rules', 'list', '--json'])).stdout) as Array<{ id: number; category: string; conditions: unknown }>;
    expect(rules).toEqual([expect.objectContaining({ id: 1, category: 'Vendor payment', conditions: { direction: 'out' } })]);
    expect((await cli([...g, 'rules', 'list'])).stdout).toContain('1\t1\tOutflows\tVendor payment\toutflow');

    // One of the categorised outflows, by hash: a manual category and a note over the rule's.
    const out = join(dir, 'vendor.csv');
    expect((await cli([...g, 'export', 'csv', '--report', 'transactions', '--category', 'vendor payment', '--out', out])).status).toBe(0);
    const rows = parse(readFileSync(out), { bom: true, columns: true }) as Array<Record<string, string>>;
    const hashes = [...new Set(rows.map((r) => r['txn_hash']))];
    expect(hashes).toHaveLength(matches);
    expect(rows.every((r) => r['category'] === 'Vendor payment' && r['category_source'] === 'rule' && r['note'] === '')).toBe(true);
    const hash = hashes[0]!;
    const set = await cli([...g, 'notes', 'set', hash, '--wallet', WALLET, '--chain', 'eth', '--category', 'Payroll', '--note', 'March payroll, =team A']);
    expect(set.status, set.stderr).toBe(0);
    expect(set.stdout).toBe(`${hash}: category Payroll (manual); note: March payroll, =team A.\n`);
    expect((await cli([...g, 'rules', 'apply'])).stdout).toMatch(new RegExp(`: ${matches} categorised by a rule \\(manual choices kept\\)`));
    expect(JSON.parse((await cli([...g, 'notes', 'show', hash, '--wallet', WALLET, '--chain', 'eth', '--json'])).stdout)).toMatchObject({
      category: 'Payroll',
      source: 'manual',
      ruleCategory: 'Vendor payment',
      note: 'March payroll, =team A',
      orphaned: false,
    });
    const payroll = join(dir, 'payroll.csv');
    expect((await cli([...g, 'export', 'csv', '--report', 'transactions', '--category', 'Payroll', '--out', payroll])).status).toBe(0);
    const paid = parse(readFileSync(payroll), { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(new Set(paid.map((r) => r['txn_hash']))).toEqual(new Set([hash]));
    // The note is text in the sheet, never a formula.
    expect(paid[0]).toMatchObject({ category: 'Payroll', category_source: 'manual', note: 'March payroll, =team A' });

    // Bad input: a usage error (2) or a refusal (1), and nothing changed.
    const bad: Array<[string[], number, RegExp]> = [
      [['rules', 'add', '--direction', 'out'], 2, /needs --category/],
      [['rules', 'add', '--category', 'Payroll'], 1, /at least one condition/],
      [['rules', 'add', '--category', 'Payroll', '--direction', 'sideways'], 2, /--direction is one of/],
      [['rules', 'add', '--category', 'Payroll', '--token', 'USDC', '--min', 'lots'], 2, /--min lots is not a quantity/],
      // Read as the app's form reads a quantity: not hex, and not a figure that reads as 0.
      [['rules', 'add', '--category', 'Payroll', '--token', 'USDC', '--min', '0x10'], 2, /--min 0x10 is not a quantity/],
      [['rules', 'add', '--category', 'Payroll', '--token', 'USDC', '--max', '1e-400'], 2, /--max 1e-400 is too small to tell from 0/],
      [['rules', 'add', '--category', 'Nope', '--direction', 'in'], 1, /no category "Nope"/],
      [['rules', 'remove', '7'], 1, /no rule 7/],
      [['notes', 'set', hash, '--wallet', WALLET, '--chain', 'eth', '--note', 'evil\u202etext'], 1, /text-direction/],
      [['notes', 'set', '0xnotcached', '--wallet', WALLET, '--chain', 'eth', '--note', 'x'], 1, /not a cached transaction/],
      [['notes', 'set', hash, '--wallet', WALLET], 2, /needs TXN_HASH, --wallet and --chain/],
    ];
    for (const [args, status, message] of bad) {
      const r = await cli([...g, ...args]);
      expect(r.status, args.join(' ')).toBe(status);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    expect(JSON.parse((await cli([...g, 'rules', 'list', '--json'])).stdout)).toHaveLength(1);
    expect(JSON.parse((await cli([...g, 'notes', 'show', hash, '--wallet', WALLET, '--chain', 'eth', '--json'])).stdout)).toMatchObject({
      note: 'March payroll, =team A',
    });
    // Each edit in the audit trail.
    const audit = await cli([...g, 'audit', '--json']);
    const entries = JSON.parse(audit.stdout) as Array<{ entity: string; action: string; origin: string }>;
    expect(entries.filter((e) => e.entity !== 'wallet').map((e) => [e.entity, e.action, e.origin])).toEqual([
      ['note', 'create', 'notes.set'],
      ['rule', 'create', 'rules.save'],
    ]);
  });

  it('as a process: the exit code and the lines a user and a script read', () => {
    const g = ['--data-dir', tempDir()];
    const categories = runCliSync([...g, 'categories', 'list'], { timeout: 90_000 });
    expect(categories.status, categories.stderr).toBe(0);
    expect(categories.stdout).toMatch(/^name\tkind\tcolour\ttransactions\nPayroll\toutflow\t#7c3aed\t0\n/);
    const bad = runCliSync([...g, 'rules', 'add', '--direction', 'out'], { timeout: 90_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^folioscope: rules add needs --category/);
  });
});
