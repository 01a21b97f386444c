import { join } from 'node:path';
import { createCore } from '../src/main/core/app.ts';
import { startWebShell } from '../src/main/web/server.ts';
import { launchChromium } from '../test/support/browser.ts';
import { demoStarter } from '../src/sim/demo.ts';
const dir = process.argv[2]!;
const screen = process.argv[3] ?? 'overview';
const sel = { overview: '[data-testid=total-nav]', positions: 'table.positions [data-testid=positions-total]', timeline: '[role=grid] [role=row][aria-rowindex="2"]' }[screen]!;
const core = await createCore({ dataDir: dir, shell: 'web', baseUrl: null, demo: demoStarter(), scheduleEveryMs: 0 });
const shell = await startWebShell({ core, rendererDir: join(import.meta.dirname, '../out/renderer') });
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
await page.addInitScript({ content: 'window.__name = (f) => f;' });
await page.addInitScript({
  content: `(() => { const seen = () => { if (!document.querySelector(${JSON.stringify(sel)})) return; watch.disconnect(); requestAnimationFrame(() => (window.__figuresAt = performance.now())); };
  const watch = new MutationObserver(seen); watch.observe(document, { childList: true, subtree: true }); })();`,
});
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
for (let round = 0; round < 2; round++) {
  if (round === 0) await cdp.send('Profiler.start');
  const t0 = Date.now();
  const log: string[] = [];
  const sent = new Map<object, number>();
  const onReq = (r: any) => sent.set(r, Date.now() - t0);
  const onFin = async (r: any) => {
    const at = sent.get(r)!;
    const url = new URL(r.url());
    let op = url.pathname.split('/').pop() || url.pathname;
    try { const b = r.postData(); if (b) op += ' ' + (JSON.parse(b).op ?? '').toString(); } catch {}
    log.push(`${String(at).padStart(5)} → ${String(Date.now() - t0).padStart(5)}  ${op}`);
  };
  page.on('request', onReq);
  page.on('requestfinished', onFin);
  if (round === 0) await page.goto(`${shell.url}#/${screen}`); else await page.reload();
  const h = await page.waitForFunction(() => (window as any).__figuresAt, undefined, { timeout: 120000 });
  const at = await h.jsonValue();
  await new Promise((r) => setTimeout(r, 500));
  page.off('request', onReq); page.off('requestfinished', onFin);
  if (round === 0) { const { profile } = await cdp.send('Profiler.stop'); (await import('node:fs')).writeFileSync('/tmp/page.cpuprofile', JSON.stringify(profile)); }
  console.log(`round ${round}: figures at ${Math.round(at as number)} ms (page clock)`);
  console.log(log.sort().join('\n'));
}
await browser.close(); await shell.close(); await core.close();
process.exit(0);
