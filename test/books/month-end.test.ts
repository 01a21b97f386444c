import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core/app.ts';
import { decimalSum } from '../../src/shared/decimal.ts';
import { chainById } from '../../src/sim/chains.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import type { Simulator } from '../../src/sim/server.ts';
import { CLI } from '../support/cli-process.ts';
import { waitForJobs } from '../support/jobs.ts';
import { liveSimOptions } from '../support/live.ts';
import { SIM_NOW, WALLET, WALLET_2 } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * A group's month end, end to end (issue 28, "What must show"), from the reference service in its
 * live mode: the group's period synced; the treasurer's steps as a user runs them, each the
 * `folioscope` program as a process on the same data folder: counterparties imported from a CSV
 * (EIP-3770 addresses), a rule categorising the outflows to one of them, the period closed, the
 * pack's PDF written twice (the same bytes) and its pages looked at. Then the service restates
 * transactions inside the period; the next sync flags the close with what changed, an alert
 * fires, the closed figures stay, and the PDF now says so. Every edit is in the audit trail with
 * before and after.
 */
const FROM = '2026-10-31';
const TO = '2026-11-19';
const SHOTS = join(import.meta.dirname, '../../test-results/screenshots');
let sim: Simulator;
let core: Core;
let dataDir: string;

const cli = (args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, '--data-dir', dataDir, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, FOLIOSCOPE_ACCESS_KEY: '' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
const sum = (xs: number[]) => decimalSum(xs);

beforeAll(async () => {
  dataDir = tempDir();
  core = await createCore({
    dataDir,
    shell: 'web',
    env: {},
    scheduleEveryMs: 0,
    demo: async (key) => (sim = await demoStarter({ ...liveSimOptions({ modes: ['reorg'] }, 600), now: () => SIM_NOW })(key)),
  });
  await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
  await core.call('wallets.add', { address: WALLET_2, chains: ['eth'], label: 'Operations' });
  await core.call('groups.save', { name: 'Fund I', wallets: [WALLET, WALLET_2] });
  for (const w of [WALLET, WALLET_2]) {
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: w })]);
    await waitForJobs(core, [await core.call('sync.backfill', { wallet: w, from: FROM, to: TO, every: 'week' })]);
    await waitForJobs(core, await Promise.all([FROM, TO].map((date) => core.call('sync.positions', { wallet: w, date }))));
  }
}, 180_000);
afterAll(() => core?.close());

describe("a group's month end", () => {
  it('imports counterparties, categorises by a rule, closes the period, and flags a restatement inside it', { timeout: 240_000 }, async () => {
    const group = (await core.call('groups.list', undefined)).find((g) => g.name === 'Fund I')!;
    const before = await core.call('pack.get', { group: group.id, from: FROM, to: TO });
    expect(before.complete, before.reasons.join('; ')).toBe(true);
    // The two counterparties the group paid most, named in an address book CSV (EIP-3770 prefixes).
    const paid = before.byCounterparty.filter((c) => c.outflow > 0).sort((a, b) => b.outflow - a.outflow);
    const [grantee, vendor] = [paid[0]!, paid[1]!];
    const book = join(dataDir, 'book.csv');
    writeFileSync(
      book,
      `address,name,tags,ours,chains,note\neth:${grantee.key},Grantee X,grants,false,,monthly grant\neth:${vendor.key},Vendor Y,vendors,false,,\n`,
    );
    const imported = cli(['counterparties', 'import', book]);
    expect(imported.status, imported.stdout + imported.stderr).toBe(0);

    const rule = cli(['rules', 'add', '--category', 'Grants', '--counterparty-name', 'Grantee X', '--direction', 'out']);
    expect(rule.status, rule.stdout + rule.stderr).toBe(0);

    // The pack names them, and the outflows to Grantee X are the Grants category.
    const pack = await core.call('pack.get', { group: group.id, from: FROM, to: TO });
    expect(pack.complete).toBe(true);
    const x = pack.byCounterparty.find((c) => c.label === 'Grantee X')!;
    expect(x).toMatchObject({ kind: 'book', outflow: grantee.outflow });
    expect(pack.byCounterparty.find((c) => c.label === 'Vendor Y')).toMatchObject({ kind: 'book' });
    const grants = pack.byCategory.find((c) => c.label === 'Grants')!;
    expect(grants.outflow).toBeGreaterThan(0);
    expect(grants.outflow).toBeLessThanOrEqual(x.outflow);
    // Flows only moved between categories: the totals are the same as before the books.
    expect([pack.inflows, pack.outflows, pack.opening, pack.closing]).toEqual([before.inflows, before.outflows, before.opening, before.closing]);
    // The figures add up to the change in the group's NAV, to the cent.
    expect(sum([pack.opening!, pack.inflows, -pack.outflows, pack.internal, pack.accruals!, pack.priceEffect!, pack.other!])).toBe(pack.closing);
    expect(Math.abs(pack.other!)).toBeLessThanOrEqual(0.05);

    const closed = cli(['close', 'add', '--group', 'Fund I', '--from', FROM, '--to', TO]);
    expect(closed.status, closed.stdout + closed.stderr).toBe(0);
    const pdf = join(dataDir, 'pack.pdf');
    const again = join(dataDir, 'pack-again.pdf');
    expect(cli(['export', 'pdf', '--document', 'pack', '--group', 'Fund I', '--from', FROM, '--to', TO, '--out', pdf]).status).toBe(0);
    expect(cli(['export', 'pdf', '--document', 'pack', '--group', 'Fund I', '--from', FROM, '--to', TO, '--out', again]).status).toBe(0);
    expect(readFileSync(again).equals(readFileSync(pdf))).toBe(true);
    const text = spawnSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).stdout;
    expect(text).toContain('Monthly pack: Fund I');
    expect(text).toMatch(/Status\s+closed .* the figures as closed/);
    expect(text).toMatch(/Grantee X\s+address book/);
    expect(text).toMatch(/Grants\s+\$[\d,.]+\s+\$[\d,.]+/);
    mkdirSync(SHOTS, { recursive: true });
    spawnSync('pdftoppm', ['-r', '60', '-png', '-f', '1', '-l', '2', pdf, join(SHOTS, 'month-end-pack')]);

    // The service restates transactions inside the period; the next sync flags the close.
    for (const w of [WALLET, WALLET_2]) sim.live!.settle(w, chainById('eth')!);
    for (const w of [WALLET, WALLET_2]) await waitForJobs(core, [await core.call('sync.transactions', { wallet: w })]);
    const changes = (await core.call('changes.list', {})).filter((c) => c.time >= Date.parse(`${FROM}T00:00:00Z`) + 86_400_000);
    expect(changes.length).toBeGreaterThan(0);
    let close = (await core.call('closes.list', undefined))[0]!;
    for (let i = 0; i < 50 && close.state !== 'flagged'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      close = (await core.call('closes.list', undefined))[0]!;
    }
    expect(close).toMatchObject({ state: 'flagged', opening: pack.opening, closing: pack.closing });
    const shown = cli(['close', 'show', String(close.id)]);
    expect(shown.status).toBe(3);
    for (const c of changes.filter((c) => c.kind !== 'late')) expect(shown.stdout).toContain(c.txnHash.slice(0, 10));
    const inbox = await core.call('alerts.inbox', {});
    expect(inbox.alerts.map((a) => a.kind)).toContain('closed-period-changed');
    // The closed figures stay; the PDF says the data changed since.
    const flagged = join(dataDir, 'pack-flagged.pdf');
    expect(cli(['export', 'pdf', '--document', 'pack', '--group', 'Fund I', '--from', FROM, '--to', TO, '--out', flagged]).status).toBe(0);
    const flaggedText = spawnSync('pdftotext', ['-layout', flagged, '-'], { encoding: 'utf8' }).stdout;
    expect(flaggedText).toContain('CHANGED SINCE CLOSE');
    for (const line of text.split('\n').filter((l) => /^(Opening|Closing) NAV/.test(l.trim()))) expect(flaggedText).toContain(line.trim());
    spawnSync('pdftoppm', ['-r', '60', '-png', '-f', '1', '-l', '1', flagged, join(SHOTS, 'month-end-pack-flagged')]);

    // Every edit of the case above, with before and after, from the CLI's audit trail.
    const trail = JSON.parse(cli(['audit', '--limit', '100', '--json']).stdout) as Array<{
      entity: string;
      action: string;
      before: unknown;
      after: unknown;
      origin: string;
    }>;
    const edits = trail.map((e) => `${e.origin} ${e.entity} ${e.action}`).reverse();
    expect(edits).toEqual([
      'wallets.add wallet create',
      'wallets.add wallet create',
      'groups.save group create',
      'counterparties.import counterparty create',
      'counterparties.import counterparty create',
      'rules.save rule create',
      'closes.close period close',
    ]);
    for (const e of trail) expect(e.before !== null || e.after !== null).toBe(true);
    expect(trail.find((e) => e.entity === 'counterparty' && (e.after as { name: string }).name === 'Grantee X')).toBeDefined();
    copyFileSync(pdf, join(SHOTS, 'month-end-pack.pdf'));
  });
});
