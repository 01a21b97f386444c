import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { parse } from 'csv-parse/sync';
import { runCliHere } from '../support/cli-in-process.ts';
import { tempDir } from '../support/store.ts';
import { WALLET, WALLET_2 } from '../support/sim.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * `folioscope group`, `--group` on export and reconcile, and `export ics`, as a user runs them,
 * in demo mode (the reference service). The iCalendar file is read back with a parser written
 * here from RFC 5545 (unfolding, escapes), not with the code that wrote it. The commands run in
 * this process but the first group saved, which runs as a process of its own.
 */
const CLI = join(import.meta.dirname, '../../bin/folioscope.mjs');
const asProcess = (args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, FOLIOSCOPE_ACCESS_KEY: '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
/** A command in this process (runCliHere, the entry the process runs): what is tested is what it writes. */
const cli = (args: string[]) => runCliHere(args, { env: { FOLIOSCOPE_ACCESS_KEY: '' } });

const parseCsv = (text: string) => parse(text, { columns: true, bom: true }) as Array<Record<string, string>>;

/** RFC 5545 3.1 and 3.3.11: CRLF line ends, continuation lines start with one space; TEXT escapes \\ \; \, \n. */
function parseIcs(raw: string): { lines: string[]; events: Array<Map<string, string>>; calendar: Map<string, string> } {
  expect(raw.endsWith('\r\n')).toBe(true);
  expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/); // no bare CR or LF
  const physical = raw.slice(0, -2).split('\r\n');
  for (const l of physical) expect(Buffer.byteLength(l, 'utf8'), l).toBeLessThanOrEqual(75);
  const lines: string[] = [];
  for (const l of physical) {
    if (l.startsWith(' ')) lines[lines.length - 1] += l.slice(1);
    else lines.push(l);
  }
  const unescape = (v: string) => v.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
  const events: Array<Map<string, string>> = [];
  const calendar = new Map<string, string>();
  let current: Map<string, string> | null = null;
  const stack: string[] = [];
  for (const l of lines) {
    const colon = l.indexOf(':');
    expect(colon, l).toBeGreaterThan(0);
    const name = l.slice(0, colon);
    const value = l.slice(colon + 1);
    if (name === 'BEGIN') {
      stack.push(value);
      if (value === 'VEVENT') current = new Map();
    } else if (name === 'END') {
      expect(stack.pop()).toBe(value);
      if (value === 'VEVENT') events.push(current!);
      current = null;
    } else {
      // An unescaped ; or , inside a TEXT value would be a structural character.
      if (/^(SUMMARY|DESCRIPTION|X-WR-CALNAME)$/.test(name)) expect(value.replace(/\\[\\;,nN]/g, '')).not.toMatch(/[;,\\]/);
      (current ?? calendar).set(name, /^(SUMMARY|DESCRIPTION|X-WR-CALNAME)$/.test(name) ? unescape(value) : value);
    }
  }
  expect(stack).toEqual([]);
  return { lines, events, calendar };
}

describe('folioscope group, --group and export ics', () => {
  it('scopes reconcile, CSV and PDF to a group; writes the unlock ladder as iCalendar that parses and matches the ladder', async () => {
    const dir = tempDir();
    const g = ['--data-dir', dir];
    // A label with every character TEXT must escape, long enough that its lines fold.
    const label = 'Locks; vote-escrow, "ve" \\ treasury — long label to fold';
    expect((await cli([...g, 'wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Ops'])).status).toBe(0);
    expect((await cli([...g, 'wallet', 'add', WALLET_2, '--chains', 'eth', '--label', label])).status).toBe(0);
    const sync = await cli([...g, 'sync', '--from', '2025-03-31', '--to', '2025-09-30', '--every', 'month']);
    expect(sync.status, sync.stderr).toBe(0);

    // Groups: made, listed, refused when a member is not watched.
    expect(asProcess([...g, 'group', 'save', 'Fund I', '--wallets', WALLET]).status).toBe(0);
    expect((await cli([...g, 'group', 'save', 'Locks', '--wallets', WALLET_2])).status).toBe(0);
    const notWatched = await cli([...g, 'group', 'save', 'Bad', '--wallets', '0x' + '7'.repeat(40)]);
    expect(notWatched.status).toBe(1);
    expect(notWatched.stderr).toContain('Not watched');
    const groups = JSON.parse((await cli([...g, 'group', 'list', '--json'])).stdout) as Array<{ id: number; name: string; wallets: string[] }>;
    expect(groups.map((x) => [x.name, x.wallets])).toEqual([
      ['Fund I', [WALLET]],
      ['Locks', [WALLET_2]],
    ]);

    // reconcile --group NAME (any case) and --group ID: the members' rows only, the same rows.
    const byName = await cli([...g, 'reconcile', '--group', 'fund i', '--from', '2025-03-31', '--to', '2025-09-30', '--json']);
    expect(byName.status, byName.stderr).toBe(0);
    const rows = JSON.parse(byName.stdout) as Array<{ wallet: string }>;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.wallet))).toEqual(new Set([WALLET]));
    const all = JSON.parse((await cli([...g, 'reconcile', '--from', '2025-03-31', '--to', '2025-09-30', '--json'])).stdout) as Array<{ wallet: string }>;
    expect(all.some((r) => r.wallet === WALLET_2)).toBe(true);
    const byId = await cli([...g, 'reconcile', '--group', String(groups[0]!.id), '--from', '2025-03-31', '--to', '2025-09-30', '--json']);
    expect(byId.stdout).toBe(byName.stdout);

    // CSV transactions and history for a group: its member's rows only; history names the group.
    const txCsv = join(dir, 'tx.csv');
    const tx = await cli([
      ...g,
      'export',
      'csv',
      '--report',
      'transactions',
      '--group',
      'Fund I',
      '--from',
      '2025-04-01',
      '--to',
      '2025-09-30',
      '--out',
      txCsv,
    ]);
    expect(tx.status, tx.stderr).toBe(0);
    const txRows = parseCsv(readFileSync(txCsv, 'utf8'));
    expect(txRows.length).toBeGreaterThan(10);
    expect(new Set(txRows.map((r) => r['wallet']))).toEqual(new Set([WALLET]));
    const histCsv = join(dir, 'hist.csv');
    expect((await cli([...g, 'export', 'csv', '--report', 'history', '--group', 'Fund I', '--out', histCsv])).status).toBe(0);
    const hist = parseCsv(readFileSync(histCsv, 'utf8'));
    expect(hist.length).toBe(7);
    expect(new Set(hist.map((r) => r['scope']))).toEqual(new Set(['group:Fund I']));
    expect((await cli([...g, 'export', 'csv', '--report', 'history', '--wallet', WALLET, '--out', join(dir, 'one.csv')])).status).toBe(0);
    const one = parseCsv(readFileSync(join(dir, 'one.csv'), 'utf8'));
    expect(hist.map((r) => r['total_nav_usd'])).toEqual(one.map((r) => r['total_nav_usd']));

    // The PDF per group: its name in the title, its member listed, not the other wallet.
    const pdf = join(dir, 'fund.pdf');
    const made = await cli([...g, 'export', 'pdf', '--group', 'Fund I', '--date', '2025-09-30', '--out', pdf]);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toContain('for the group "Fund I"');
    const text = spawnSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).stdout;
    expect(text).toContain('Portfolio report: Fund I');
    expect(text).toMatch(/Group\s+Fund I \(1 member; figures over its members only\)/);
    expect(text).toContain(WALLET);
    expect(text).not.toContain(WALLET_2);

    // Bad scopes: a clear error, nothing written.
    const missing = await cli([...g, 'export', 'pdf', '--group', 'Nope', '--date', '2025-09-30', '--out', join(dir, 'nope.pdf')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('There is no wallet group "Nope"');
    expect(existsSync(join(dir, 'nope.pdf'))).toBe(false);
    const both = await cli([...g, 'export', 'ics', '--group', 'Locks', '--wallet', WALLET, '--out', join(dir, 'both.ics')]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('Use --wallet or --group, not both.');
    expect(existsSync(join(dir, 'both.ics'))).toBe(false);

    // iCalendar: the Locks group's ladder from 2025-09-30.
    const ics = join(dir, 'locks.ics');
    const wrote = await cli([...g, 'export', 'ics', '--group', 'Locks', '--date', '2025-09-30', '--out', ics]);
    expect(wrote.status, wrote.stderr).toBe(0);
    const raw = readFileSync(ics, 'utf8');
    const parsed = parseIcs(raw);
    expect(parsed.lines.length).toBeLessThan(raw.split('\r\n').length); // some lines were folded
    expect(parsed.calendar.get('VERSION')).toBe('2.0');
    expect(parsed.calendar.get('X-WR-CALNAME')).toBe('Folioscope unlocks from 2025-09-30');

    const core = await createCore({ dataDir: dir, shell: 'cli', baseUrl: null, demo: demoStarter() });
    try {
      const ladder = await core.call('risk.unlocks', { date: '2025-09-30', group: groups[1]!.id });
      expect(ladder.unlocks.length).toBeGreaterThan(0);
      expect(wrote.stdout).toContain(`Wrote ${ladder.unlocks.length} unlock`);
      expect(parsed.events.length).toBe(ladder.unlocks.length);
      const uids = new Set<string>();
      ladder.unlocks.forEach((u, i) => {
        const e = parsed.events[i]!;
        const day = u.unlockTime.slice(0, 10).replace(/-/g, '');
        expect(e.get('DTSTART;VALUE=DATE')).toBe(day);
        const next = new Date(Date.parse(u.unlockTime.slice(0, 10)) + 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
        expect(e.get('DTEND;VALUE=DATE')).toBe(next);
        expect(e.get('DTSTAMP')).toBe('20250930T000000Z');
        // The label comes back exactly, its ; , \ and quotes unescaped.
        expect(e.get('SUMMARY')).toContain(`(${label}, ${u.chain})`);
        expect(e.get('SUMMARY')).toContain(u.symbol ?? '');
        const description = e.get('DESCRIPTION')!.split('\n');
        expect(description).toContain(`Wallet: ${u.wallet} on ${u.chain}`);
        expect(description).toContain(`Unlock time: ${u.unlockTime}`);
        uids.add(e.get('UID')!);
      });
      expect(uids.size).toBe(ladder.unlocks.length);

      // Without a group: every wallet's unlocks, the same count as the ladder of all.
      const everyone = join(dir, 'all.ics');
      expect((await cli([...g, 'export', 'ics', '--date', '2025-09-30', '--out', everyone])).status).toBe(0);
      const allLadder = await core.call('risk.unlocks', { date: '2025-09-30' });
      expect(parseIcs(readFileSync(everyone, 'utf8')).events.length).toBe(allLadder.unlocks.length);
      // The Fund I group holds no locks: an empty but valid calendar.
      const none = join(dir, 'none.ics');
      expect((await cli([...g, 'export', 'ics', '--group', 'Fund I', '--date', '2025-09-30', '--out', none])).status).toBe(0);
      const empty = parseIcs(readFileSync(none, 'utf8'));
      expect(empty.events.length).toBe((await core.call('risk.unlocks', { date: '2025-09-30', group: groups[0]!.id })).unlocks.length);
    } finally {
      await core.close();
    }
  }, 240_000);
});
