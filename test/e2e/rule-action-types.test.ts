import { describe, expect, it } from 'vitest';
import { waitForJobs } from '../support/jobs.ts';
import { WALLET } from '../support/sim.ts';
import { poll, shootBothThemes, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Issue 39, item 3: a category rule's action type typed as the screens show it ("Swap") matched
 * no transaction while "swap" matched them all, and the rule failed silently. In the Rules
 * dialog the shown spelling matches as the stored one does, a saved rule is shown back in that
 * spelling, and a type no transaction has is said with the known ones.
 */
const web = useWebSession({
  viewport: { width: 1280, height: 800 },
  core: { scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 600 }) },
  seed: async (core) => {
    await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
  },
});

const dialog = () => web.page.getByRole('dialog', { name: 'Categories and rules' });
const preview = () => dialog().getByTestId('rule-preview');

async function openRules() {
  await web.open('#/timeline');
  await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
  await web.page.getByTestId('open-rules').click();
  await poll(() => dialog().isVisible()).toBe(true);
}

/** The action types picked: the chips there taken back, then each typed and added with Enter. */
async function pick(...types: string[]) {
  const chips = dialog()
    .getByRole('list', { name: 'Action types: picked' })
    .getByRole('button', { name: /^Remove / });
  while (await chips.count()) await chips.first().click();
  const field = dialog().getByLabel('Action types', { exact: true });
  for (const t of types) {
    await field.fill(t);
    await field.press('Enter');
  }
}

async function check(actionTypes: string) {
  await pick(actionTypes);
  await dialog().getByRole('button', { name: 'Check matches' }).click();
  await poll(() => preview().textContent()).not.toMatch(/^(Counting…)?$/);
  return (await preview().textContent()) ?? '';
}

describe('a rule’s action type as the screens spell it', () => {
  it('"Swap" matches what "swap" matches; a type no transaction has is said, with the known ones', async () => {
    const swaps = (await web.core.call('rules.preview', { conditions: { actionTypes: ['swap'] } })).matches;
    expect(swaps).toBeGreaterThan(0);
    const expected = `This rule matches ${swaps.toLocaleString('en-US')} cached transactions.`;
    await openRules();
    expect(await check('Swap')).toBe(expected);
    expect(await check('SWAP')).toBe(expected);
    const said = await check('Swop');
    expect(said).toMatch(/^This rule matches 0 cached transactions\. No transaction has action type Swop; known: .*\bSwap\b/);
    expect(web.problems).toEqual([]);
  });

  it('a rule saved as "Swap" categorises the swaps and is shown back as "Swap"', async () => {
    const swaps = (await web.core.call('rules.preview', { conditions: { actionTypes: ['swap'] } })).matches;
    await openRules();
    await pick('Swap');
    await dialog().getByLabel('Sets category').selectOption({ index: 1 });
    await dialog().getByRole('button', { name: 'Save rule' }).click();
    await poll(async () => (await web.core.call('rules.list', undefined)).length).toBe(1);
    const [rule] = await web.core.call('rules.list', undefined);
    expect(rule!.conditions.actionTypes).toEqual(['swap']);
    const applied = await web.core.call('rules.apply', undefined);
    expect(applied.categorised).toBe(swaps);
    await dialog().getByTestId('rules-table').getByRole('button', { name: /^Edit/ }).first().click();
    await poll(() => dialog().getByRole('list', { name: 'Action types: picked' }).textContent()).toMatch(/^\s*Swap\s*×\s*$/);
    expect(web.problems).toEqual([]);
  });

  it('picks from lists, not comma-separated text: a type chosen among the cache’s, a chain by its name, a wallet by its label; the keyboard takes one back', async () => {
    await openRules();
    const act = dialog().getByLabel('Action types', { exact: true });
    // The options are the cache's action types as the screens spell them (searched in the core).
    const facets = await web.core.call('timeline.facets', {});
    await act.focus();
    await act.press('ArrowDown');
    const listbox = dialog().getByRole('listbox', { name: 'Action types: options' });
    await poll(() => listbox.getByRole('option').count()).toBe(Math.min(facets.actionTypes.length, 20));
    expect(await listbox.getByRole('option').allInnerTexts()).toContain('Swap');
    await act.press('Escape');
    await pick('Swap', 'transfer_out');
    const picked = dialog().getByRole('list', { name: 'Action types: picked' });
    await poll(() => picked.getByRole('listitem').allTextContents()).toEqual(['Swap×', 'Transfer out×']);
    // Backspace in the empty field takes the last one back; a comma adds as Enter does.
    await act.press('Backspace');
    await poll(() => picked.getByRole('listitem').count()).toBe(1);
    const chains = dialog().getByLabel('Chains', { exact: true });
    await chains.fill('Ethereum');
    await chains.press(',');
    const wallets = dialog().getByLabel('Wallets', { exact: true });
    await wallets.fill(WALLET.toUpperCase().replace('0X', '0x'));
    // Typed and not added: leaving the field adds it (never silently dropped).
    await wallets.press('Tab');
    await dialog().getByLabel('Sets category').selectOption({ index: 1 });
    await poll(() => dialog().getByRole('list', { name: 'Wallets: picked' }).getByRole('listitem').count()).toBe(1);
    await picked.scrollIntoViewIfNeeded();
    await shootBothThemes(web.page, 'rule-pickers');
    // The rule this saves: the one not there before (the first test's rule is kept, so "any rule" is true at once).
    const before = new Set((await web.core.call('rules.list', undefined)).map((r) => r.id));
    await dialog().getByRole('button', { name: 'Save rule' }).click();
    await poll(async () => (await web.core.call('rules.list', undefined)).filter((r) => !before.has(r.id)).length).toBe(1);
    const rule = (await web.core.call('rules.list', undefined)).find((r) => !before.has(r.id))!;
    expect(rule.conditions.actionTypes).toEqual(['swap']);
    expect(rule.conditions.chains).toEqual(['eth']);
    expect(rule.conditions.wallets?.map((a) => a.toLowerCase())).toEqual([WALLET.toLowerCase()]);
    await web.core.call('rules.remove', { id: rule.id });
    expect(web.problems).toEqual([]);
  });

  it('saves what was typed into a picker and left by the click on Save, however slow the core is to find it', async () => {
    await openRules();
    await pick('Swap');
    // The core is slow to find the wallet typed (its answer held back): Save is clicked at once.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await web.page.route('**/pickers.options', async (route) => {
      await held;
      // A search the picker gave up on (a newer one asked) is already gone.
      await route.continue().catch(() => undefined);
    });
    const before = new Set((await web.core.call('rules.list', undefined)).map((r) => r.id));
    try {
      await dialog().getByLabel('Sets category').selectOption({ index: 1 });
      const wallets = dialog().getByLabel('Wallets', { exact: true });
      await wallets.fill(WALLET.toUpperCase().replace('0X', '0x'));
      // Its list closed (the text stays), so Save is in reach; the click leaves the field.
      await wallets.press('Escape');
      await dialog().getByRole('button', { name: 'Save rule' }).click();
      // Nothing is saved while the typed wallet is still being found.
      expect((await web.core.call('rules.list', undefined)).filter((r) => !before.has(r.id))).toEqual([]);
      release();
      await poll(async () => (await web.core.call('rules.list', undefined)).filter((r) => !before.has(r.id)).length).toBe(1);
    } finally {
      release();
      await web.page.unroute('**/pickers.options');
    }
    const rule = (await web.core.call('rules.list', undefined)).find((r) => !before.has(r.id))!;
    expect(rule.conditions.wallets?.map((a) => a.toLowerCase())).toEqual([WALLET.toLowerCase()]);
    await web.core.call('rules.remove', { id: rule.id });
    expect(web.problems).toEqual([]);
  });

  it('looked at: the preview saying an unknown type, 1024×640 and 1440×900, light and dark', async () => {
    for (const [w, h] of [
      [1024, 640],
      [1440, 900],
    ] as const) {
      await web.page.setViewportSize({ width: w, height: h });
      await openRules();
      await check('Swop');
      await preview().scrollIntoViewIfNeeded();
      await shootBothThemes(web.page, `rule-action-types-${w}x${h}`);
    }
  });
});
