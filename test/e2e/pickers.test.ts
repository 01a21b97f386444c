import { describe, expect, it } from 'vitest';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET as A, WALLET_2 as B } from '../support/sim.ts';
import { poll, shootBothThemes, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { bothThemes } from './axe.ts';

/**
 * Issue 39, item 5: rules and filters pick wallets, tokens, counterparties and action types from
 * lists the core searches (`pickers.options`), not comma-separated text: picked here by the
 * keyboard alone (type to narrow, Down, Enter; Backspace, Escape, a chip's × by Shift+Tab and
 * Enter), in the Rules dialog and the timeline's filters, and the rows matched are the core's.
 */
const web = useWebSession({
  viewport: { width: 1024, height: 640 },
  core: { scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 400, now: () => SIM_NOW }), now: () => SIM_NOW },
  clock: SIM_NOW,
  seed: async (core) => {
    await core.call('wallets.add', { address: A, chains: ['eth'], label: 'Ops treasury' });
    await core.call('wallets.add', { address: B, chains: ['eth'], label: 'Cold storage' });
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: A }), await core.call('sync.transactions', { wallet: B })]);
  },
});

const dialog = () => web.page.getByRole('dialog', { name: 'Categories and rules' });
const en = (n: number) => n.toLocaleString('en-US');

describe('pickers, by the keyboard alone', () => {
  it('a rule’s action type and wallet picked from the core’s options; the rule matches what the core says', async () => {
    await web.open('#/timeline');
    await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
    await web.page.getByTestId('open-rules').focus();
    await web.page.keyboard.press('Enter');
    await poll(() => dialog().isVisible()).toBe(true);

    // Action types: "sw" narrows the cache's types to those holding it, as the screens spell them.
    const act = dialog().getByRole('combobox', { name: 'Action types', exact: true });
    await act.focus();
    await web.page.keyboard.type('sw');
    const actList = dialog().getByRole('listbox', { name: 'Action types: options' });
    await poll(() => actList.getByRole('option').allInnerTexts()).toContain('Swap');
    await web.page.keyboard.press('ArrowDown');
    const first = actList.getByRole('option').first();
    expect(await act.getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
    expect(await first.getAttribute('aria-selected')).toBe('true');
    const swap = await first.textContent();
    expect(swap).toBe('Swap');
    await web.page.keyboard.press('Enter');
    const actPicked = dialog().getByRole('list', { name: 'Action types: picked' });
    await poll(() => actPicked.getByRole('listitem').allTextContents()).toEqual(['Swap×']);
    // Typed as shown and added with Enter: stored as the cache holds it; Backspace takes it back.
    await web.page.keyboard.type('Transfer out');
    await web.page.keyboard.press('Enter');
    await poll(() => actPicked.getByRole('listitem').allTextContents()).toEqual(['Swap×', 'Transfer out×']);
    await web.page.keyboard.press('Backspace');
    await poll(() => actPicked.getByRole('listitem').allTextContents()).toEqual(['Swap×']);

    // Wallets: by a part of the label.
    const wallets = dialog().getByRole('combobox', { name: 'Wallets', exact: true });
    await wallets.focus();
    await web.page.keyboard.type('treas');
    const walletList = dialog().getByRole('listbox', { name: 'Wallets: options' });
    await poll(() => walletList.getByRole('option').allInnerTexts()).toEqual([expect.stringContaining('Ops treasury')]);
    await web.page.keyboard.press('ArrowDown');
    await web.page.keyboard.press('Enter');
    const walletPicked = dialog().getByRole('list', { name: 'Wallets: picked' });
    await poll(() => walletPicked.getByRole('listitem').allTextContents()).toEqual(['Ops treasury×']);
    // Escape closes the list, not the dialog; a second clears what is typed.
    await web.page.keyboard.type('co');
    await poll(() => walletList.isVisible()).toBe(true);
    await web.page.keyboard.press('Escape');
    await poll(() => walletList.isVisible()).toBe(false);
    expect(await wallets.getAttribute('aria-expanded')).toBe('false');
    expect(await dialog().isVisible()).toBe(true);
    await web.page.keyboard.press('Escape');
    expect(await wallets.inputValue()).toBe('');
    // An address in no list is added as typed; its chip's × is reached by Shift+Tab and taken by Enter.
    const stranger = '0x2222222222222222222222222222222222222222';
    await web.page.keyboard.type(stranger);
    await web.page.keyboard.press('Enter');
    await poll(() => walletPicked.getByRole('listitem').count()).toBe(2);
    await web.page.keyboard.press('Shift+Tab');
    await poll(() => web.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Remove 0x2222…2222');
    await web.page.keyboard.press('Enter');
    await poll(() => walletPicked.getByRole('listitem').allTextContents()).toEqual(['Ops treasury×']);
    await poll(() => wallets.evaluate((el) => el === document.activeElement)).toBe(true);

    await dialog().getByRole('combobox', { name: 'Action types', exact: true }).focus();
    await web.page.keyboard.type('tra');
    await poll(() => actList.isVisible()).toBe(true);
    // Looked at, and axe-core finds no serious violation with the list open (light and dark).
    await bothThemes(web.page, 'pickers-rule-open');
    await web.page.keyboard.press('Escape');
    await web.page.keyboard.press('Escape');

    const expected = (await web.core.call('rules.preview', { conditions: { actionTypes: ['swap'], wallets: [A] } })).matches;
    expect(expected).toBeGreaterThan(0);
    await dialog().getByRole('button', { name: 'Check matches' }).click();
    await poll(() => dialog().getByTestId('rule-preview').textContent()).toBe(`This rule matches ${en(expected)} cached transactions.`);
    await dialog().getByLabel('Sets category').selectOption({ index: 1 });
    await dialog().getByRole('button', { name: 'Save rule' }).click();
    await poll(async () => (await web.core.call('rules.list', undefined)).length).toBe(1);
    const [rule] = await web.core.call('rules.list', undefined);
    expect(rule!.conditions).toMatchObject({ actionTypes: ['swap'], wallets: [A] });
    // Shown back by name when edited.
    await dialog().getByTestId('rules-table').getByRole('button', { name: /^Edit/ }).first().click();
    await poll(() => dialog().getByRole('list', { name: 'Wallets: picked' }).textContent()).toMatch(/^\s*Ops treasury\s*×\s*$/);
    await poll(() => dialog().getByRole('list', { name: 'Action types: picked' }).textContent()).toMatch(/^\s*Swap\s*×\s*$/);
    await shootBothThemes(web.page, 'pickers-rule');
    // The table says the conditions by name, not as stored: the action as the screens spell it,
    // the wallet by its label (its address whole in the tooltip).
    const cell = dialog().getByTestId('rules-table').locator('tbody tr').first().locator('td').nth(3);
    await poll(() => cell.textContent()).toBe('action Swap; wallet Ops treasury');
    expect(await cell.getAttribute('title')).toBe(A);
    await web.core.call('rules.remove', { id: rule!.id });
    expect(web.problems).toEqual([]);
  });

  it('the rules table names each address, chain and quantity in the UI’s language', async () => {
    const GRANTEE = '0x' + '9e'.repeat(20);
    const UNNAMED = '0x' + '4d'.repeat(20);
    await web.core.call('counterparties.save', { address: GRANTEE, name: 'Grantee X' });
    const {
      rule: { id },
    } = await web.core.call('rules.save', {
      name: 'Grants',
      category: (await web.core.call('categories.list', undefined))[0]!.name,
      conditions: { direction: 'out', counterparties: [GRANTEE, UNNAMED], token: 'USDC', minAmount: 1234.5, chains: ['eth'], status: 'any' },
    });
    try {
      await web.open('#/timeline');
      await web.page.getByTestId('open-rules').click();
      const cell = dialog().getByTestId('rules-table').locator('tbody tr').first().locator('td').nth(3);
      await poll(() => cell.textContent()).toBe('outflow; counterparty Grantee X or 0x4d4d…4d4d; token USDC at least 1,234.5; on Ethereum; any status');
      expect(await cell.getAttribute('title')).toBe(`${GRANTEE}, ${UNNAMED}`);
      await web.core.call('settings.update', { locale: 'de-DE' });
      await web.open('#/timeline');
      await web.page.getByTestId('open-rules').click();
      const german = web.page
        .getByRole('dialog', { name: 'Kategorien und Regeln' })
        .getByTestId('rules-table')
        .locator('tbody tr')
        .first()
        .locator('td')
        .nth(3);
      await poll(() => german.textContent()).toBe('Abfluss; Gegenpartei Grantee X oder 0x4d4d…4d4d; Token USDC mindestens 1.234,5; auf Ethereum; jeder Status');
    } finally {
      await web.core.call('settings.update', { locale: 'en-US' });
      await web.core.call('rules.remove', { id });
    }
    expect(web.problems).toEqual([]);
  });

  it('the timeline filtered to several action types and a token picked by the keyboard: the rows the core counts', async () => {
    await web.open('#/timeline');
    await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
    const count = () => web.page.locator('.meta').textContent();

    const act = web.page.getByRole('combobox', { name: 'Action type', exact: true });
    await act.focus();
    await web.page.keyboard.type('swa');
    await poll(() => web.page.getByRole('listbox', { name: 'Action type: options' }).getByRole('option').allInnerTexts()).toEqual(['Swap']);
    await web.page.keyboard.press('ArrowDown');
    await web.page.keyboard.press('Enter');
    await poll(() => web.page.url()).toContain('action=swap');
    const swaps = await web.core.call('timeline.count', { actionTypes: ['swap'] });
    await poll(count).toContain(`${en(swaps)} transactions match`);
    const rows = await web.page.locator('[role=row].txn').allTextContents();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((t) => t.includes('Swap'))).toBe(true);

    // A second type, typed as the screens spell it: both kept in the URL, and the count is both's.
    await web.page.keyboard.type('transfer out');
    await web.page.keyboard.press('Enter');
    await poll(() => decodeURIComponent(web.page.url())).toContain('action=swap,transfer_out');
    const both = await web.core.call('timeline.count', { actionTypes: ['swap', 'transfer_out'] });
    expect(both).toBeGreaterThan(swaps);
    await poll(count).toContain(`${en(both)} transactions match`);

    // A token a swap moved, picked by the start of its symbol.
    const page = await web.core.call('timeline.page', { actionTypes: ['swap'], limit: 20 });
    const symbol = page.rows.flatMap((r) => r.details.map((d) => d.symbol)).find((s): s is string => !!s && /^[A-Za-z]{3,}$/.test(s))!;
    const token = web.page.getByRole('combobox', { name: 'Token', exact: true });
    await token.focus();
    await web.page.keyboard.type(symbol.slice(0, 3));
    const tokenList = web.page.getByRole('listbox', { name: 'Token: options' });
    await poll(() => tokenList.getByRole('option').allInnerTexts()).toContain(symbol);
    const at = (await tokenList.getByRole('option').allInnerTexts()).indexOf(symbol);
    for (let i = 0; i <= at; i++) await web.page.keyboard.press('ArrowDown');
    await bothThemes(web.page, 'pickers-timeline-open');
    await web.page.keyboard.press('Enter');
    await poll(() => decodeURIComponent(web.page.url())).toContain(`token=${symbol}`);
    const withToken = await web.core.call('timeline.count', { actionTypes: ['swap', 'transfer_out'], tokens: [symbol] });
    expect(withToken).toBeGreaterThan(0);
    await poll(count).toContain(`${en(withToken)} transaction${withToken === 1 ? '' : 's'} match`);
    await shootBothThemes(web.page, 'pickers-timeline');

    // Backspace in the empty action field takes transfer_out back.
    await act.focus();
    await web.page.keyboard.press('Backspace');
    await poll(() => web.page.url()).not.toContain('transfer_out');
    const swapsWithToken = await web.core.call('timeline.count', { actionTypes: ['swap'], tokens: [symbol] });
    await poll(count).toContain(`${en(swapsWithToken)} transaction${swapsWithToken === 1 ? '' : 's'} match`);
    expect(web.problems).toEqual([]);
  });

  it('an outflow alert’s token: one choice, picked by the keyboard among the cache’s symbols', async () => {
    await web.open('#/timeline');
    await web.page.getByRole('button', { name: /^Alerts/ }).click();
    const rules = web.page.getByRole('dialog', { name: 'Alerts' }).getByRole('region', { name: 'Rules' });
    await rules.getByLabel('When').selectOption('outflow');
    const token = rules.getByRole('combobox', { name: 'Token symbol' });
    const picked = rules.getByRole('list', { name: 'Token symbol: picked' });
    await poll(() => picked.getByRole('listitem').allTextContents()).toEqual(['USDC×']);
    await token.focus();
    await web.page.keyboard.type('wet');
    await poll(() => rules.getByRole('listbox', { name: 'Token symbol: options' }).getByRole('option').allInnerTexts()).toEqual(['WETH']);
    await web.page.keyboard.press('ArrowDown');
    await bothThemes(web.page, 'pickers-alert-open');
    await web.page.keyboard.press('Enter');
    // A single choice: the new pick replaces the old.
    await poll(() => picked.getByRole('listitem').allTextContents()).toEqual(['WETH×']);
    await rules.getByLabel('Quantity').fill('5');
    await rules.getByRole('button', { name: 'Add rule' }).click();
    await poll(async () => (await web.core.call('alerts.rules', {})).map((r) => r.condition)).toEqual([{ kind: 'outflow', symbol: 'WETH', above: 5 }]);
    expect(web.problems).toEqual([]);
  });
});
