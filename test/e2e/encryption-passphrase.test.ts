import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { KeychainUnavailableError, type Keychain } from '../../src/main/core/secrets/keychain.ts';
import { isEncryptedFile } from '../../src/main/core/store/cache-conversion.ts';
import { startWebShell, type WebShell } from '../../src/main/web/server.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { launchChromium, shoot, watchProblems } from '../support/browser.ts';
import { startKilledRekey } from '../support/killed-rekey.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { poll, settled } from '../support/web-session.ts';
import { bothThemes } from './axe.ts';

/**
 * Encryption with a passphrase from Settings, and the unlock screen it brings (issue 39, item
 * 11), in Chromium: the passphrase chosen (the keychain is the default), checked (8 characters,
 * typed twice), masked unless shown, confirmed; the web shell started again on the folder without
 * FOLIOSCOPE_CACHE_PASSPHRASE shows the unlock screen; a wrong passphrase is said to be wrong
 * and may be typed again; the right one opens the app on its cached data. The passphrase is then
 * looked for where it must never be: every file of the data folder, every answer the page got,
 * what this process printed and the page's console.
 */
const PASSPHRASE = 'heron-basalt-41-lantern';
/** The passphrase it is changed to (Settings → Change the key…), and a wrong current one typed first. */
const NEW_PASSPHRASE = 'plover-cobalt-83-harbour';
const WRONG_CURRENT = 'grebe-slate-26-beacon';
const RENDERER = join(import.meta.dirname, '../../out/renderer');
/** The cache keys' keychain, in memory and working: the keychain is offered first, the passphrase chosen. */
const keys = new Map<string, string>();
const keychain: Keychain = { get: async (a) => keys.get(a) ?? null, set: async (a, s) => void keys.set(a, s), delete: async (a) => keys.delete(a) };
const coreOptions = (dataDir: string) => ({
  dataDir,
  shell: 'web' as const,
  baseUrl: null,
  // No FOLIOSCOPE_CACHE_PASSPHRASE, whatever the machine's environment.
  env: {},
  scheduleEveryMs: 0,
  now: () => SIM_NOW,
  demo: demoStarter({ txnsPerWallet: 40, now: () => SIM_NOW }),
  cacheKeychain: keychain,
});

let dir: string;
let core: Core | undefined;
let shell: WebShell | undefined;
let browser: Browser;
let page: Page;
let problems: string[];
/** Every answer of the web shell the page got (API answers, event stream, files), as text. */
const answers: string[] = [];
/** What the page's console said, and what this process (the core and the web shell) printed. */
const printed: string[] = [];
const restore: Array<() => void> = [];

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npx electron-vite build (npm test does).');
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      printed.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    restore.push(() => (stream.write = write));
  }
  dir = tempDir();
  core = await createCore(coreOptions(dir));
  await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
  await waitForJobs(core, await core.call('sync.all', undefined));
  shell = await startWebShell({ core, rendererDir: RENDERER });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
  await page.clock.setFixedTime(SIM_NOW);
  problems = watchProblems(page);
  page.on('console', (m) => printed.push(m.text()));
  page.on('response', (r) => {
    // The event stream never ends while the page is open: its frames are the SSE's, read below.
    if (r.url().endsWith('/api/events')) return;
    void r.text().then(
      (t) => answers.push(t),
      () => undefined,
    );
  });
  await page.goto(shell.url);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await core?.close();
  for (const r of restore) r();
});

/** The web shell and its core stopped, and started again on the same folder, as `folioscope serve` would be. */
async function restart(): Promise<void> {
  await shell!.close();
  await core!.close();
  shell = undefined;
  core = await createCore(coreOptions(dir));
  shell = await startWebShell({ core, rendererDir: RENDERER });
}

/** What every field of the page holds now (a value is a property, not in the page's HTML). */
const inputValues = () => page.evaluate(() => [...document.querySelectorAll('input')].map((i) => i.value));

/** A file's name, size and first bytes: tells whether a conversion touched it. */
const fingerprints = () => filesUnder(dir).map((f) => `${f.path}:${f.bytes.length}:${f.bytes.subarray(0, 64).toString('hex')}`);

function filesUnder(folder: string): Array<{ path: string; bytes: Buffer }> {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((n) => join(folder, n))
    .filter((p) => statSync(p).isFile())
    .map((path) => ({ path, bytes: readFileSync(path) }));
}

describe('Settings → Encryption with a passphrase, then the unlock screen', () => {
  it('by keyboard alone: checks the passphrase, masks it, says what losing it means, and encrypts with it once confirmed', async () => {
    const active = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim() || '');
    await page.getByRole('button', { name: 'Settings' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    const section = dialog.getByRole('region', { name: 'Encryption' });
    await poll(() => section.getByTestId('encryption-state').textContent()).toMatch(/^\s*Off:/);
    const keychainChoice = section.getByRole('radio', { name: /A random key kept in the system keychain/ });
    const passphraseChoice = section.getByRole('radio', { name: 'A passphrase, asked for at every start' });
    // A keychain is there: its key is the default.
    expect(await keychainChoice.isChecked()).toBe(true);
    expect(await section.getByLabel('Passphrase (at least 8 characters)').count()).toBe(0);

    // The key's choice is one radio group: an arrow key moves to the passphrase, Tab to its field.
    await keychainChoice.focus();
    await page.keyboard.press('ArrowDown');
    expect(await passphraseChoice.isChecked()).toBe(true);
    const first = section.getByLabel('Passphrase (at least 8 characters)');
    const again = section.getByLabel('The same passphrase again');
    expect(await first.getAttribute('type')).toBe('password');
    expect(await again.getAttribute('type')).toBe('password');
    // What losing it means, said plainly: nothing opens, the service's data syncs again, what was made here is lost unless exported.
    const loss = section.locator('#encryption-loss');
    expect(await loss.textContent()).toMatch(
      /nobody can recover it\. If it is lost, this cache and every backup of it can never be opened again \(the backups use the same key\)\. The service’s data can be synced again into a new data folder, but what you made here \(labels, groups, notes, categories, closed periods\) is lost unless you exported it as a data file \(Settings → Your data\)\./,
    );
    expect(await first.getAttribute('aria-describedby')).toBe('encryption-loss');
    await page.keyboard.press('Tab');
    expect(await active()).toBe('encryption-passphrase');

    // Too short: said at the field, nothing asked of the core.
    await page.keyboard.type('short');
    await page.keyboard.press('Tab');
    await page.keyboard.type('short');
    await page.keyboard.press('Tab'); // Show the passphrase
    await page.keyboard.press('Tab');
    expect(await active()).toBe('Encrypt…');
    await page.keyboard.press('Enter');
    await poll(() => section.getByRole('alert').textContent()).toBe('The passphrase needs at least 8 characters.');
    expect(await first.getAttribute('aria-invalid')).toBe('true');
    // Back at the field that is wrong.
    expect(await active()).toBe('encryption-passphrase');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(PASSPHRASE);
    await page.keyboard.press('Tab');
    // Two that differ.
    await page.keyboard.press('Control+A');
    await page.keyboard.type(`${PASSPHRASE}x`);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await poll(() => section.getByRole('alert').textContent()).toBe('The two passphrases differ: type the same one twice.');
    expect(await active()).toBe('encryption-repeat');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(PASSPHRASE);

    // Shown on request (Space on the checkbox), masked again.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await first.getAttribute('type')).toBe('text');
    await page.keyboard.press('Space');
    expect(await first.getAttribute('type')).toBe('password');

    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await poll(() => section.getByText(/with this passphrase\? .* every start asks for the passphrase/).isVisible()).toBe(true);
    // The button pressed is gone: the keyboard is at the question's answer.
    await poll(active).toBe('Encrypt');
    // Nothing happens before it is confirmed.
    expect(isEncryptedFile(join(dir, 'demo.sqlite'))).toBe(false);
    await section.scrollIntoViewIfNeeded();
    await settled(page);
    await bothThemes(page, 'settings-encryption-passphrase-1024');

    await page.keyboard.press('Enter');
    await poll(() => section.getByRole('status').last().textContent()).toMatch(/^Encrypted: 1 cache/);
    await poll(() => section.getByTestId('encryption-state').textContent()).toMatch(
      /On: aegis, a key derived from a passphrase \(scrypt, N=131072, r=8, p=1\)\./,
    );
    expect(isEncryptedFile(join(dir, 'demo.sqlite'))).toBe(true);
    // No key went to the keychain, and the fields are gone, their values with them.
    expect(keys.size).toBe(0);
    expect(await section.getByLabel('Passphrase (at least 8 characters)').count()).toBe(0);
    expect(await inputValues()).not.toContain(PASSPHRASE);
    expect(problems).toEqual([]);
  }, 120_000);

  it('started again without the passphrase, asks for it: a wrong one is refused and changes nothing, the right one opens the cached data', async () => {
    await restart();
    await page.goto(shell!.url);
    const screen = page.getByRole('main');
    await poll(() => screen.getByRole('heading', { level: 1 }).textContent()).toBe('Unlock the cache');
    expect(await screen.getByText(dir).isVisible()).toBe(true);
    const field = screen.getByLabel('Passphrase', { exact: true });
    // The field has the focus: type and press Enter.
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('unlock-passphrase');
    expect(await field.getAttribute('type')).toBe('password');
    // The way out, for a passphrase forgotten.
    await screen.getByText('Forgotten the passphrase?').click();
    expect(await screen.getByText(/Nobody can recover it: .*Start Folioscope on another data folder/).isVisible()).toBe(true);
    await settled(page);
    await bothThemes(page, 'unlock-1024');

    // In a German browser, German: the language chosen in Settings is in the cache, still closed.
    const german = await browser.newContext({ locale: 'de-DE', viewport: { width: 1024, height: 800 } });
    try {
      const de = await german.newPage();
      const deProblems = watchProblems(de);
      await de.goto(shell!.url);
      await poll(() => de.getByRole('main').getByRole('heading', { level: 1 }).textContent()).toBe('Cache entsperren');
      expect(await de.evaluate(() => document.documentElement.lang)).toBe('de');
      expect(await de.getByRole('main').getByLabel('Passphrase', { exact: true }).getAttribute('type')).toBe('password');
      await de.getByText('Passphrase vergessen?').click();
      await settled(de);
      await bothThemes(de, 'unlock-de-1024');
      expect(deProblems).toEqual([]);
    } finally {
      await german.close();
    }

    const before = fingerprints();
    // Back from the disclosure to the field by keyboard (Unlock is disabled while the field is empty).
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('checkbox');
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('unlock-passphrase');
    await page.keyboard.type('not the passphrase');
    await page.keyboard.press('Enter');
    await poll(() => screen.getByRole('alert').textContent()).toBe('That is not this data folder’s passphrase. Nothing was changed: type it again.');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    // Back in the field, empty, to type again; the folder as it was.
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('unlock-passphrase');
    expect(await field.inputValue()).toBe('');
    expect(fingerprints()).toEqual(before);
    await bothThemes(page, 'unlock-wrong-1024');

    await page.keyboard.type(PASSPHRASE);
    await page.keyboard.press('Enter');
    // The app, on its cached data: the cached date, the figures and the wallet they are of.
    await poll(() => page.locator('main .kpi strong').count()).toBeGreaterThan(0);
    expect(await page.getByRole('region', { name: 'Totals' }).getByText('Total NAV').isVisible()).toBe(true);
    // The wallet they are of, by its label (the exposure names its holders beside their chains).
    await poll(() =>
      page
        .getByRole('main')
        .getByText(/Treasury/)
        .first()
        .isVisible(),
    ).toBe(true);
    await settled(page);
    await shoot(page, 'unlock-opened-1024');
    expect(await core!.request('cache.locked', undefined)).toMatchObject({ locked: false });
    expect(problems).toEqual([]);
  }, 120_000);

  it('the passphrase is in no file of the data folder, no answer the page got, and nothing printed', async () => {
    // Made by the app now: a backup of the encrypted cache and the files of a checkpoint.
    await core!.request('backups.create', undefined);
    const utf16 = Buffer.from(PASSPHRASE, 'utf16le');
    const holding = filesUnder(dir)
      .filter((f) => f.bytes.includes(PASSPHRASE) || f.bytes.includes(utf16))
      .map((f) => f.path);
    expect(holding).toEqual([]);
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.filter((a) => a.includes(PASSPHRASE))).toEqual([]);
    expect(printed.filter((p) => p.includes(PASSPHRASE))).toEqual([]);
    expect(await page.content()).not.toContain(PASSPHRASE);
    // Nor in a field or the page's storage once it was used.
    expect(await inputValues()).not.toContain(PASSPHRASE);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).not.toContain(PASSPHRASE);
  });

  it('changes the passphrase by keyboard in one step: the current one typed and checked first, every file under the new key, never plain', async () => {
    const active = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim() || '');
    await page.getByRole('button', { name: 'Settings' }).focus();
    await page.keyboard.press('Enter');
    const section = page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'Encryption' });
    await poll(() => section.getByTestId('encryption-state').textContent()).toMatch(/^\s*On: aegis, a key derived from a passphrase/);
    const keyBefore = readFileSync(join(dir, 'encryption.json'), 'utf8');
    await section.getByRole('button', { name: 'Change the key…' }).focus();
    await page.keyboard.press('Enter');
    // A new passphrase is the usual change of a passphrase folder: chosen; the form opens at the current one.
    expect(await section.getByRole('radio', { name: 'A passphrase, asked for at every start' }).isChecked()).toBe(true);
    await poll(active).toBe('encryption-current');
    expect(await section.getByLabel('The data folder’s current passphrase').getAttribute('type')).toBe('password');
    await page.keyboard.type(WRONG_CURRENT);
    await page.keyboard.press('Tab');
    expect(await active()).toBe('encryption-passphrase');
    expect(await section.getByLabel('New passphrase (at least 8 characters)').getAttribute('type')).toBe('password');
    await page.keyboard.type(NEW_PASSPHRASE);
    await page.keyboard.press('Tab');
    await page.keyboard.type(NEW_PASSPHRASE);
    await page.keyboard.press('Tab'); // Show the passphrase
    await page.keyboard.press('Tab');
    expect(await active()).toBe('Change the key…');
    await section.scrollIntoViewIfNeeded();
    await settled(page);
    await bothThemes(page, 'settings-encryption-change-1024');
    const before = fingerprints();
    await page.keyboard.press('Enter');
    await poll(() =>
      section.getByText(/under a new key derived from this passphrase\? .*never plain in between.* every start asks for the new passphrase/).isVisible(),
    ).toBe(true);
    await poll(active).toBe('Change the key');
    // A wrong current passphrase: refused by the core before it closed anything, said at its field, typed again.
    await page.keyboard.press('Enter');
    await poll(() => section.getByRole('alert').textContent()).toBe(
      'That is not the passphrase this data folder was encrypted with. Nothing was changed: type it again.',
    );
    await poll(active).toBe('encryption-current');
    expect(await section.getByLabel('The data folder’s current passphrase').getAttribute('aria-invalid')).toBe('true');
    expect(await section.getByLabel('The data folder’s current passphrase').inputValue()).toBe('');
    expect(fingerprints()).toEqual(before);

    await page.keyboard.type(PASSPHRASE);
    await section.getByRole('button', { name: 'Change the key…' }).focus();
    await page.keyboard.press('Enter');
    await poll(active).toBe('Change the key');
    await page.keyboard.press('Enter');
    await poll(() => section.getByRole('status').last().textContent()).toMatch(
      /^The key is changed: 1 cache and \d+ backups? are under the new key; the old one opens none of them\./,
    );
    await poll(() => section.getByTestId('encryption-state').textContent()).toMatch(/^\s*On: aegis, a key derived from a passphrase/);
    // Another key (its check value), every file still encrypted, the app on its data, the fields gone with their values.
    expect(readFileSync(join(dir, 'encryption.json'), 'utf8')).not.toBe(keyBefore);
    expect(JSON.parse(readFileSync(join(dir, 'encryption.json'), 'utf8'))).not.toHaveProperty('next');
    expect(isEncryptedFile(join(dir, 'demo.sqlite'))).toBe(true);
    expect(await core!.request('wallets.list', undefined)).toHaveLength(1);
    expect(await section.getByLabel('New passphrase (at least 8 characters)').count()).toBe(0);
    for (const secret of [PASSPHRASE, NEW_PASSPHRASE, WRONG_CURRENT]) expect(await inputValues()).not.toContain(secret);
    // Closed before the next test opens it again (a late Escape would close the dialog it opens).
    await page.keyboard.press('Escape');
    await poll(() => page.getByRole('dialog', { name: 'Settings' }).count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);

  it('turned off by keyboard with the passphrase typed again: none or a wrong one is said at the field and changes nothing; then every file is plain and holds neither', async () => {
    const WRONG = 'osprey-granite-19-lamp';
    const active = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim() || '');
    await page.getByRole('button', { name: 'Settings' }).focus();
    await page.keyboard.press('Enter');
    const section = page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'Encryption' });
    await poll(() => section.getByTestId('encryption-state').textContent()).toMatch(/^\s*On: aegis, a key derived from a passphrase/);
    await section.getByRole('button', { name: 'Decrypt…' }).focus();
    await page.keyboard.press('Enter');
    await poll(() => section.getByText(/Decrypt every cache and backup .* no start asks for the passphrase any more/).isVisible()).toBe(true);
    const field = section.getByLabel('The data folder’s passphrase, to turn encryption off');
    expect(await field.getAttribute('type')).toBe('password');
    // The question opens at its field.
    await poll(active).toBe('encryption-off-passphrase');
    const before = fingerprints();

    // None: said here, nothing asked of the core.
    await page.keyboard.press('Enter');
    await poll(() => section.getByRole('alert').textContent()).toBe('Type the data folder’s passphrase to turn encryption off.');
    // A wrong one: the core refuses it before closing anything; the field is emptied, to type again.
    await page.keyboard.type(WRONG);
    await page.keyboard.press('Enter');
    await poll(() => section.getByRole('alert').textContent()).toBe(
      'That is not the passphrase this data folder was encrypted with. Nothing was changed: type it again.',
    );
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await poll(active).toBe('encryption-off-passphrase');
    expect(await field.inputValue()).toBe('');
    expect(fingerprints()).toEqual(before);
    expect(await section.getByTestId('encryption-state').textContent()).toMatch(/^\s*On:/);
    await section.scrollIntoViewIfNeeded();
    await settled(page);
    await bothThemes(page, 'settings-encryption-off-wrong-1024');

    // The old passphrase opens nothing now.
    await page.keyboard.type(PASSPHRASE);
    await page.keyboard.press('Enter');
    await poll(() => section.getByRole('alert').textContent()).toBe(
      'That is not the passphrase this data folder was encrypted with. Nothing was changed: type it again.',
    );
    expect(fingerprints()).toEqual(before);
    await page.keyboard.type(NEW_PASSPHRASE);
    await page.keyboard.press('Enter');
    await poll(() => section.getByRole('status').last().textContent()).toMatch(/^Decrypted: 1 cache and \d+ backups? are plain again\./);
    await poll(() => section.getByTestId('encryption-state').textContent()).toMatch(/^\s*Off:/);
    expect(isEncryptedFile(join(dir, 'demo.sqlite'))).toBe(false);
    expect(existsSync(join(dir, 'encryption.json'))).toBe(false);
    expect(await core!.request('wallets.list', undefined)).toHaveLength(1);

    // Plain now, so this reads what SQLite holds (every table, the audit trail among them), the backup and the WAL.
    for (const secret of [PASSPHRASE, NEW_PASSPHRASE, WRONG, WRONG_CURRENT]) {
      const utf16 = Buffer.from(secret, 'utf16le');
      expect(filesUnder(dir).filter((f) => f.bytes.includes(secret) || f.bytes.includes(utf16))).toEqual([]);
      expect(answers.filter((a) => a.includes(secret))).toEqual([]);
      expect(printed.filter((p) => p.includes(secret))).toEqual([]);
      expect(await inputValues()).not.toContain(secret);
    }
    expect(problems).toEqual([]);
  }, 120_000);
});

describe('Settings → Encryption without a keychain', () => {
  it('offers the passphrase (chosen, the keychain greyed out and why), and never a key "for this session only"', async () => {
    const missing = () => {
      throw new KeychainUnavailableError('no Secret Service', { holds: 'cache-key' });
    };
    const other = await createCore({
      ...coreOptions(tempDir()),
      cacheKeychain: { get: async () => missing(), set: async () => missing(), delete: async () => missing() },
    });
    const otherShell = await startWebShell({ core: other, rendererDir: RENDERER });
    try {
      await page.goto(otherShell.url);
      await page.getByRole('button', { name: 'Settings' }).click();
      const section = page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'Encryption' });
      await poll(() => section.getByRole('radio', { name: 'A passphrase, asked for at every start' }).isChecked()).toBe(true);
      const keychainChoice = section.getByRole('radio', { name: /A random key kept in the system keychain/ });
      expect(await keychainChoice.isDisabled()).toBe(true);
      expect(await keychainChoice.getAttribute('aria-describedby')).toBe('encryption-no-keychain');
      expect(await section.locator('#encryption-no-keychain').textContent()).toMatch(/^The system keychain is not available here.*encrypt with a passphrase/);
      expect(await section.getByLabel('Passphrase (at least 8 characters)').isVisible()).toBe(true);
      expect(await section.textContent()).not.toMatch(/session only/i);
      await section.scrollIntoViewIfNeeded();
      await settled(page);
      await bothThemes(page, 'settings-encryption-no-keychain-1024');
    } finally {
      await otherShell.close();
      await other.close();
    }
    expect(problems).toEqual([]);
  }, 60_000);
});

describe('the unlock screen after a change of passphrase stopped midway', () => {
  it('asks for the new passphrase, tells the old one apart, and opens the app with the change finished', async () => {
    const OLD = 'curlew-amber-62-gate';
    const NEW = 'dunlin-ochre-35-weir';
    const folder = tempDir();
    const first = await createCore(coreOptions(folder));
    await first.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
    await first.call('cache.encrypt', { passphrase: OLD });
    await first.close();
    // The change killed just before its third rename: named in encryption.json, one file converted.
    const child = startKilledRekey(folder, 3, { OLD_PASSPHRASE: OLD, NEW_PASSPHRASE: NEW });
    expect(await new Promise((resolve) => child.on('exit', (_code, signal) => resolve(signal)))).toBe('SIGKILL');
    expect(JSON.parse(readFileSync(join(folder, 'encryption.json'), 'utf8'))).toHaveProperty('next');

    const other = await createCore(coreOptions(folder));
    const otherShell = await startWebShell({ core: other, rendererDir: RENDERER });
    // A page of its own: the shared one may still be reaching for the web shell of the test before.
    const page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
    await page.clock.setFixedTime(SIM_NOW);
    const problems = watchProblems(page);
    try {
      await page.goto(otherShell.url);
      const screen = page.getByRole('main');
      await poll(() => screen.getByRole('heading', { level: 1 }).textContent()).toBe('Unlock the cache');
      expect(await screen.getByTestId('unlock-changing').textContent()).toMatch(/was being changed when Folioscope stopped: type the new passphrase/);
      await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('unlock-passphrase');
      await page.keyboard.type(OLD);
      await page.keyboard.press('Enter');
      await poll(() => screen.getByRole('alert').textContent()).toBe(
        'That is the passphrase from before the change: the change of this data folder’s passphrase stopped midway, and the new passphrase finishes it. Nothing was changed: type the new one.',
      );
      await settled(page);
      await bothThemes(page, 'unlock-changing-1024');
      await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('unlock-passphrase');
      await page.keyboard.type(NEW);
      await page.keyboard.press('Enter');
      await poll(() => page.locator('main .kpi strong').count()).toBeGreaterThan(0);
      // Finished: no change named any more, every cache under the new key.
      expect(JSON.parse(readFileSync(join(folder, 'encryption.json'), 'utf8'))).not.toHaveProperty('next');
      expect(await other.request('cache.encryption', {})).toMatchObject({ on: true, changing: false, unfinished: false });
      expect(await other.request('wallets.list', undefined)).toHaveLength(1);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await otherShell.close();
      await other.close();
    }
  }, 90_000);
});
