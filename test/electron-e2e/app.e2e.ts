import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/shared/operations.ts';
import { startSimulator, type Simulator } from '../../src/sim/server.ts';
import { KEYCHAIN_SERVICE } from '../../src/main/core/secrets/keychain.ts';
import { tempDir } from '../support/store.ts';

/**
 * The desktop app as a user meets it: the built main entry in a real Electron (the binary
 * scripts/test-electron.mjs resolved, in FOLIOSCOPE_ELECTRON), a fresh data folder, the OS
 * keychain. The flows run in order in the one window, as a first session would.
 */
const ROOT = join(import.meta.dirname, '../..');
const ELECTRON = process.env['FOLIOSCOPE_ELECTRON'];
const ADDRESS = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const keytar = createRequire(import.meta.url)('keytar') as {
  getPassword(s: string, a: string): Promise<string | null>;
  deletePassword(s: string, a: string): Promise<boolean>;
};

// Kept for the whole file (tempDir() is removed after each test).
const dataDir = mkdtempSync(join(tmpdir(), 'folioscope-electron-'));
let app: ElectronApplication;
let page: Page;
let sim: Simulator;
const problems: string[] = [];

beforeAll(async () => {
  if (!ELECTRON) throw new Error('Run this suite with npm run test:electron (it resolves Electron and builds the app).');
  if (!existsSync(join(ROOT, 'out/main/index.js'))) throw new Error('Build the app first: npm run build.');
  const env: { [k: string]: string } = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'ELECTRON_RENDERER_URL' && k !== 'FOLIOSCOPE_ACCESS_KEY') env[k] = v;
  // Started as `npm start` starts it: Electron on the project folder (package.json's main), with
  // Chromium's OS sandbox on (Playwright turns it off unless asked).
  app = await _electron.launch({ executablePath: ELECTRON, args: [ROOT], cwd: ROOT, chromiumSandbox: true, env: { ...env, FOLIOSCOPE_DATA_DIR: dataDir } });
  page = await app.firstWindow();
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
});

afterAll(async () => {
  await app?.close();
  await sim?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const kpi = () => page.getByTestId('total-nav');

describe('Folioscope in Electron', () => {
  it('first start: the app page from app://, in demo mode, with the empty state', async () => {
    await expect.poll(() => page.url(), { timeout: 30_000 }).toBe('app://folioscope/index.html');
    await expect.poll(() => page.getByText('Demo data').isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => page.getByText('Watch a wallet to begin').isVisible()).toBe(true);
    const { userData, name } = await app.evaluate(({ app: electronApp }) => ({ userData: electronApp.getPath('userData'), name: electronApp.getName() }));
    expect(userData).toBe(dataDir);
    expect(name).toBe('Folioscope');
    expect(existsSync(join(dataDir, 'demo.sqlite'))).toBe(true);
  });

  it('adds a wallet and shows its positions', async () => {
    await page.getByRole('button', { name: 'Add wallet' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add wallet' });
    await dialog.getByLabel('Address').fill(ADDRESS);
    await dialog.getByLabel('Label').fill('Treasury');
    await dialog.getByRole('button', { name: 'Add wallet' }).click();
    await expect.poll(() => kpi().textContent(), { timeout: 30_000 }).toMatch(/^\$[\d,]+\.\d\d$/);
    await expect.poll(() => page.getByRole('option', { name: /Treasury/ }).isVisible()).toBe(true);
    await page.getByRole('tab', { name: 'Positions' }).click();
    await expect.poll(() => page.locator('tbody tr').count(), { timeout: 20_000 }).toBeGreaterThan(3);
    await page
      .getByRole('button', { name: /Underlying tokens of/ })
      .first()
      .click();
    await expect.poll(() => page.locator('table.inner').first().isVisible()).toBe(true);
  });

  it('shows the timeline and a transaction with its event logs', async () => {
    await page.getByRole('tab', { name: 'Timeline' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 3 }).first().isVisible(), { timeout: 30_000 }).toBe(true);
    await page.getByRole('listitem').first().getByRole('button').click();
    const drawer = page.getByRole('dialog', { name: 'Transaction detail' });
    await expect.poll(() => drawer.isVisible()).toBe(true);
    await expect.poll(() => drawer.getByText(/Event logs \(\d+\)/).isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => drawer.locator('ol.logs li').count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.isVisible()).toBe(false);
  });

  it('exports the transactions to the file chosen in the save dialog', async () => {
    const target = join(tempDir(), 'chosen.csv');
    const asked: unknown[] = [];
    // The native dialog cannot be clicked: replace it in the main process, recording what the app asked.
    await app.evaluate(({ dialog }, filePath) => {
      const calls: unknown[] = [];
      (globalThis as { __saveDialogCalls?: unknown[] }).__saveDialogCalls = calls;
      dialog.showSaveDialog = ((...args: unknown[]) => {
        const options = args[args.length - 1] as { defaultPath?: string; filters?: unknown };
        calls.push({ defaultPath: options.defaultPath, filters: options.filters });
        return Promise.resolve({ canceled: false, filePath });
      }) as typeof dialog.showSaveDialog;
    }, target);
    await page.getByRole('button', { name: 'Export ▾' }).click();
    await page.getByRole('menuitem', { name: 'These transactions (CSV)' }).click();
    await expect.poll(() => existsSync(target) && readFileSync(target, 'utf8').length > 0, { timeout: 30_000 }).toBe(true);
    asked.push(...(await app.evaluate(() => (globalThis as { __saveDialogCalls?: unknown[] }).__saveDialogCalls ?? [])));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ defaultPath: expect.stringMatching(/folioscope-transactions-.*\.csv$/), filters: [{ extensions: ['csv'] }] });
    await expect
      .poll(
        () => {
          try {
            return (parse(readFileSync(target, 'utf8'), { columns: true, bom: true }) as unknown[]).length;
          } catch {
            return 0;
          }
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(10);
    const rows = parse(readFileSync(target, 'utf8'), { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0]!)).toContain('txn_hash');
  });

  it('sets and clears the access key in Settings, in the OS keychain', async () => {
    const key = `k-${randomBytes(12).toString('hex')}`;
    sim = await startSimulator({ accessKey: key });
    const account = new URL(sim.url).origin;
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByLabel('Base URL').fill(sim.url);
    await settings.getByLabel('Access key').fill(key);
    await settings.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => settings.getByRole('status').textContent(), { timeout: 20_000 }).toContain('The key is set.');
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, account)).toBe(key);
    // The renderer never sees it.
    expect(await page.content()).not.toContain(key);

    await settings.getByRole('button', { name: 'Clear key' }).click();
    await expect.poll(() => settings.getByRole('status').textContent()).toBe('Key cleared.');
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, account)).toBeNull();

    await settings.getByLabel('Access key').fill(key);
    await settings.getByRole('button', { name: 'Set key' }).click();
    await expect.poll(() => settings.getByRole('status').textContent()).toBe('Key stored in the system keychain.');
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, account)).toBe(key);

    await settings.getByRole('button', { name: 'Clear key' }).click();
    await expect.poll(() => settings.getByRole('status').textContent()).toBe('Key cleared.');
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, account)).toBeNull();
    await settings.getByRole('button', { name: 'Use demo mode' }).click();
    await expect.poll(() => page.getByText('Demo data').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await keytar.deletePassword(KEYCHAIN_SERVICE, account);
  });

  describe('what the renderer can reach', () => {
    it('window.folio holds exactly the contract operations (and on), frozen', async () => {
      const seen = await page.evaluate(() => {
        const folio = (window as unknown as { folio: Record<string, unknown> }).folio;
        return { keys: Object.keys(folio).sort(), frozen: Object.isFrozen(folio), types: [...new Set(Object.values(folio).map((v) => typeof v))] };
      });
      expect(seen.keys).toEqual([...OPERATION_NAMES, 'on'].sort());
      expect(seen.frozen).toBe(true);
      expect(seen.types).toEqual(['function']);
    });

    it('has no require, process, module, Buffer or ipcRenderer', async () => {
      const globals = await page.evaluate(() => {
        const w = window as unknown as Record<string, unknown>;
        return ['require', 'process', 'module', 'Buffer', 'global', 'ipcRenderer', 'electron'].map((name) => [name, typeof w[name]]);
      });
      expect(Object.fromEntries(globals)).toEqual({
        require: 'undefined',
        process: 'undefined',
        module: 'undefined',
        Buffer: 'undefined',
        global: 'undefined',
        ipcRenderer: 'undefined',
        electron: 'undefined',
      });
    });

    it('refuses navigation away from the app and new windows', async () => {
      const before = page.url();
      await page.evaluate(() => {
        window.location.href = 'https://example.com/';
      });
      await page.waitForTimeout(1000);
      expect(page.url()).toBe(before);
      await page.evaluate(() => {
        window.location.assign('file:///etc/passwd');
      });
      await page.waitForTimeout(1000);
      expect(page.url()).toBe(before);
      const opened = await page.evaluate(() => window.open('https://example.com/', '_blank') === null);
      expect(opened).toBe(true);
      await page.waitForTimeout(500);
      expect(app.windows()).toHaveLength(1);
      const browserWindows = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length);
      expect(browserWindows).toBe(1);
    });

    it('runs under the CSP: no eval, no inline script, no outside connections', async () => {
      const result = await page.evaluate(async () => {
        const violations: string[] = [];
        document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
        let evalResult = 'ran';
        try {
          eval('1 + 1');
        } catch (err) {
          evalResult = (err as Error).name;
        }
        const script = document.createElement('script');
        script.textContent = 'window.__inlineRan = true';
        document.head.appendChild(script);
        let fetchResult = 'fetched';
        try {
          await fetch('https://example.com/');
        } catch (err) {
          fetchResult = (err as Error).name;
        }
        await new Promise((r) => setTimeout(r, 300));
        return { evalResult, inlineRan: (window as unknown as { __inlineRan?: boolean }).__inlineRan === true, fetchResult, violations };
      });
      expect(result.evalResult).toBe('EvalError');
      expect(result.inlineRan).toBe(false);
      expect(result.fetchResult).toBe('TypeError');
      // Chromium names the inline-script directive script-src or script-src-elem.
      expect(result.violations.some((v) => v.startsWith('script-src'))).toBe(true);
      expect(result.violations).toContain('connect-src');
    });

    it('a call with bad input, or an operation outside the contract, is refused and changes nothing', async () => {
      const result = await page.evaluate(async () => {
        const folio = (window as unknown as { folio: Record<string, (i?: unknown) => Promise<{ ok: boolean; error?: { kind: string } }>> }).folio;
        const before = await folio['wallets.list']!();
        const refused = await folio['wallets.add']!({ address: 'not an address', chains: ['eth'] });
        const after = await folio['wallets.list']!();
        return { before, refused, after, unknown: typeof folio['store.exec'] };
      });
      expect(result.refused).toMatchObject({ ok: false, error: { kind: 'validation' } });
      expect(result.after).toEqual(result.before);
      expect(result.unknown).toBe('undefined');
    });
  });

  it('had no page errors', () => {
    // CSP violations provoked above report as console errors; nothing else may.
    expect(problems.filter((p) => !/Content Security Policy|example\.com|ERR_BLOCKED/.test(p))).toEqual([]);
  });
});
