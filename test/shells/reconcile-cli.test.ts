import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainById } from '../../src/sim/chains.ts';
import { positionsOn } from '../../src/sim/positions.ts';
import { defaultHistory, historyOf, positionEventsOf, transactionAt } from '../../src/sim/transactions.ts';
import { runCliHere } from '../support/cli-in-process.ts';
import { tempDir } from '../support/store.ts';
import { WALLET } from '../support/sim.ts';

/** `folioscope reconcile` as a user runs it, in demo mode (the reference service, seed 1, 2,000 transactions). */
const CLI = join(import.meta.dirname, '../../bin/folioscope.mjs');
const asProcess = (args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, FOLIOSCOPE_ACCESS_KEY: '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
/** A command in this process (runCliHere, the entry the process runs); the reconcile itself runs as a process. */
const cli = (args: string[]) => runCliHere(args, { env: { FOLIOSCOPE_ACCESS_KEY: '' } });
const micro = (q: number) => BigInt(Math.round(q * 1e6));

describe('folioscope reconcile', () => {
  it('prints rows that satisfy the identity; wallet tokens with flows reconcile exactly, as the generator says', async () => {
    const dir = tempDir();
    const g = ['--data-dir', dir];
    expect((await cli([...g, 'wallet', 'add', WALLET, '--chains', 'eth'])).status).toBe(0);
    const sync = await cli([...g, 'sync', '--from', '2025-03-31', '--to', '2025-09-30', '--every', 'month']);
    expect(sync.status, sync.stderr).toBe(0);

    const r = asProcess([...g, 'reconcile', '--wallet', WALLET, '--from', '2025-03-31', '--to', '2025-09-30', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<Record<string, number | string | null>>;
    expect(rows.length).toBeGreaterThan(8);
    for (const x of rows) {
      for (const k of ['opening_qty', 'inflow_qty', 'outflow_qty', 'closing_qty', 'unexplained_qty']) expect(typeof x[k], k).toBe('number');
      const [o, i, out, c, u] = ['opening_qty', 'inflow_qty', 'outflow_qty', 'closing_qty', 'unexplained_qty'].map((k) => x[k] as number);
      expect(Math.abs(o! + i! - out! + u! - c!)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(o!), Math.abs(c!), i!, out!));
      expect(x).toHaveProperty('chain', 'eth');
      expect(typeof x['token_symbol']).toBe('string');
      expect(typeof x['token_id']).toBe('string');
    }
    // Independently: the generator's own transactions and positions for the demo's seed.
    const h = historyOf(defaultHistory(1), WALLET, chainById('eth')!);
    const start = Date.parse('2025-04-01T00:00:00Z');
    const end = Date.parse('2025-10-01T00:00:00Z');
    const net = new Map<string, bigint>();
    // The generator's transactions that open or close a position held at one end of the period only:
    // their transfers move tokens between the balance and that position (into it: positive), not flows.
    const moved = new Map<string, bigint>();
    const { byIndex, spans } = positionEventsOf(h);
    const [d0, d1] = [Date.parse('2025-03-31') / 86_400_000, Date.parse('2025-09-30') / 86_400_000];
    const heldOn = (s: { openDay: number; closeDay: number }, day: number) => s.openDay <= day && day < s.closeDay;
    for (let n = 0; n < 2000; n++) {
      const t = transactionAt(h, n);
      const time = Date.parse(t.date);
      const span = byIndex.has(n) ? spans.get(byIndex.get(n)!.template)! : null;
      const move = span !== null && heldOn(span, d0) !== heldOn(span, d1);
      if (t.status === 1 && time >= start && time < end)
        for (const d of t.details)
          if (move) moved.set(d.token_cid, (moved.get(d.token_cid) ?? 0n) + (d.type === 'out' ? micro(d.qty) : -micro(d.qty)));
          else net.set(d.token_cid, (net.get(d.token_cid) ?? 0n) + (d.type === 'in' ? micro(d.qty) : -micro(d.qty)));
    }
    expect(moved.size).toBeGreaterThan(0);
    const held = (date: string) => {
      const m = new Map<string, bigint>();
      for (const p of positionsOn(defaultHistory(1), WALLET, chainById('eth')!, Date.parse(`${date}T00:00:00Z`) / 86_400_000))
        for (const l of p.legs) m.set(l.tokenCid, (m.get(l.tokenCid) ?? 0n) + micro(l.qty));
      return m;
    };
    const opening = held('2025-03-31');
    const closing = held('2025-09-30');
    let exact = 0;
    for (const x of rows) {
      const cid = x['token_cid'] as string;
      expect(micro(x['inflow_qty'] as number) - micro(x['outflow_qty'] as number)).toBe(net.get(cid) ?? 0n);
      expect(micro(x['moved_to_positions_qty'] as number)).toBe(moved.get(cid) ?? 0n);
      const expectedUnexplained = (closing.get(cid) ?? 0n) - (opening.get(cid) ?? 0n) - (net.get(cid) ?? 0n);
      expect(micro(x['unexplained_qty'] as number)).toBe(expectedUnexplained);
      if (expectedUnexplained === 0n && (net.get(cid) ?? 0n) !== 0n) {
        expect(x['unexplained_qty']).toBe(0);
        exact++;
      }
    }
    expect(exact).toBeGreaterThan(0);

    // A date not cached: the rows say so, stderr says why, and the exit code is 3.
    const missing = await cli([...g, 'reconcile', '--wallet', WALLET, '--from', '2025-04-01', '--to', '2025-09-30', '--json']);
    expect(missing.status).toBe(3);
    expect(missing.stderr).toContain('incomplete: 0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c eth: positions at 2025-04-01 are not cached (sync that date)');
    expect((JSON.parse(missing.stdout) as Array<{ status: string }>).every((x) => x.status === 'incomplete')).toBe(true);

    // Bad input: a clear error, exit 1 or 2, nothing printed on stdout.
    const bad = await cli([...g, 'reconcile', '--wallet', WALLET, '--from', '2025-02-30', '--to', '2025-09-30']);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('folioscope: --from 2025-02-30 is not a date: use a real calendar day, YYYY-MM-DD.');
    const reversed = await cli([...g, 'reconcile', '--wallet', WALLET, '--from', '2025-09-30', '--to', '2025-03-31']);
    expect(reversed.status).toBe(2);
    expect(reversed.stderr).toContain('--to 2025-03-31 is before --from 2025-09-30.');
    expect((await cli([...g, 'reconcile', '--wallet', WALLET, '--from', '2025-09-30'])).status).toBe(2);
    expect((await cli([...g, 'reconcile', '--help'])).stdout).toMatch(/Usage: folioscope reconcile/);
  }, 180_000);
});
