/** `folioscope portfolio` and `folioscope reconcile`: the cached views of a scope at a date and between two, read offline. */
import { forTerminal, jsonForTerminal } from '../../../shared/text-safety.ts';
import { call, checkDateOptions, type Globals, IncompleteError, parse, resolveGroup, UsageError, withCore } from '../context.ts';
import { say, setExitCode, warn } from '../io.ts';
import { MEMBER_PAGE_DEFAULT, ROW_PAGE_DEFAULT, ROW_PAGE_MAX, ROW_SORTS, ROW_TABLES } from '../../../shared/portfolio/summary.ts';

export async function portfolioCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope portfolio [--wallet ADDRESS | --group NAME|ID] [--date YYYY-MM-DD]
                          [--json [--page N] [--limit N] [--sort KEY] [--order asc|desc]
                                  [--chain ID] [--protocol ID] [--search TEXT] [--filter-wallet ADDRESS]
                                  [--table ${ROW_TABLES.join('|')}] [--members-page N] | --json --all]
  Total, principal and reward NAV of the scope at the date (default: the newest cached date), with
  each wallet chain it covers: the same view the app's Overview and the reports read. A wallet
  chain not cached at the date is named and left out of the totals; the command then exits 3.
  --json writes the summary of the view: totals, allocation, exposure, risk, unlocks, spam counted,
  coverage counted (with the wallet chains not fully cached, ${MEMBER_PAGE_DEFAULT} a page: --members-page N),
  and one page of positions, largest first: ${ROW_PAGE_DEFAULT} rows (--limit N, at most ${ROW_PAGE_MAX}),
  page 1 (--page N; "rows.total" says how many rows pass the filters).
  --sort ${ROW_SORTS.join('|')} orders the rows (value largest first, the others A to Z
  unless --order says otherwise); --chain, --protocol, --filter-wallet (a wallet of the scope) and
  --search (in a symbol or name, any case) filter them. The totals are always the whole scope's;
  "rows.totals" are those of the rows that pass the filters.
  --table ${ROW_TABLES.join('|')} writes only that page of the table (by-token rows: underlying,
  one per wallet chain; tokens: one per token across wallets and chains, its 25 largest holdings;
  liquidity; spam: the positions left out as spam, with their verdicts).
  --json --all writes the whole view as before: every row of the three tables, every member,
  the responses' provenance (25 MB for 200 wallets on 2 chains, hundreds of MB for 1,000 on 6).`;
  const p = parse(
    args,
    {
      wallet: { type: 'string' },
      group: { type: 'string' },
      date: { type: 'string' },
      json: { type: 'boolean' },
      all: { type: 'boolean' },
      page: { type: 'string' },
      limit: { type: 'string' },
      sort: { type: 'string' },
      order: { type: 'string' },
      chain: { type: 'string' },
      protocol: { type: 'string' },
      search: { type: 'string' },
      'filter-wallet': { type: 'string' },
      table: { type: 'string' },
      'members-page': { type: 'string' },
    },
    usage,
  );
  if (!p) return;
  const v = p.values;
  if (v.wallet && v.group) throw new UsageError(`Use --wallet or --group, not both.\n\n${usage}`);
  if (p.positionals.length) throw new UsageError(`Unexpected argument "${forTerminal(p.positionals[0]!.slice(0, 40))}".\n\n${usage}`);
  checkDateOptions(v, usage);
  const paging = (['page', 'limit', 'sort', 'order', 'chain', 'protocol', 'search', 'filter-wallet', 'table', 'members-page'] as const).filter(
    (k) => v[k] !== undefined,
  );
  if (v.all && !v.json) throw new UsageError(`--all goes with --json.\n\n${usage}`);
  if (paging.length && (!v.json || v.all))
    throw new UsageError(`--${paging[0]} chooses rows of --json's summary: use it with --json, without --all.\n\n${usage}`);
  const whole = (name: string, text: string | undefined, max: number) => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < 1 || n > max)
      throw new UsageError(`--${name} must be a whole number from 1 to ${max.toLocaleString('en-US')}.\n\n${usage}`);
    return n;
  };
  const oneOf = <T extends string>(name: string, text: string | undefined, values: readonly T[]): T | undefined => {
    if (text === undefined) return undefined;
    if (!(values as readonly string[]).includes(text)) throw new UsageError(`--${name} must be one of ${values.join(', ')}.\n\n${usage}`);
    return text as T;
  };
  const limit = whole('limit', v.limit, ROW_PAGE_MAX) ?? ROW_PAGE_DEFAULT;
  const page = whole('page', v.page, 1_000_000) ?? 1;
  const membersPage = whole('members-page', v['members-page'], 1_000_000) ?? 1;
  const sort = oneOf('sort', v.sort, ROW_SORTS);
  const order = oneOf('order', v.order, ['asc', 'desc'] as const);
  const table = oneOf('table', v.table, ROW_TABLES);
  if (table && v['members-page'] !== undefined) throw new UsageError(`--members-page pages the summary's members: not with --table.\n\n${usage}`);
  const filter = {
    ...(v.chain !== undefined && { chain: v.chain }),
    ...(v.protocol !== undefined && { protocol: v.protocol }),
    ...(v.search !== undefined && { text: v.search }),
    ...(v['filter-wallet'] !== undefined && { wallet: v['filter-wallet'] }),
  };
  const rows = { offset: (page - 1) * limit, limit, ...(sort && { sort }), ...(order && { order }), ...(Object.keys(filter).length && { filter }) };
  await withCore(g, async (core) => {
    const group = v.group ? await resolveGroup(core, v.group) : undefined;
    const scope = { ...(v.wallet && { wallet: v.wallet }), ...(group && { group: group.id }) };
    const date = v.date ?? (await call(core, 'positions.dates', scope))[0];
    if (!date) throw new Error('No positions are cached yet: sync first (folioscope sync).');
    if (v.json && !v.all) {
      // What a screen shows (issue 40 item 2): the summary and a page, cut in the core; --all for the whole view.
      const out = table
        ? await call(core, 'portfolio.rows', { ...scope, date, table, ...rows })
        : await call(core, 'portfolio.summary', {
            ...scope,
            date,
            rows,
            members: { offset: (membersPage - 1) * MEMBER_PAGE_DEFAULT, limit: MEMBER_PAGE_DEFAULT },
          });
      if ('walletCount' in out && !out.walletCount) throw new Error('No wallets are watched: add one first (folioscope wallet add).');
      say(jsonForTerminal(out));
      const notCached = 'walletCount' in out ? out.coverage.notCached : out.notCached;
      if (!out.complete)
        throw new IncompleteError(`${notCached} wallet chain${notCached === 1 ? ' is' : 's are'} not cached at ${date}: the totals are partial.`);
      return;
    }
    const view = await call(core, 'portfolio.view', { ...scope, date });
    if (!view.wallets.length) throw new Error('No wallets are watched: add one first (folioscope wallet add).');
    if (v.json) say(jsonForTerminal(view));
    else {
      const usd = (n: number | null) => (n === null ? '—' : `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);
      const t = view.totals;
      say(
        `${view.complete ? 'Portfolio' : 'PARTIAL portfolio'} as of ${date}: total NAV ${usd(t.total)} (principal ${usd(t.principal)}, rewards ${usd(t.reward)}), ` +
          `${t.count} position${t.count === 1 ? '' : 's'} across ${view.walletsCounted === view.wallets.length ? '' : `${view.walletsCounted} of `}${view.wallets.length} wallet${view.wallets.length === 1 ? '' : 's'}`,
      );
      if (view.unknownValues) say(`${view.unknownValues} position value${view.unknownValues === 1 ? '' : 's'} unreadable: left out of the totals.`);
      // As beside every total on screen and in the PDF: what was left out as spam (docs/spam.md), and what it claimed.
      if (view.spam.count)
        say(
          forTerminal(
            `${view.spam.count} spam token${view.spam.count === 1 ? '' : 's'} left out of the totals, claimed ${usd(view.spam.claimed)}: ${view.spam.rows
              .slice(0, 5)
              .map((r) => `${r.position.symbol ?? r.position.name ?? '?'} (${r.chain})`)
              .join(', ')}${view.spam.count > 5 ? ` and ${view.spam.count - 5} more` : ''}. folioscope spam explain says why.`,
          ),
        );
      for (const m of view.members)
        say(
          [
            m.state === 'not-cached' ? 'NOT CACHED' : m.state === 'views-missing' ? 'VIEWS MISSING' : 'ok',
            m.wallet,
            m.chain,
            forTerminal(m.label ?? ''),
            m.state === 'not-cached'
              ? `not in the totals${m.nearestBefore || m.nearestAfter ? `; cached at ${[m.nearestBefore, m.nearestAfter].filter(Boolean).join(' and ')} (not used)` : ''}`
              : m.moment
                ? forTerminal(m.moment)
                : '',
          ].join('\t'),
        );
    }
    if (!view.complete)
      throw new IncompleteError(
        `${view.missing.length} wallet chain${view.missing.length === 1 ? ' is' : 's are'} not cached at ${date}: the totals are partial.`,
      );
  });
}

export async function reconcileCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope reconcile [--wallet ADDRESS | --group NAME|ID] --from YYYY-MM-DD --to YYYY-MM-DD [--json]
  Per wallet, chain and token: opening quantity (positions at the end of --from), inflows and
  outflows (transfers of successful transactions dated after --from through --to), closing
  quantity (at the end of --to), and the unexplained remainder. From the cache only; both
  dates' positions and the period's transactions must be synced, or it says what is missing.
  Exits 0 when complete (even with unexplained remainders), 3 when inputs are missing.`;
  const p = parse(
    args,
    { wallet: { type: 'string' }, group: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, json: { type: 'boolean' } },
    usage,
  );
  if (!p) return;
  const v = p.values;
  if (!v.from || !v.to) throw new UsageError(`--from and --to are required.\n\n${usage}`);
  if (v.wallet && v.group) throw new UsageError(`Use --wallet or --group, not both.\n\n${usage}`);
  if (p.positionals.length) throw new UsageError(`Unexpected argument "${forTerminal(p.positionals[0]!.slice(0, 40))}".\n\n${usage}`);
  checkDateOptions(v, usage);
  await withCore(g, async (core) => {
    const { from, to } = v as { from: string; to: string };
    const group = v.group ? await resolveGroup(core, v.group) : undefined;
    const r = await call(core, 'reconcile.get', { ...(v.wallet && { wallet: v.wallet }), ...(group && { group: group.id }), from, to });
    if (v.json) {
      // Symbols and chains are the service's: escaped where they could steer a terminal (U+009B is a CSI).
      say(jsonForTerminal(r.rows));
    } else {
      // A figure of a date not cached is unknown: "—", never 0.
      const num = (n: number | null) =>
        n === null
          ? '—'
          : n === 0
            ? '0'
            : n
                .toPrecision(10)
                .replace(/(\.\d*?)0+$/, '$1')
                .replace(/\.$/, '');
      say(`Roll-forward ${r.from} → ${r.to} (transfers dated ${isoDay(r.flowsFrom)} to ${isoDay(r.flowsTo - 1)}, UTC)`);
      say(['wallet', 'chain', 'token', 'opening', 'inflow', 'outflow', 'closing', 'unexplained', 'status'].join('\t'));
      // Symbols and chains come from the service: nothing in them may steer the terminal.
      for (const x of r.rows)
        // Each field neutralised on its own: forTerminal would show the tabs between them as <U+0009>.
        say(
          [
            x.wallet.slice(0, 10),
            x.chain,
            x.token_symbol ?? x.token_cid,
            num(x.opening_qty),
            num(x.inflow_qty),
            num(x.outflow_qty),
            num(x.closing_qty),
            num(x.unexplained_qty),
            x.status,
          ]
            .map((f) => forTerminal(String(f ?? '')))
            .join('\t'),
        );
      if (r.moves.length)
        say(
          `${r.moves.length} transaction(s) opened or closed the wallets' own positions: their transfers are moves between balances and positions, not in inflow or outflow.`,
        );
    }
    if (!r.complete) {
      for (const pr of r.problems) warn(forTerminal(`incomplete: ${pr.wallet} ${pr.chain}: ${pr.message}`));
      setExitCode(3);
    }
  });
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
