import { describe, expect, it } from 'vitest';
import { demoStarter } from '../../src/sim/demo.ts';
import { SIM_NOW } from '../support/sim.ts';
import { useWebSession } from '../support/web-session.ts';
import { bothThemes } from './axe.ts';

/**
 * Many wallets edited in one step in Chromium (issue 40, item 1): "Edit many…" under the wallet
 * list picks wallets through a filter, applies one change to all of them (the core's one
 * transaction), says what it did, and refuses a change it cannot apply with nothing changed.
 */
const web = useWebSession({
  viewport: { width: 1024, height: 800 },
  core: { demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0 },
  timeout: 120_000,
});

const addr = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;

describe('editing many wallets', { timeout: 120_000 }, () => {
  it('picks wallets by a filter, tags them, moves them into a group, refuses leaving one on no chain, and stops watching them', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `${addr(i + 1)},${i < 10 ? 'Ops' : 'Grants'} ${i + 1},eth${i % 3 ? ';arb' : ''},,`);
    await web.core.request('wallets.import', { text: ['address,label,chains,tags,groups', ...lines].join('\n') });
    const fund = await web.core.request('groups.save', { name: 'Fund I', wallets: [] });
    await web.open();
    const page = web.page;
    // At 1,024 px the wallet list starts folded: opened as a user would.
    await page.getByRole('button', { name: 'Show the wallet list' }).click();
    await page.getByRole('button', { name: 'Edit many…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit many wallets' });
    await expect.poll(() => dialog.isVisible()).toBe(true);

    await dialog.getByLabel('Find wallets').fill('ops');
    await expect.poll(() => dialog.getByRole('checkbox').count()).toBe(10);
    await dialog.getByRole('button', { name: 'Pick all shown' }).click();
    await expect.poll(() => dialog.getByTestId('bulk-picked').textContent()).toBe('10 of 30 picked');
    await dialog.getByLabel('Change').selectOption({ label: 'Add a tag' });
    await dialog.getByLabel('Tag').fill('audited');
    await dialog.getByRole('button', { name: 'Apply to 10 wallets' }).click();
    await expect.poll(() => dialog.getByTestId('bulk-outcome').textContent()).toBe('10 wallets changed.');
    const wallets = await web.core.call('wallets.list', undefined);
    expect(wallets.filter((w) => w.tags.includes('audited')).map((w) => w.label)).toEqual(Array.from({ length: 10 }, (_, i) => `Ops ${i + 1}`));

    await dialog.getByLabel('Change').selectOption({ label: 'Add to a group' });
    await dialog.getByLabel('Group').selectOption({ label: 'Fund I' });
    await dialog.getByRole('button', { name: 'Apply to 10 wallets' }).click();
    await expect.poll(() => dialog.getByTestId('bulk-outcome').textContent()).toBe('1 group changed.');
    expect((await web.core.call('groups.list', undefined)).find((g) => g.id === fund.id)!.wallets).toHaveLength(10);
    await bothThemes(page, 'wallet-bulk-edit');

    // Ops 1, 4, 7 and 10 are on eth alone: taking eth away is refused for all ten, nothing changed.
    const before = await web.core.call('wallets.list', undefined);
    await dialog.getByLabel('Change').selectOption({ label: 'Stop watching on a chain' });
    await dialog.getByLabel('Chain').selectOption({ value: 'eth' });
    await dialog.getByRole('button', { name: 'Apply to 10 wallets' }).click();
    await expect.poll(() => dialog.getByTestId('bulk-outcome').textContent()).toMatch(/would be left on no chain\. Nothing was changed\.$/);
    expect(await web.core.call('wallets.list', undefined)).toEqual(before);

    await dialog.getByLabel('Change').selectOption({ label: 'Stop watching them' });
    await dialog.getByRole('button', { name: 'Apply to 10 wallets' }).click();
    await expect.poll(() => dialog.getByTestId('bulk-outcome').textContent()).toBe('Stopped watching 10 wallets.');
    expect(await web.core.call('wallets.list', undefined)).toHaveLength(20);
    await expect.poll(() => dialog.getByTestId('bulk-picked').textContent()).toBe('0 of 20 picked');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    const sidebar = page.getByRole('navigation', { name: 'Wallets' });
    await expect.poll(() => sidebar.getByText('Ops 1', { exact: true }).count()).toBe(0);
    expect(web.problems).toEqual([]);
  });
});
