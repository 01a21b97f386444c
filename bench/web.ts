/// <reference lib="dom" />
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../src/main/core/app.ts';
import { startWebShell } from '../src/main/web/server.ts';
import { launchChromium } from '../test/support/browser.ts';
import { fmt, report } from './lib.ts';
import { demoStarter } from '../src/sim/demo.ts';

/** Web shell ready, and first paint with cached data (target < 1 s each). */
export async function webBench(): Promise<void> {
  const renderer = join(import.meta.dirname, '../out/renderer');
  if (!existsSync(join(renderer, 'index.html'))) throw new Error('Build the renderer first: npm run build');
  const dataDir = mkdtempSync(join(tmpdir(), 'folioscope-web-bench-'));
  // A cache with a wallet's positions and transactions, made once through the demo service.
  {
    const core = await createCore({ dataDir, shell: 'cli', baseUrl: null, demo: demoStarter() });
    await core.call('wallets.add', { address: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', chains: ['eth', 'arb'], label: 'Bench' });
    const jobs = await core.call('sync.all', {});
    await new Promise<void>((resolve) => {
      const pending = new Set(jobs.map((j) => j.id));
      core.on('sync.progress', (j) => {
        if (j.state !== 'queued' && j.state !== 'running') pending.delete(j.id);
        if (!pending.size) resolve();
      });
    });
    await core.close();
  }
  const browser = await launchChromium();
  try {
    const t0 = performance.now();
    const core = await createCore({ dataDir, shell: 'web', baseUrl: null, demo: demoStarter() });
    const shell = await startWebShell({ core, rendererDir: renderer });
    const ready = performance.now() - t0;
    const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
    await page.addInitScript({ content: 'window.__name = (f) => f;' });
    const t1 = performance.now();
    await page.goto(shell.url);
    await page.getByTestId('total-nav').waitFor();
    const dataVisible = performance.now() - t1;
    const paint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN);
    report('Web shell with cached data', [
      ['core and web shell started (modules loaded)', `${fmt(ready, 0)} ms (target < 1 s)`],
      ['first contentful paint', `${fmt(paint, 0)} ms after navigation`],
      ['cached totals on screen', `${fmt(dataVisible, 0)} ms after navigation (target < 1 s)`],
    ]);
    await shell.close();
    await core.close();
  } finally {
    await browser.close();
  }
}
