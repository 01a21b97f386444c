import { describe, expect, it } from 'vitest';
import { shoot } from '../support/browser.ts';
import { poll, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Every main task by keyboard only: after the page loads, no test below clicks. Focus is
 * found by pressing Tab (with a bound on the presses), and every step waits for a state.
 */
const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const B = '0x00000000219ab540356cbb839cbe05303d7705fa';
const web = useWebSession({ viewport: { width: 1360, height: 860 }, core: { demo: demoStarter({ txnsPerWallet: 400 }) } });

/** What has the focus: its role, accessible name (aria-label or text) and a few states. */
const focused = () =>
  web.page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { role: 'body', name: '', expanded: null as string | null, id: '' };
    const role =
      el.getAttribute('role') ??
      (el.tagName === 'A'
        ? 'link'
        : el.tagName === 'BUTTON'
          ? 'button'
          : el.tagName === 'INPUT'
            ? 'textbox'
            : el.tagName === 'SELECT'
              ? 'combobox'
              : el.tagName.toLowerCase());
    return {
      role,
      name: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' '),
      expanded: el.getAttribute('aria-expanded'),
      id: el.id,
    };
  });

/** Presses Tab until the focus is on a control with this role and name; returns the presses. */
async function tabTo(role: string, name: RegExp, max = 40): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await web.page.keyboard.press('Tab');
    const f = await focused();
    if (f.role === role && name.test(f.name)) return i;
  }
  throw new Error(`no ${role} ${name} within ${max} Tab presses (focus: ${JSON.stringify(await focused())})`);
}

describe('every main task by keyboard only', { timeout: 60_000 }, () => {
  it('offers “Skip to content” on the first Tab, and it moves focus to the main area', async () => {
    await web.page.goto(web.shell.url);
    await expect.poll(() => web.page.getByRole('heading', { name: 'Watch a wallet to begin' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await web.page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ role: 'link', name: 'Skip to content' });
    // Visible when focused (not a hidden link).
    const box = await web.page.getByRole('link', { name: 'Skip to content' }).boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    await web.page.keyboard.press('Enter');
    await poll(async () => (await focused()).id).toBe('main');
  });

  it('adds a wallet from the first-run screen', async () => {
    await tabTo('button', /^Add wallet…$/);
    await web.page.keyboard.press('Enter');
    const dialog = web.page.getByRole('dialog', { name: 'Add wallet' });
    await poll(() => dialog.isVisible()).toBe(true);
    // The dialog opens on the address field (its name comes from its <label>), not on ✕.
    await poll(() => web.page.evaluate(() => document.activeElement?.id)).toBe('wallet-address');
    await web.page.keyboard.type(A);
    await web.page.keyboard.press('Tab');
    await web.page.keyboard.type('Treasury');
    await web.page.keyboard.press('Enter');
    await poll(() => dialog.isVisible()).toBe(false);
    await poll(() => web.page.getByRole('link', { name: /Treasury/ }).isVisible()).toBe(true);
    await expect.poll(() => web.page.getByTestId('total-nav').textContent(), { timeout: 20_000 }).toMatch(/\d/);
  });

  it('opens the shortcuts with ?, and Escape returns focus where it was', async () => {
    await web.core.call('wallets.add', { address: B, chains: ['eth'], label: 'Cold storage' });
    await expect.poll(() => web.page.getByRole('link', { name: /Cold storage/ }).isVisible(), { timeout: 10_000 }).toBe(true);
    await tabTo('button', /^Keyboard shortcuts$/);
    await web.page.keyboard.press('Escape'); // nothing open: harmless
    await web.page.keyboard.press('?');
    const dialog = web.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.textContent()).toContain('Open its detail');
    await web.page.keyboard.press('Escape');
    await poll(() => dialog.isVisible()).toBe(false);
    expect((await focused()).name).toBe('Keyboard shortcuts');
  });

  it('moves through the wallet list with the arrows (one Tab stop), selecting as it goes', async () => {
    await web.page.keyboard.press('Shift+Tab');
    // From the header, back into the wallet list: the selected wallet is its one Tab stop.
    for (let i = 0; i < 12 && (await focused()).role !== 'link'; i++) await web.page.keyboard.press('Shift+Tab');
    expect((await focused()).name).toMatch(/Treasury/);
    await web.page.keyboard.press('ArrowDown');
    await poll(async () => (await focused()).name).toMatch(/Cold storage/);
    await poll(() => web.page.url()).toContain(`wallet=${B}`);
    await web.page.keyboard.press('Home');
    await poll(async () => (await focused()).name).toMatch(/^All wallets/);
    await poll(() => web.page.url()).not.toContain('wallet=');
    await web.page.keyboard.press('ArrowDown');
    await poll(() => web.page.url()).toContain(`wallet=${A}`);
  });

  it('switches views with the arrow keys on the tabs', async () => {
    await tabTo('tab', /^Overview$/);
    await web.page.keyboard.press('ArrowRight');
    await poll(() => web.page.getByRole('tab', { name: 'Positions' }).getAttribute('aria-selected')).toBe('true');
    expect((await focused()).name).toBe('Positions');
  });

  it('expands a position with Enter and moves between positions with the arrows', async () => {
    await tabTo('button', /^Underlying tokens of/);
    const first = (await focused()).name;
    await web.page.keyboard.press('Enter');
    await poll(async () => (await focused()).expanded).toBe('true');
    await poll(() => web.page.locator('table.inner').count()).toBe(1);
    await web.page.keyboard.press('ArrowDown');
    await poll(async () => (await focused()).name).not.toBe(first);
    expect((await focused()).name).toMatch(/^Underlying tokens of/);
    // One Tab stop for the table: Tab leaves it.
    await web.page.keyboard.press('Tab');
    expect((await focused()).name).not.toMatch(/^Underlying tokens of/);
  });

  it('opens the Export menu, moves in it, and Escape closes it back onto its button', async () => {
    await web.page.keyboard.press('Shift+Tab');
    for (let i = 0; i < 30 && !/^Export/.test((await focused()).name); i++) await web.page.keyboard.press('Shift+Tab');
    await web.page.keyboard.press('Enter');
    await poll(async () => (await focused()).role).toBe('menuitem');
    const first = (await focused()).name;
    await web.page.keyboard.press('ArrowDown');
    await poll(async () => (await focused()).name).not.toBe(first);
    await web.page.keyboard.press('Escape');
    await poll(() => web.page.getByRole('menu').count()).toBe(0);
    expect((await focused()).name).toMatch(/^Export/);
    // Open again: a change of view (here by its shortcut) closes it.
    await web.page.keyboard.press('Enter');
    await poll(async () => (await focused()).role).toBe('menuitem');
  });

  it('reaches the first transaction in a few Tabs; arrows move, Enter opens, Escape returns to the row', async () => {
    await web.page.keyboard.press('Alt+3');
    await expect.poll(() => web.page.locator('[role=row].txn').count(), { timeout: 20_000 }).toBeGreaterThan(5);
    expect(await web.page.getByRole('menu').count()).toBe(0);
    // The Positions view (and its Export button, which had the focus) is gone: Tab starts from the top.
    await tabTo('tab', /^Timeline$/);
    const presses = await tabTo('row', /./);
    expect(presses).toBeLessThanOrEqual(16);
    const first = (await focused()).id;
    await web.page.keyboard.press('ArrowDown');
    await poll(async () => (await focused()).id).not.toBe(first);
    const second = (await focused()).id;
    expect(second).toMatch(/^txn-row-/);
    // The arrow moved the focus only: no detail opened.
    expect(await web.page.getByRole('dialog', { name: 'Transaction detail' }).count()).toBe(0);
    await web.page.keyboard.press('Enter');
    const drawer = web.page.getByRole('dialog', { name: 'Transaction detail' });
    await poll(() => drawer.isVisible()).toBe(true);
    await poll(() => web.page.evaluate(() => !!document.activeElement?.closest('[aria-label="Transaction detail"]'))).toBe(true);
    await shoot(web.page, 'keyboard-timeline-detail');
    await web.page.keyboard.press('Escape');
    await poll(() => drawer.count()).toBe(0);
    await poll(async () => (await focused()).id).toBe(second);
  });

  it('opens Settings with Enter and Escape returns focus to its button', async () => {
    await tabTo('button', /^Settings$/);
    await web.page.keyboard.press('Enter');
    const dialog = web.page.getByRole('dialog', { name: 'Settings' });
    await poll(() => dialog.isVisible()).toBe(true);
    await web.page.keyboard.press('Escape');
    await poll(() => dialog.isVisible()).toBe(false);
    expect((await focused()).name).toBe('Settings');
  });

  it('Alt+L takes the as-of date to the latest cached date of the scope, from an uncached one', async () => {
    expect((await web.core.call('positions.dates', {})).length).toBeGreaterThan(0);
    await web.open('#/overview?date=2024-01-02');
    const field = web.page.locator('#as-of-date');
    await poll(() => field.inputValue()).toBe('01/02/2024');
    await web.page.locator('main').focus();
    // Pressed until the app's cached dates are loaded (a sync may add today's while the page
    // loads): then the field shows the latest the core has, and the route names it.
    await poll(async () => {
      await web.page.keyboard.press('Alt+L');
      const [y, m, d] = (await web.core.call('positions.dates', {}))[0]!.split('-');
      return (await field.inputValue()) === `${m}/${d}/${y}`;
    }).toBe(true);
    await poll(() => web.page.evaluate(() => location.hash)).toMatch(/date=\d{4}-\d{2}-\d{2}/);
    expect(await web.page.evaluate(() => location.hash)).not.toContain('date=2024-01-02');
  });

  it('had no page errors', () => {
    expect(web.problems).toEqual([]);
  });
});
