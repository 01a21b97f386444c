import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { cliAsync } from '../support/hostile-service.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Finding: impossible dates (2025-02-30, 0000-00-00, 2025-13-01) passed positions.get,
 * exposure.get, nav.history, positions.diff, export.start and the CLI's export, which wrote
 * "0 rows" and exited 0.
 */
const IMPOSSIBLE = ['2025-02-30', '0000-00-00', '2025-13-01', '2025-00-10', '2024-04-31'];
let core: Core;
beforeAll(async () => {
  core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter({ now: () => SIM_NOW }) });
  await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
});
afterAll(() => core.close());

describe('one strict date check at the contract', () => {
  const cases: Array<[string, (d: string) => unknown]> = [
    ['positions.get', (d) => ({ wallet: WALLET, date: d, view: 'all' })],
    ['exposure.get', (d) => ({ date: d })],
    ['nav.history', (d) => ({ from: d })],
    ['positions.diff', (d) => ({ wallet: WALLET, from: '2025-01-01', to: d })],
    ['positions.coverage', (d) => ({ date: d })],
    ['portfolio.change', (d) => ({ date: '2025-03-01', since: d })],
    ['export.start', (d) => ({ format: 'csv', report: 'positions', date: d })],
    ['timeline.page', (d) => ({ to: d })],
    ['sync.positions', (d) => ({ wallet: WALLET, date: d })],
    ['sync.backfill', (d) => ({ wallet: WALLET, from: d, to: '2025-03-01', every: 'day' })],
    ['sync.all', (d) => ({ date: d })],
  ];
  for (const [op, input] of cases) {
    it(`${op} refuses an impossible date`, async () => {
      for (const d of IMPOSSIBLE) {
        const r = await core.dispatch(op, input(d));
        expect(r, `${op} ${d}`).toMatchObject({ ok: false, error: { kind: 'validation' } });
        expect(r.ok || r.error.message).toMatch(/real date YYYY-MM-DD/);
      }
      expect(await core.call('sync.jobs', undefined)).toEqual([]);
    });
  }

  it('a range that ends before it starts is refused', async () => {
    for (const [op, input] of [
      ['nav.history', { from: '2025-03-01', to: '2025-01-01' }],
      ['timeline.page', { from: '2025-03-01', to: '2025-01-01' }],
      ['export.start', { format: 'csv', report: 'history', from: '2025-03-01', to: '2025-01-01' }],
    ] as const) {
      expect(await core.dispatch(op, input), op).toMatchObject({ ok: false, error: { kind: 'validation', field: 'to' } });
    }
  });
});

describe('the CLI checks its date options the same way', { timeout: 120_000 }, () => {
  it('export and sync refuse an impossible date with a usage error, writing nothing', async () => {
    const dir = tempDir();
    const out = `${dir}/out.csv`;
    const r = await cliAsync(['--data-dir', dir, 'export', 'csv', '--report', 'positions', '--date', '2025-02-30', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--date 2025-02-30 is not a date/);
    expect(r.stdout).not.toMatch(/Wrote/);
    const range = await cliAsync(['--data-dir', dir, 'export', 'csv', '--report', 'history', '--from', '2025-03-01', '--to', '2025-01-01', '--out', out]);
    expect(range.status).toBe(2);
    expect(range.stderr).toMatch(/--to 2025-01-01 is before --from 2025-03-01/);
    const sync = await cliAsync(['--data-dir', dir, 'sync', '--date', '2025-13-01']);
    expect(sync.status).toBe(2);
    expect(sync.stderr).toMatch(/--date 2025-13-01 is not a date/);
  });
});
