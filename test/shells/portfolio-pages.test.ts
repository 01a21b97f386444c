import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { TOKEN_HOLDINGS_MAX, type PortfolioSummary, type TokensPage, type UnderlyingPage } from '../../src/shared/portfolio/summary.ts';
import type { PortfolioView } from '../../src/shared/portfolio/view.ts';
import { runCliHere } from '../support/cli-in-process.ts';
import { runCli } from '../support/cli-process.ts';
import { fundWallet, seedFund } from '../support/fund.ts';
import { tempDir } from '../support/store.ts';

/**
 * `folioscope portfolio --json` over a fund's cache (issue 40 item 2): 200 wallets on 2 chains,
 * one wallet chain not cached, filed straight into SQLite as a sync files it. By default the
 * program writes the summary and one page of rows, a small valid JSON (the whole view is about
 * 25 MB here); `--all` still writes the whole view, with the same totals; the pages and filters
 * reach the core; a bad option is a usage error (exit 2); partial is exit 3 as before. As a
 * process, as a cron job or a script runs it.
 */
const DATE = '2026-10-31';
const WALLETS = 200;
let g: string[];
const env = {};
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

beforeAll(() => {
  const dir = tempDir();
  // The cache the program opens for a data folder without a service (demo mode): profile.ts databaseFileFor.
  const db = openDatabase(join(dir, 'demo.sqlite'));
  seedFund(db, { wallets: WALLETS, chains: 2, date: DATE, notCached: 1 });
  db.close();
  g = ['--data-dir', dir];
}, 120_000);

describe('folioscope portfolio --json over 200 wallets × 2 chains', () => {
  it('writes the summary and the first page by default: small, valid, partial (exit 3); --all the whole view, the same totals', async () => {
    const summary = await runCli([...g, 'portfolio', '--json'], env);
    expect(summary.status, summary.stderr).toBe(3);
    expect(summary.stderr).toContain('1 wallet chain is not cached at 2026-10-31: the totals are partial.');
    // The summary of 400 members and ~7,000 positions: its figures and 100 rows, not the whole view.
    expect(bytes(summary.stdout)).toBeLessThan(400_000);
    const s = JSON.parse(summary.stdout) as PortfolioSummary;
    expect(s).toMatchObject({ date: DATE, walletCount: WALLETS, complete: false, coverage: { members: 400, notCached: 1 } });
    expect(s.coverage.notFullyCached.members.map((m) => [m.wallet, m.chain, m.state])).toEqual([[fundWallet(WALLETS - 1), 'arb', 'not-cached']]);
    expect(s.rows).toMatchObject({ table: 'positions', offset: 0, limit: 100, total: s.totals.count });
    expect(s.rows.rows).toHaveLength(100);
    expect(s.totals.count).toBeGreaterThan(5000);

    const all = await runCli([...g, 'portfolio', '--json', '--all'], env);
    expect(all.status, all.stderr).toBe(3);
    expect(bytes(all.stdout)).toBeGreaterThan(20 * bytes(summary.stdout));
    const view = JSON.parse(all.stdout) as PortfolioView;
    expect(view.totals).toEqual(s.totals);
    expect(view.allocation).toEqual(s.allocation);
    expect(view.positions).toHaveLength(s.rows.total);
    expect(view.positions.slice(0, 100)).toEqual(s.rows.rows);
    expect(view.missing.map((m) => [m.wallet, m.chain])).toEqual([[fundWallet(WALLETS - 1), 'arb']]);
  }, 240_000);

  it('a page, sorted and filtered in the core; a table alone; the text output as it was', async () => {
    const page = await runCli([...g, 'portfolio', '--json', '--page', '2', '--limit', '50', '--sort', 'symbol', '--order', 'desc', '--chain', 'arb'], env);
    expect(page.status, page.stderr).toBe(3);
    const p = JSON.parse(page.stdout) as PortfolioSummary;
    expect(p.rows).toMatchObject({ offset: 50, limit: 50, sort: 'symbol', order: 'desc' });
    expect(p.rows.rows).toHaveLength(50);
    expect(p.rows.rows.every((r) => r.chain === 'arb')).toBe(true);
    expect(p.rows.total).toBeLessThan(p.rows.of);
    const symbols = p.rows.rows.map((r) => (r.position.symbol ?? r.position.name ?? '').toLowerCase()).filter(Boolean);
    expect(symbols).toEqual([...symbols].sort().reverse());

    const tokens = await runCli(
      [...g, 'portfolio', '--json', '--table', 'underlying', '--limit', '5', '--filter-wallet', fundWallet(3).toUpperCase().replace('0X', '0x')],
      env,
    );
    expect(tokens.status, tokens.stderr).toBe(3);
    const t = JSON.parse(tokens.stdout) as UnderlyingPage;
    expect(t).toMatchObject({ table: 'underlying', limit: 5, complete: false, notCached: 1 });
    expect(t.rows.length).toBeGreaterThan(0);
    expect(t.rows.every((r) => r.wallet === fundWallet(3))).toBe(true);
    expect(bytes(tokens.stdout)).toBeLessThan(50_000);

    const text = await runCli([...g, 'portfolio'], env);
    expect(text.status).toBe(3);
    expect(text.stdout).toMatch(/^PARTIAL portfolio as of 2026-10-31: total NAV \$[\d,.]+ \(principal .*\), \d+ positions across 200 wallets$/m);
    expect(text.stdout).toContain(`NOT CACHED\t${fundWallet(WALLETS - 1)}\tarb\tFund wallet ${WALLETS}\tnot in the totals`);
  }, 240_000);

  it('refuses an option out of range or out of place (exit 2), saying which; a wallet outside the scope too (exit 1)', async () => {
    for (const [args, message] of [
      [['--json', '--limit', '501'], /--limit must be a whole number from 1 to 500/],
      [['--json', '--limit', '1.5'], /--limit must be a whole number/],
      [['--json', '--page', '0'], /--page must be a whole number from 1/],
      [['--json', '--sort', 'size'], /--sort must be one of value, wallet, chain, protocol, symbol, name/],
      [['--json', '--order', 'up'], /--order must be one of asc, desc/],
      [['--json', '--table', 'members'], /--table must be one of positions, underlying, tokens, liquidity, spam/],
      [['--page', '2'], /--page chooses rows of --json's summary: use it with --json, without --all/],
      [['--json', '--all', '--chain', 'eth'], /--chain chooses rows/],
      [['--all'], /--all goes with --json/],
      [['--json', '--table', 'underlying', '--members-page', '2'], /--members-page pages the summary's members/],
    ] as const) {
      const r = await runCliHere([...g, 'portfolio', ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stdout).toBe('');
    }
    // The tables Positions reads are the CLI's too: tokens across wallets and chains, each with its largest holdings and how many it has.
    const tokens = await runCliHere([...g, 'portfolio', '--json', '--table', 'tokens', '--limit', '3']);
    expect(tokens.status, tokens.stderr).toBe(3);
    const t = JSON.parse(tokens.stdout) as TokensPage;
    expect(t).toMatchObject({ table: 'tokens', limit: 3, notCached: 1 });
    expect(t.rows).toHaveLength(3);
    expect(t.rows.every((r) => r.holdings.length <= TOKEN_HOLDINGS_MAX && r.holdingCount >= r.holdings.length)).toBe(true);
    expect(t.rows.some((r) => r.holdingCount > r.holdings.length)).toBe(true);
    const outside = await runCliHere([...g, 'portfolio', '--json', '--filter-wallet', '0x' + '9'.repeat(40)]);
    expect(outside.status).toBe(1);
    expect(outside.stderr).toMatch(/is not a wallet of this scope/);
  }, 240_000);
});
