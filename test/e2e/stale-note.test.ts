import { beforeAll, describe, expect, it } from 'vitest';
import { setAnnotation } from '../../src/main/core/annotations/store/annotations.ts';
import { withAuditOrigin } from '../../src/main/core/store/audit.ts';
import { cacheOf } from '../support/store.ts';
import { poll, settled, shootBothThemes, useTreasurySession } from '../support/web-session.ts';

/**
 * A transaction's note on a German screen (issue 37 item 5): saved once, then rewritten by bob
 * from another session on the same cache; the second save, made on the version the form stood
 * on, is refused in German naming bob and when, and changes nothing; Neu laden shows bob's note.
 */
const web = useTreasurySession({ txnsPerWallet: 40 });

beforeAll(async () => {
  await web.core.call('settings.update', { locale: 'de-DE' });
});

describe('a note edited on a stale version, in German', () => {
  it('is refused naming who changed it and when; Reload shows their note', async () => {
    const page = web.page;
    await page.setViewportSize({ width: 1024, height: 768 });
    await web.open('#/timeline');
    await poll(() => page.evaluate(() => document.documentElement.lang)).toBe('de');
    await poll(() => page.locator('[role=row].txn').count()).toBeGreaterThan(0);
    await page.locator('[role=row].txn').first().focus();
    await page.keyboard.press('Enter');
    const detail = page.getByRole('dialog', { name: 'Transaktionsdetail' });
    const note = detail.getByLabel('Notiz', { exact: true });
    await note.fill('Erste Fassung');
    // The save, then the form's read of what is stored, both answered before bob writes: a read
    // answered after his write would show his note (not typed over), and a save then is no stale one.
    const reread = page.waitForResponse((r) => r.url().endsWith('/api/notes.get') && r.request().method() === 'POST');
    await detail.getByRole('button', { name: 'Speichern', exact: true }).click();
    await reread;
    await poll(async () => (await web.core.request('audit.list', { entity: 'note' })).total).toBe(1);

    // The second version is typed before bob writes: a form not being changed follows what is
    // stored (a change bob's write announces may reach the page first, under load), and a save on
    // bob's note is then rightly no stale one. Typing keeps the form on the version it began from.
    await note.fill('Zweite Fassung');

    // Bob rewrites it from another session (the CLI's, say): the key is the one the trail names.
    const [entry] = (await web.core.request('audit.list', { entity: 'note' })).entries;
    const [wallet, chain, txnHash] = entry!.key.split('|') as [string, string, string];
    const db = await cacheOf(web.core);
    withAuditOrigin('notes.set', () => setAnnotation(db, { wallet, chain, txnHash }, { note: 'Von Bob geprüft' }), undefined, {
      person: 'bob@desktop',
      via: 'cli',
    });

    await detail.getByRole('button', { name: 'Speichern', exact: true }).click();
    const status = detail.getByTestId('books-stale');
    await poll(() => status.textContent()).toMatch(
      /^\s*Die Notiz zur Transaktion „0x[0-9a-f]{6}…[0-9a-f]{4}“ wurde seit dem Öffnen von bob@desktop am .+ geändert: Laden Sie neu/,
    );
    expect(await status.textContent()).not.toMatch(/changed by|reload it|Nothing was changed/);
    expect((await web.core.request('notes.get', { wallet, chain, txnHash }))!.note).toBe('Von Bob geprüft');
    await settled(page);
    await shootBothThemes(page, 'stale-edit-note-de');

    await detail.getByRole('button', { name: 'Neu laden' }).click();
    await poll(() => note.inputValue()).toBe('Von Bob geprüft');
    expect(await detail.getByTestId('stale-reload').count()).toBe(0);
  }, 90_000);
});
