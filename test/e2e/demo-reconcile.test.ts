import { describe, expect, it } from 'vitest';
import { chainName } from '../../src/shared/chain-names.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { bothThemes } from './axe.ts';
import { waitForJobs } from '../support/jobs.ts';
import { poll, useWebSession } from '../support/web-session.ts';

/**
 * Reconcile in the demo, as a newcomer tries it (issue 27): the plain balances reconcile to the
 * unit, so a remainder is the change inside protocol positions (interest, rebases, rewards,
 * pools). The screen says so ("in positions"), never a red "unexplained" for money that did not
 * leave; a remainder in a plain balance would still read "unexplained".
 */
const WALLETS = [
  { address: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', chains: ['eth', 'arb'] },
  { address: '0x00000000219ab540356cbb839cbe05303d7705fa', chains: ['eth'] },
];
const FROM = '2026-09-30';
const TO = '2026-10-31';
/** A month in which the demo wallets open four positions of their own (a loan among them). */
const MOVES = ['2025-09-30', '2025-10-31'] as const;

const web = useWebSession({
  viewport: { width: 1440, height: 900 },
  // The demo as users get it: the service's clock is this computer's.
  core: { demo: demoStarter(), scheduleEveryMs: 0 },
  timeout: 120_000,
  seed: async (core) => {
    for (const w of WALLETS) await core.call('wallets.add', w);
    await waitForJobs(core, await core.call('sync.all', undefined));
    for (const w of WALLETS)
      await waitForJobs(core, await Promise.all([FROM, TO, ...MOVES].map((date) => core.call('sync.positions', { wallet: w.address, date }))));
  },
});

describe('Reconcile in the demo', () => {
  it('says a remainder held in protocol positions is that, not money unexplained', async () => {
    const r = await web.core.call('reconcile.get', { from: FROM, to: TO });
    const inPositions = r.rows.filter((x) => x.status === 'unexplained' && x.wallet_unexplained_qty === 0).length;
    const plain = r.rows.filter((x) => x.status === 'unexplained' && x.wallet_unexplained_qty !== 0).length;
    expect(r.complete).toBe(true);
    expect(inPositions).toBeGreaterThan(0);
    await web.open(`#/reconcile?from=${FROM}&to=${TO}`);
    const summary = web.page.getByText(/tokens: \d+ that moved reconciles? exactly/);
    await poll(() => summary.textContent()).toContain(`${plain} ${plain === 1 ? 'shows' : 'show'} an unexplained remainder`);
    expect(await summary.textContent()).toContain(`${inPositions} more changed only inside protocol positions`);
    const badges = web.page.locator('table[aria-label="Roll-forward by token"] tbody td .badge');
    await poll(() => badges.filter({ hasText: /^in positions$/ }).count()).toBe(inPositions);
    expect(await badges.filter({ hasText: /^unexplained$/ }).count()).toBe(plain);
    // Each row at one precision, so it foots by eye (issue 39, Medium 16): opening, inflow,
    // outflow, closing and the remainder carry as many fraction digits, a plain zero aside.
    const mixed = await web.page.locator('table[aria-label="Roll-forward by token"] > tbody > tr').evaluateAll((rows) =>
      rows
        .map((tr) => [...tr.querySelectorAll('td.num')].slice(0, 5).map((td) => td.textContent!.trim()))
        .filter((cells) => cells.length === 5)
        .filter((cells) => new Set(cells.filter((c) => c !== '0' && c !== '—').map((c) => (/[.](\d+)$/.exec(c)?.[1] ?? '').length)).size > 1),
    );
    expect(mixed).toEqual([]);
    await bothThemes(web.page, 'demo-reconcile');
    expect(web.problems).toEqual([]);
  });

  it('opens, with no period asked, on the last complete one: both ends cached, and complete', async () => {
    await web.open('#/reconcile');
    await poll(() => web.page.getByText(/^Complete\./).count()).toBe(1);
    expect(await web.page.getByText('Incomplete — these figures rest on missing data:').count()).toBe(0);
    // Both ends are cached dates, the closing one a day that has ended.
    const cached = await web.core.call('positions.dates', {});
    const ends = await web.page.locator('#reconcile-from, #reconcile-to').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    expect(ends).toHaveLength(2);
    const badges = web.page.locator('.picker .badge');
    expect(await badges.allTextContents()).toEqual(expect.arrayContaining(['cached']));
    expect(cached.length).toBeGreaterThanOrEqual(2);
    expect(web.problems).toEqual([]);
  });

  it('shows the deposits that open the wallets’ own positions as moves, not flows, and marks them in the trace', async () => {
    const [from, to] = MOVES;
    const r = await web.core.call('reconcile.get', { from, to });
    expect(r.moves.length).toBeGreaterThanOrEqual(4);
    await web.open(`#/reconcile?from=${from}&to=${to}`);
    const summary = web.page.getByTestId('reconcile-verdict');
    await poll(() => summary.textContent()).toContain(`${r.moves.length} transactions opened or closed the wallets' own positions`);
    // The token a loan was drawn in: its row, its move in the trace, named for the position.
    const drawn = r.moves.flatMap((m) => m.transfers.filter((t) => t.move === 'debt_drawn').map((t) => ({ m, t })))[0]!;
    const row = r.rows.find((x) => x.wallet === drawn.m.wallet && x.chain === drawn.m.chain && x.token_cid === drawn.t.token_cid)!;
    expect(row.moved_to_positions_qty).not.toBe(0);
    // In that wallet's scope: the other wallet holds the token on the chain too.
    await web.open(`#/reconcile?wallet=${row.wallet}&from=${from}&to=${to}`);
    const token = web.page.getByRole('button', { name: `${row.token_symbol} on ${chainName(row.chain) ?? row.chain}: show the transactions that moved it` });
    await poll(() => token.count()).toBe(1);
    await token.click();
    const mark = web.page.getByTestId('trace-move');
    await poll(() => mark.count()).toBeGreaterThan(0);
    // Every move of the token is marked, by what it did and the position it went to or came from.
    const want = r.moves.flatMap((m) =>
      m.wallet === row.wallet && m.chain === row.chain
        ? m.transfers
            .filter((t) => t.token_cid === row.token_cid)
            .map(
              (t) =>
                `${{ moved_into_positions: 'into', moved_out_of_positions: 'out of', debt_drawn: 'debt drawn from', debt_repaid: 'debt repaid to' }[t.move]} ${m.position_name}`,
            )
        : [],
    );
    expect(want).toContain(`debt drawn from ${drawn.m.position_name}`);
    expect((await mark.allTextContents()).sort()).toEqual(want.sort());
    await bothThemes(web.page, 'demo-reconcile-moves');
    expect(web.problems).toEqual([]);
  });
});
