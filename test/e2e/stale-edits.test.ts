import { describe, expect, it } from 'vitest';
import { withAuditOrigin } from '../../src/main/core/store/audit.ts';
import { saveGroup } from '../../src/main/core/store/groups.ts';
import { saveCounterparty } from '../../src/main/core/counterparties/book.ts';
import { cacheOf } from '../support/store.ts';
import { poll, settled, shootBothThemes, useWebSession } from '../support/web-session.ts';

/**
 * Edits that do not overwrite each other, in Chromium (issue 37 item 5): two pages on one web
 * shell edit the same wallet; the second page's save, made on what it loaded, is refused with who
 * changed the wallet and when, its sidebar having followed the other page's edit meanwhile; Reload
 * shows the other edit, and the edit made again on it passes. A group renamed by bob from another
 * session on the same cache (as the CLI writes it) is refused by name too.
 */
const OPS = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const COLD = '0x00000000219ab540356cbb839cbe05303d7705fa';
/** What Chromium logs for any answer of 409: the refused save, said by the page itself. */
const CONFLICT = 'console: Failed to load resource: the server responded with a status of 409 (Conflict)';
const GRANTEE = `0x${'c4'.repeat(20)}`;
const web = useWebSession({
  viewport: { width: 1024, height: 768 },
  core: { person: 'alice@laptop' },
  seed: async (core) => {
    await core.call('wallets.add', { address: OPS, chains: ['eth'], label: 'Ops' });
    await core.call('wallets.add', { address: COLD, chains: ['eth'], label: 'Cold' });
    await core.call('groups.save', { name: 'Fund I', wallets: [OPS] });
    await core.call('counterparties.save', { address: GRANTEE, name: 'Grantee X' });
  },
  open: true,
});

describe('an edit on a stale version, in the browser', () => {
  it('is refused in the second page with who and when; Reload shows the other edit; saved again it passes', async () => {
    const a = web.page;
    // A second page of its own (as a second person's browser): the shell's address carries its token.
    const b = await a
      .context()
      .browser()!
      .newPage({ viewport: { width: 1024, height: 768 } });
    try {
      await b.goto(web.shell.url);
      await b.locator('#main').waitFor();
      // At 1024 px the wallet list starts collapsed: each page shows it, as a user does.
      for (const p of [a, b]) await p.getByRole('button', { name: 'Show the wallet list' }).click();

      // Page A opens the wallet's dialog (the form as loaded now).
      await a.getByRole('button', { name: 'Edit Ops' }).click();
      const dialogA = a.getByRole('dialog', { name: 'Edit wallet' });
      await expect.poll(() => dialogA.getByLabel('Label').inputValue()).toBe('Ops');

      // Page B renames it meanwhile.
      await b.getByRole('button', { name: 'Edit Ops' }).click();
      const dialogB = b.getByRole('dialog', { name: 'Edit wallet' });
      await dialogB.getByLabel('Label').fill('Operations');
      await dialogB.getByRole('button', { name: 'Save' }).click();
      await poll(() => dialogB.count()).toBe(0);

      // Page A's sidebar follows the other page's edit; its open form keeps what A is typing.
      await poll(() => a.getByRole('button', { name: 'Edit Operations' }).count()).toBe(1);
      await dialogA.getByLabel('Label').fill('Treasury');
      await dialogA.getByRole('button', { name: 'Save' }).click();
      const refusal = dialogA.getByTestId('wallet-form-error');
      await poll(() => refusal.textContent()).toMatch(
        /^The wallet "Operations" was changed by alice@laptop at \d{4}-\d\d-\d\d \d\d:\d\d UTC since you opened it: reload it/,
      );
      expect(await refusal.getAttribute('role')).toBe('alert');
      // Nothing was changed: the wallet is as page B left it.
      expect((await web.core.call('wallets.list', undefined)).find((w) => w.address === OPS)?.label).toBe('Operations');
      await settled(a);
      await shootBothThemes(a, 'stale-edit-wallet');

      // Reload: the form shows the other page's edit; the edit made again on it passes.
      await dialogA.getByRole('button', { name: 'Reload' }).click();
      await poll(() => dialogA.getByLabel('Label').inputValue()).toBe('Operations');
      expect(await dialogA.getByTestId('wallet-form-error').count()).toBe(0);
      await dialogA.getByLabel('Label').fill('Treasury');
      await dialogA.getByRole('button', { name: 'Save' }).click();
      await poll(() => dialogA.count()).toBe(0);
      await poll(() => b.getByRole('button', { name: 'Edit Treasury' }).count()).toBe(1);
      // The browser's own line for the refused save (HTTP 409), and nothing else.
      expect(web.problems).toEqual([CONFLICT]);
    } finally {
      await b.close();
    }
  }, 60_000);

  it('a group renamed by bob from another session: the save names bob, and Reload loads his name', async () => {
    const page = web.page;
    if (await page.getByRole('button', { name: 'Show the wallet list' }).count()) await page.getByRole('button', { name: 'Show the wallet list' }).click();
    await page
      .getByTestId('sidebar-groups')
      .getByRole('link', { name: /Fund I/ })
      .click();
    await page.getByRole('button', { name: 'Edit group Fund I' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit wallet group' });
    await expect.poll(() => dialog.getByLabel('Name').inputValue()).toBe('Fund I');

    // Bob's rename, from another session on the same cache (the CLI's, say).
    const db = await cacheOf(web.core);
    const group = (await web.core.call('groups.list', undefined)).find((g) => g.name === 'Fund I')!;
    withAuditOrigin('groups.save', () => saveGroup(db, { id: group.id, name: 'Fund One', wallets: [OPS, COLD] }), undefined, {
      person: 'bob@desktop',
      via: 'cli',
    });

    await dialog.getByRole('checkbox', { name: /Cold/ }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => dialog.getByTestId('group-error').textContent()).toMatch(/^The group "Fund One" was changed by bob@desktop at .*Nothing was changed\.$/);
    await settled(page);
    await shootBothThemes(page, 'stale-edit-group');
    await dialog.getByRole('button', { name: 'Reload' }).click();
    await poll(() => dialog.getByLabel('Name').inputValue()).toBe('Fund One');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => dialog.count()).toBe(0);
    expect(web.problems).toEqual([CONFLICT, CONFLICT]);
  }, 60_000);

  it('an address-book entry renamed by bob meanwhile: the form is refused naming him; Reload shows his name', async () => {
    const page = web.page;
    await page.getByRole('tab', { name: 'Address book' }).click();
    const table = page.getByRole('table', { name: 'Address book' });
    await poll(() => table.getByRole('rowheader').allInnerTexts()).toEqual(['Grantee X']);
    await page.getByRole('button', { name: 'Edit Grantee X' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit a name' });
    await dialog.getByLabel('Name').fill('Grantee X (2026)');

    const db = await cacheOf(web.core);
    withAuditOrigin('counterparties.save', () => saveCounterparty(db, { address: GRANTEE, name: 'Grantee Ltd', note: 'renamed by bob' }), undefined, {
      person: 'bob@desktop',
      via: 'cli',
    });

    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => dialog.getByTestId('book-form-error').textContent()).toMatch(/^The address book entry "Grantee Ltd" was changed by bob@desktop at /);
    expect((await web.core.call('counterparties.list', undefined)).map((c) => c.name)).toEqual(['Grantee Ltd']);
    await settled(page);
    await shootBothThemes(page, 'stale-edit-book');
    await dialog.getByRole('button', { name: 'Reload' }).click();
    await poll(() => dialog.getByLabel('Name').inputValue()).toBe('Grantee Ltd');
    await dialog.getByLabel('Name').fill('Grantee Ltd (2026)');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => table.getByRole('rowheader').allInnerTexts()).toEqual(['Grantee Ltd (2026)']);
    expect(web.problems).toEqual([CONFLICT, CONFLICT, CONFLICT]);
  }, 60_000);
});
