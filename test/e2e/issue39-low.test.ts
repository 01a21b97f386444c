import { describe, expect, it } from 'vitest';
import { poll, settled, shootBothThemes, TREASURY, useTreasurySession } from '../support/web-session.ts';

/**
 * Issue 39, the "Low" list: small things a review of the screens found, each checked where it
 * was seen, on the demo's treasury and cold wallet (today pinned to SIM_NOW by the session).
 */
const web = useTreasurySession({ txnsPerWallet: 200 });

/** Opens a route and waits until its view has loaded. */
async function show(route: string): Promise<void> {
  await web.open(route);
  await poll(() => web.page.evaluate(() => location.hash)).toBe(route);
  await settled(web.page);
}

/** The minus sign the shared number formatter (Intl, in the page's locale) writes. */
const formatterMinus = () =>
  web.page.evaluate(() => new Intl.NumberFormat(document.documentElement.lang || undefined).formatToParts(-1).find((p) => p.type === 'minusSign')!.value);

describe('one minus sign on every screen', () => {
  it('the timeline, Reconcile, the monthly pack and Liquidity write a negative figure with the formatter’s sign', async () => {
    await web.page.setViewportSize({ width: 1440, height: 900 });
    await show('#/timeline');
    const minus = await formatterMinus();
    // Any minus sign but the formatter's, before a figure (a formula's "1 − 1/H" has a space: not a figure's sign).
    const other = new RegExp(`[${['-', '\u2212'].filter((m) => m !== minus).join('')}]\\$?\\d`, 'u');
    const own = new RegExp(`${minus}\\$?\\d`, 'u');

    await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
    const moved = await web.page.locator('[role=row].txn').evaluateAll((rows) => rows.map((r) => r.textContent ?? ''));
    // Something went out: the timeline says so with the formatter's minus, and no other.
    expect(moved.some((t) => own.test(t))).toBe(true);
    expect(moved.filter((t) => other.test(t))).toEqual([]);

    for (const route of ['#/reconcile', '#/pack', '#/positions?view=liquidity', '#/overview', '#/risk']) {
      await show(route);
      const text = await web.page.locator('main').innerText();
      expect(text.match(new RegExp(other, 'gu')) ?? [], route).toEqual([]);
    }

    // Reconcile's outflows, red, are negative figures of the formatter.
    await show('#/reconcile');
    // Its table's rows come with the reconciliation's answer: waited for, not read at once.
    await poll(() => web.page.locator('main tbody td.neg').count()).toBeGreaterThan(0);
    const outflows = await web.page.locator('main tbody td.neg').allTextContents();
    expect(outflows.length).toBeGreaterThan(0);
    expect(outflows.filter((t) => !t.trim().startsWith(minus))).toEqual([]);
    expect(web.problems).toEqual([]);
  });

  it('looked at: the timeline and Reconcile with their negative figures, light and dark', async () => {
    await web.page.setViewportSize({ width: 1440, height: 900 });
    await show('#/timeline');
    await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
    await shootBothThemes(web.page, 'low-minus-timeline');
    await show('#/reconcile');
    await shootBothThemes(web.page, 'low-minus-reconcile');
  });
});

describe('a chain by its name', () => {
  /**
   * The page's text a person reads, but a chain filter's options (they name the id beside the
   * name, on purpose) and the monthly pack's reasons, the core's sentences shared with the PDF,
   * the CLI and a close (left as they are).
   */
  const readText = (selector: string) =>
    web.page.locator(selector).evaluate((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('select, script, style, [data-testid=pack-verdict] li, #close-blocked').forEach((e) => e.remove());
      return copy.textContent ?? '';
    });
  // The demo's chains by id, as the data and an identifier's label ("Eth") would write them.
  const IDS = /\b(eth|Eth|arb|Arb)\b/g;

  it('the sidebar, Overview, Positions, Risk, Reconcile, the monthly pack and the timeline name eth "Ethereum" and arb "Arbitrum One"', async () => {
    await web.page.setViewportSize({ width: 1440, height: 900 });
    await show('#/overview');
    expect(await web.page.locator('nav.sidebar .badge').allTextContents()).toEqual(['Ethereum', 'Arbitrum One', 'Ethereum']);
    for (const route of [
      '#/overview',
      '#/positions',
      '#/positions?view=underlying',
      '#/positions?view=liquidity',
      '#/risk',
      '#/reconcile',
      '#/pack',
      '#/timeline',
    ]) {
      await show(route);
      await poll(() => web.page.locator('main td, main [role=gridcell]').count()).toBeGreaterThan(0);
      const text = await readText('main');
      expect(
        [...text.matchAll(IDS)].map((m) => text.slice(m.index - 30, m.index + 30)),
        route,
      ).toEqual([]);
    }
    // The pack's chains, as its By chain table names them.
    await show('#/pack');
    await poll(() => web.page.getByTestId('pack-chains').locator('tbody tr').count()).toBeGreaterThan(0);
    const chains = (await web.page.getByTestId('pack-chains').locator('tbody td:first-child').allTextContents()).map((t) => t.trim());
    expect(chains.sort()).toEqual(['Arbitrum One', 'Ethereum']);
    expect(web.problems).toEqual([]);
  });

  it('looked at: the monthly pack at 1024×640, the sidebar and Positions at 1440×900, chains by name, light and dark', async () => {
    await web.page.setViewportSize({ width: 1024, height: 640 });
    await show('#/pack');
    await poll(() => web.page.getByTestId('pack-chains').locator('tbody tr').count()).toBeGreaterThan(0);
    await web.page.getByTestId('pack-chains').scrollIntoViewIfNeeded();
    await shootBothThemes(web.page, 'low-chains-pack');
    // The sidebar, open at 1440: each wallet's chains by name.
    await web.page.setViewportSize({ width: 1440, height: 900 });
    await show('#/positions');
    await shootBothThemes(web.page, 'low-chains-positions');
  });
});

describe('a status on every timeline row', () => {
  /** Each timeline row shown: its id and the words of its status cell that show (not a restated badge, not text for screen readers only). */
  const statuses = () =>
    web.page.locator('[role=row].txn').evaluateAll((els) =>
      els.map((e) => {
        const mark = [...e.querySelectorAll<HTMLElement>('.status > *')].find((m) => !m.classList.contains('sr-only') && m.dataset['testid'] !== 'restated');
        // Visible words: laid out, not clipped to nothing.
        return { id: e.id, text: mark && mark.offsetWidth > 1 ? mark.textContent!.trim() : '' };
      }),
    );

  it('a succeeded row says "Succeeded", a failed one "Failed", in visible words, as the core has them', async () => {
    await web.page.setViewportSize({ width: 1440, height: 900 });
    const rows = (await web.core.call('timeline.page', { wallet: TREASURY, limit: 600 })).rows;
    const expected = new Map(rows.map((r) => [`txn-row-${r.id}`, r.status === 0 ? 'Failed' : r.status === 1 ? 'Succeeded' : 'Unknown']));
    // The demo has both.
    expect(new Set(expected.values())).toEqual(new Set(['Failed', 'Succeeded']));
    for (const [filter, word] of [
      ['', null],
      ['&status=1', 'Succeeded'],
      ['&status=0', 'Failed'],
    ] as const) {
      await web.open(`#/timeline?wallet=${TREASURY}${filter}`);
      await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(0);
      await settled(web.page);
      const shown = await statuses();
      for (const { id, text } of shown) expect(text, id).toBe(expected.get(id));
      if (word) expect(new Set(shown.map((s) => s.text))).toEqual(new Set([word]));
    }
    expect(web.problems).toEqual([]);
  });

  it('looked at: the timeline with every status, 1024×640 and 1440×900, light and dark', async () => {
    await web.open('#/timeline');
    for (const [w, h] of [
      [1024, 640],
      [1440, 900],
    ] as const) {
      await web.page.setViewportSize({ width: w, height: h });
      await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
      await shootBothThemes(web.page, `low-status-timeline-${w}x${h}`);
    }
    await web.open(`#/timeline?wallet=${TREASURY}&status=0`);
    await poll(() => web.page.locator('[role=row].txn.failed').count()).toBeGreaterThan(0);
    await shootBothThemes(web.page, 'low-status-timeline-failed');
  });
});

describe('the export notice names a wallet by its label', () => {
  // Its address only when it has none (transactionsCoverage, test/unit/export-to-today.test.ts).
  it('an export of the Treasury’s transactions says "Treasury" where it names the wallet, never its address', async () => {
    await web.page.setViewportSize({ width: 1440, height: 900 });
    await web.open(`#/timeline?wallet=${TREASURY}`);
    await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(0);
    await web.page.getByRole('button', { name: 'Export ▾' }).click();
    await web.page.getByRole('menuitem', { name: 'Transactions (CSV)', exact: true }).click();
    const notice = web.page.locator('.notice');
    await poll(() => notice.textContent()).toMatch(/Downloaded folioscope-transactions/);
    // The demo's last sync ends before the period does: the notice says whose transactions are incomplete.
    const text = (await notice.textContent())!;
    expect(text).toMatch(/Its transactions are incomplete/);
    // The file's name keeps the address (a file name, not words): the rest names the wallet by its label.
    const words = text.replace(/folioscope-[\w.-]+\.csv/, '');
    expect(words).toContain('Treasury · eth: ');
    expect(words.toLowerCase()).not.toContain(TREASURY.slice(0, 10));
    await shootBothThemes(web.page, 'low-export-notice');
    expect(web.problems).toEqual([]);
  });
});

describe('placeholders read whole', () => {
  /** Each shown input whose placeholder is wider than the room inside it: its placeholder, and how many pixels are cut. */
  const cutPlaceholders = () =>
    web.page.evaluate(() => {
      const ctx = document.createElement('canvas').getContext('2d')!;
      return [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[placeholder], textarea[placeholder]')]
        .filter((el) => el.offsetWidth > 0 && !el.value)
        .map((el) => {
          const cs = getComputedStyle(el);
          ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
          const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
          // A search field's clear button takes room at its end in Chromium, so leaves less for the words.
          const text = ctx.measureText(el.placeholder).width + (el.type === 'search' ? 16 : 0);
          return { placeholder: el.placeholder, cut: Math.ceil(text - room) };
        })
        .filter((p) => p.cut > 0);
    });

  for (const [w, h] of [
    [1024, 640],
    [1440, 900],
  ] as const)
    it(`at ${w}×${h}: the timeline, Positions, the address book, Reconcile, the monthly pack and the settings dialog`, async () => {
      await web.page.setViewportSize({ width: w, height: h });
      for (const route of ['#/timeline', '#/positions', '#/book', '#/reconcile', '#/pack']) {
        await show(route);
        expect(await cutPlaceholders(), route).toEqual([]);
      }
      await show('#/overview');
      await web.page.getByRole('button', { name: 'Settings' }).click();
      await poll(() => web.page.getByRole('dialog').isVisible()).toBe(true);
      expect(await cutPlaceholders(), 'settings').toEqual([]);
      await web.page.keyboard.press('Escape');
      await poll(() => web.page.getByRole('dialog').count()).toBe(0);
    });

  it('looked at: the address book and the settings dialog at 1024×640, light and dark', async () => {
    await web.page.setViewportSize({ width: 1024, height: 640 });
    await show('#/book');
    await shootBothThemes(web.page, 'low-placeholders-address-book');
    await web.page.getByRole('button', { name: 'Settings' }).click();
    await poll(() => web.page.getByRole('dialog').isVisible()).toBe(true);
    await web.page.locator('#locale').scrollIntoViewIfNeeded();
    await shootBothThemes(web.page, 'low-placeholders-settings');
    await web.page.keyboard.press('Escape');
    await poll(() => web.page.getByRole('dialog').count()).toBe(0);
  });
});

describe('a copy button beside every shortened address', () => {
  /**
   * The shortened addresses ("0x5a0b…9c4c", "eth:0x…cc2") under the root that no copy button
   * near them copies: each must have, in the nearest element around it that holds copy buttons,
   * one whose value starts and ends as the shortened text does.
   */
  const withoutCopy = (root: ReturnType<typeof web.page.locator>) =>
    root.evaluateAll((roots) => {
      const out: string[] = [];
      for (const r of roots) {
        const walker = document.createTreeWalker(r, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          for (const m of n.textContent!.matchAll(/([\w:]{6})…(\w{4})/g)) {
            let at: HTMLElement | null = n.parentElement;
            while (at && at !== r && !at.querySelector('button.copy')) at = at.parentElement;
            const copies = [...(at?.querySelectorAll('button.copy') ?? [])].map((b) => (b.getAttribute('aria-label') ?? '').split(' ').pop()!);
            if (!copies.some((v) => v.startsWith(m[1]!) && v.endsWith(m[2]!))) out.push(m[0]);
          }
        }
      }
      return out;
    });

  it('in a transaction’s detail: the hash, the wallet, from and to, each token moved and each address of a decoded log', async () => {
    await web.page.setViewportSize({ width: 1440, height: 900 });
    await web.open(`#/timeline?wallet=${TREASURY}`);
    const rows = web.page.locator('[role=row].txn');
    await poll(() => rows.count()).toBeGreaterThan(5);
    // A row that moved tokens: its transfers table lists their contracts.
    await rows.filter({ hasText: '→' }).first().click();
    const drawer = web.page.getByRole('dialog', { name: 'Transaction detail' });
    await poll(() => drawer.locator('tbody tr').count()).toBeGreaterThan(0);
    await poll(() => drawer.locator('ol.logs li').count()).toBeGreaterThan(0);
    // The wallet is named by its label: the address it stands for is copied beside it.
    expect(
      await drawer
        .locator('dt:text-is("Wallet") + dd')
        .getByRole('button', { name: `Copy address ${TREASURY}` })
        .count(),
    ).toBe(1);
    expect(await drawer.getByRole('button', { name: /^Copy contract / }).count()).toBe(await drawer.locator('tbody tr').count());
    expect(await withoutCopy(drawer.locator('dl, table, .args'))).toEqual([]);
    // A Transfer log's amount in the units of the transfer it is (not 261474056000000000000): the
    // digits shown are the logged integer's, with the decimals named in its title.
    const amounts = drawer.getByTestId('log-amount');
    await poll(() => amounts.count()).toBeGreaterThan(0);
    const moved = (await drawer.locator('tbody tr').allTextContents()).join(' ');
    for (const a of await amounts.all()) {
      const [, raw, decimals] = /^(\d+) as logged: (\d+) decimals/.exec((await a.getAttribute('title'))!)!;
      const [shown, symbol] = (await a.textContent())!.trim().split(/\s+/);
      const digits = shown!.replace(/,/g, '');
      const [whole, fraction = ''] = digits.split('.');
      expect(BigInt(whole! + fraction.padEnd(Number(decimals), '0'))).toBe(BigInt(raw!));
      expect(moved).toContain(symbol!);
    }
    await shootBothThemes(web.page, 'low-copy-drawer');
    await amounts.first().scrollIntoViewIfNeeded();
    await shootBothThemes(web.page, 'low-log-amounts');
    await drawer.getByRole('button', { name: 'Close detail' }).click();
    expect(web.problems).toEqual([]);
  });

  it('in the monthly pack’s counterparty rows, each copying the full address', async () => {
    await web.page.setViewportSize({ width: 1440, height: 900 });
    await show('#/pack');
    const table = web.page.getByTestId('pack-counterparties');
    await poll(() => table.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await table.getByRole('button', { name: /^Copy address 0x[0-9a-f]{40}$/ }).count()).toBe(await table.locator('tbody tr').count());
    expect(await withoutCopy(table)).toEqual([]);
    await table.scrollIntoViewIfNeeded();
    await shootBothThemes(web.page, 'low-copy-pack');
    expect(web.problems).toEqual([]);
  });
});

describe('an unnamed address named where it is shown', () => {
  it('from a transaction’s detail: Escape leaves it unnamed, Enter names it in the address book, and the detail then shows the name', async () => {
    await web.page.setViewportSize({ width: 1024, height: 640 });
    await web.open(`#/timeline?wallet=${TREASURY}`);
    const rows = web.page.locator('[role=row].txn');
    await poll(() => rows.count()).toBeGreaterThan(5);
    const book = await web.core.call('counterparties.list', undefined);
    const known = new Set(book.map((c) => c.address.toLowerCase()));
    // A row whose other end is no watched wallet and not in the book: it offers "Name…".
    const drawer = web.page.getByRole('dialog', { name: 'Transaction detail' });
    let address: string | null = null;
    for (let i = 0; i < (await rows.count()) && !address; i++) {
      await rows.nth(i).click();
      await poll(() => drawer.isVisible()).toBe(true);
      const offer = drawer.getByRole('button', { name: /^Name 0x[0-9a-fA-F]{40} in the address book$/ }).first();
      if (await offer.count()) address = /(0x[0-9a-fA-F]{40})/.exec((await offer.getAttribute('aria-label'))!)![1]!;
    }
    expect(address, 'a transaction with an unnamed counterparty').not.toBeNull();
    expect(known.has(address!.toLowerCase())).toBe(false);
    const offer = drawer.getByRole('button', { name: `Name ${address} in the address book` }).first();

    // Escape: nothing saved, the button has the focus again.
    await offer.click();
    const field = drawer.getByRole('textbox', { name: `Name for ${address}` });
    await expect.poll(() => field.evaluate((e) => e === document.activeElement)).toBe(true);
    await field.fill('Not this one');
    await field.press('Escape');
    await poll(() => field.count()).toBe(0);
    await expect.poll(() => offer.evaluate((e) => e === document.activeElement)).toBe(true);
    expect(await web.core.call('counterparties.list', undefined)).toHaveLength(book.length);

    // An empty name is refused in words, and nothing is saved.
    await offer.press('Enter');
    await field.press('Enter');
    await poll(() => drawer.getByRole('alert').textContent()).toBe('Type a name first.');
    expect(await web.core.call('counterparties.list', undefined)).toHaveLength(book.length);

    await field.fill('Grant recipient Q3');
    await poll(() => drawer.getByRole('alert').count()).toBe(0);
    await shootBothThemes(web.page, 'name-address-drawer');
    await field.press('Enter');
    await poll(async () => (await web.core.call('counterparties.list', undefined)).find((c) => c.address.toLowerCase() === address!.toLowerCase())?.name).toBe(
      'Grant recipient Q3',
    );
    // The timeline reads the book again: the detail names the address.
    await poll(() => drawer.locator('.party').allTextContents()).toContain('Grant recipient Q3');
    expect(web.problems).toEqual([]);
    await web.core.call('counterparties.remove', { address: address! });
  });

  it('from the monthly pack’s counterparties not in the address book', async () => {
    await web.page.setViewportSize({ width: 1440, height: 900 });
    await show('#/pack');
    const table = web.page.getByTestId('pack-counterparties');
    await poll(() => table.locator('tbody tr').count()).toBeGreaterThan(0);
    const offers = table.getByRole('button', { name: /^Name 0x[0-9a-fA-F]{40} in the address book$/ });
    const unknown = table.locator('tbody tr').filter({ hasText: '?' });
    // Each row not in the book offers it, and no other row does.
    await poll(() => offers.count()).toBe(await unknown.count());
    expect(await offers.count()).toBeGreaterThan(0);
    const address = /(0x[0-9a-fA-F]{40})/.exec((await offers.first().getAttribute('aria-label'))!)![1]!;
    await offers.first().click();
    const field = table.getByRole('textbox', { name: `Name for ${address}` });
    await field.fill('Vendor from the pack');
    await field.press('Enter');
    // The pack reads the book again: the row carries the name, no longer flagged as unknown.
    await poll(() => table.locator('tbody tr').filter({ hasText: 'Vendor from the pack' }).count()).toBe(1);
    expect(
      await table
        .locator('tbody tr')
        .filter({ hasText: 'Vendor from the pack' })
        .getByRole('button', { name: /^Name / })
        .count(),
    ).toBe(0);
    expect(web.problems).toEqual([]);
    await web.core.call('counterparties.remove', { address });
  });
});
