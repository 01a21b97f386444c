import type { Writable } from 'node:stream';
import { CSV_REPORTS, type CsvReport, type ExportRequest } from '../../../shared/contract.ts';
import type { LiquiditySnapshot, PositionSnapshot, UnderlyingSnapshot, ValueFlag } from '../../../shared/service/schemas.ts';
import type { ReadableDB } from '../store/db.ts';
import { latestSnapshots, snapshotData } from '../positions/index.ts';
import { portfolioNav } from '../portfolio/index.ts';
import type { SpamVerdict } from '../../../shared/spam.ts';
import { reconcile } from '../analytics/index.ts';
import type { ScopedTimelineFilter } from '../ledger/index.ts';
import { listWallets } from '../store/wallets.ts';
import { listGroups } from '../store/groups.ts';
import { iterateEdits } from '../audit/index.ts';
import { rollForwardLines, type MonthlyPack, type PackFlowLine } from '../../../shared/pack.ts';
import { listCounterparties } from '../counterparties/index.ts';
import { CSV_COLUMNS as BOOK_COLUMNS } from '../counterparties/index.ts';
import { ValidationError } from '../store/validation.ts';
import { addressKey } from '../store/address-key.ts';
import { CsvWriter, type Cell } from './csv.ts';
import { portfolioView, unlockLadder, VIEW_OF } from '../portfolio/index.ts';
import { memberNames } from '../../../shared/portfolio/view.ts';
import { writeTransactionsCsv } from './csv-transactions.ts';
import type { SpamCellsOptions } from './spam-cells.ts';
import type { PackClosed } from './pack-pdf.ts';
import { flaggedNote, invalidNote, momentNote } from '../../../shared/quality.ts';

/**
 * The CSV exports, built from the local cache only (offline, reproducible). Column names are
 * stable and documented in docs/reports.md; money is USD, quantities in token units.
 */
export { CSV_REPORTS, type CsvReport };

/** A CSV report's request: the export's (src/shared/contract.ts), with the wallets a group stands for. */
export type CsvRequest = Pick<ExportRequest, 'wallet' | 'date' | 'from' | 'to' | 'filter'> & {
  report: CsvReport;
  /** A set of wallets (a wallet group), instead of `wallet`. */
  wallets?: string[];
  /** The group's name, for the history report's scope column. */
  groupName?: string;
  /** The monthly pack, built by the export (report `pack`), and whether it is a closed period's as stored. */
  pack?: MonthlyPack;
  packClosed?: PackClosed | undefined;
};

export const CSV_COLUMNS: Record<CsvReport, readonly string[]> = {
  positions: [
    'as_of',
    'fetched_at',
    'request_id',
    'wallet',
    'wallet_label',
    'chain',
    'asset_type',
    'protocol_id',
    'position_cid',
    'position_name',
    'position_symbol',
    'position_principal_nav_usd',
    'position_reward_nav_usd',
    'underlying_id',
    'underlying_symbol',
    'underlying_name',
    'qty',
    'nav_usd',
    'is_reward',
    'detail_type',
    'liq_threshold',
    'collateral_debt_ratio',
    'unlock_time',
    'voting_power',
    'exchange_rate',
    'debt_positions',
    'collateral',
    'spam',
    'data_quality',
    'coverage',
  ],
  underlying: [
    'as_of',
    'fetched_at',
    'request_id',
    'wallet',
    'wallet_label',
    'chain',
    'token_id',
    'token_symbol',
    'token_name',
    'token_cid',
    'token_total_qty',
    'token_total_nav_usd',
    'position_id',
    'asset_type',
    'protocol_id',
    'position_name',
    'qty',
    'nav_usd',
    'spam',
    'data_quality',
    'coverage',
  ],
  liquidity: [
    'as_of',
    'fetched_at',
    'request_id',
    'wallet',
    'wallet_label',
    'chain',
    'asset_type',
    'protocol_id',
    'position_cid',
    'principal_token_name',
    'principal_token_symbol',
    'principal_qty',
    'principal_total_supply',
    'principal_pct_ownership',
    'underlying_symbol',
    'underlying_name',
    'qty',
    'total_supply',
    'pct_ownership',
    'is_reward',
    'slippage',
    'liq_threshold',
    'unlocked_time',
    'voting_power',
    'exchange_rate',
    'debt_positions',
    'collaterals',
    'spam',
    'data_quality',
    'coverage',
  ],
  transactions: [
    'date',
    'wallet',
    'wallet_label',
    'chain',
    'txn_hash',
    'block',
    'action_type',
    'protocol_id',
    'method_hex',
    'status',
    'from',
    'from_type',
    'to',
    'to_type',
    'txn_fee_native',
    'fee_usd',
    'transfer_index',
    'direction',
    'token_symbol',
    'token_cid',
    'qty',
    'restated',
    'from_name',
    'to_name',
    'counterparty_kind',
    'category',
    'category_source',
    'note',
    'spam',
  ],
  history: [
    'date',
    'scope',
    'total_nav_usd',
    'principal_nav_usd',
    'reward_nav_usd',
    'chains_cached',
    'chains_watched',
    'fetched_at',
    'spam_positions',
    'spam_claimed_usd',
    'data_quality',
  ],
  reconciliation: [
    'from',
    'to',
    'wallet',
    'wallet_label',
    'chain',
    'token_symbol',
    'token_name',
    'token_id',
    'token_cid',
    'opening_qty',
    'inflow_qty',
    'outflow_qty',
    'closing_qty',
    'unexplained_qty',
    'unexplained_share',
    'wallet_opening_qty',
    'wallet_closing_qty',
    'wallet_unexplained_qty',
    'moved_to_positions_qty',
    'position_change_qty',
    'txn_count',
    'status',
    'problems',
    'spam',
  ],
  unlocks: [
    'as_of',
    'unlock_time',
    'wallet',
    'wallet_label',
    'chain',
    'protocol_id',
    'position_name',
    'token_id',
    'token_symbol',
    'qty',
    'nav_usd',
    'voting_power',
  ],
  // The monthly pack in one sheet, a section per table (docs/pack.md).
  pack: [
    'section',
    'key',
    'name',
    'kind',
    'value_usd',
    'opening_usd',
    'inflow_usd',
    'outflow_usd',
    'closing_usd',
    'transfers',
    'unvalued',
    'flow_usd',
    'accrual_usd',
    'price_effect_usd',
    'price_dates',
    'note',
  ],
  // The user's edits (the audit trail), oldest first; before/after are the item as JSON.
  audit: ['at', 'entity', 'item', 'action', 'origin', 'person', 'via', 'reason', 'before', 'after'],
  // The address book, in the columns its import reads (docs/address-book.md).
  counterparties: [...BOOK_COLUMNS],
  // The watched wallets, in the columns their import reads (docs/wallet-import.md; the same as
  // wallets.export, wallets/csv.ts, which this part sits beside: a test holds the two equal).
  wallets: ['address', 'label', 'chains', 'tags', 'groups'],
};

export interface ExportProgress {
  (done: number, total: number | null): void;
}

export async function exportCsv(
  db: ReadableDB,
  req: CsvRequest,
  out: Writable,
  onProgress: ExportProgress = () => undefined,
  signal?: AbortSignal,
  /** How the transactions report judges spam (spam-cells.ts): tests and benchmarks choose the thread. */
  spam: SpamCellsOptions = {},
): Promise<{ rows: number; spamThread?: boolean }> {
  const labels = new Map(listWallets(db).map((w) => [w.address, w.label]));
  const wallet = req.wallet ? addressKey(req.wallet) : undefined;
  if (wallet && !labels.has(wallet)) throw new ValidationError('wallet', `${req.wallet} is not a watched wallet.`);
  for (const w of req.wallets ?? []) if (!labels.has(w)) throw new ValidationError('wallet', `${w} is not a watched wallet.`);
  if ((req.report === 'positions' || req.report === 'underlying' || req.report === 'liquidity') && !req.date) {
    throw new ValidationError('date', 'Choose the date of the positions to export.');
  }
  const writer = new CsvWriter(out, CSV_COLUMNS[req.report], { bom: true });
  let spamThread: boolean | undefined;
  const check = () => {
    if (signal?.aborted) throw new Error('Export cancelled.');
  };
  try {
    switch (req.report) {
      case 'positions':
      case 'underlying':
      case 'liquidity': {
        const endpoint = req.report === 'positions' ? 'allPositions' : req.report === 'underlying' ? 'positionsByUnderlying' : 'liquidityAnalysis';
        // Coverage from the one portfolio view: a member of the scope not cached at the date gets
        // a row saying so, and every row says whether the sheet covers the whole scope.
        const scope = listWallets(db).filter((w) => (!wallet || w.address === wallet) && (!req.wallets || req.wallets.includes(w.address)));
        if (!scope.length) throw new ValidationError('wallet', 'No wallets are watched.');
        // The members of the scope only: a chain no longer watched is not the wallet's any more.
        const snaps = latestSnapshots(db, endpoint, { date: req.date!, ...(wallet && { wallet }) }).filter((s) =>
          scope.some((w) => w.address === s.wallet && w.chains.includes(s.chain)),
        );
        // The one portfolio view of the date: its coverage (a member not cached gets a row saying
        // so), and spam as it judged it, kept in the sheet and said on its rows (docs/spam.md), so
        // a file never disagrees with the screen.
        const view = portfolioView(db, scope, req.date!);
        const absent = view.members.filter((m) => !m.views[VIEW_OF[endpoint]]);
        const coverage = absent.length ? 'partial' : 'complete';
        const width = CSV_COLUMNS[req.report].length;
        // Rows keyed as the view keys them (src/shared/portfolio/rows.ts): wallet:chain:cid (or name).
        const spamVerdicts = new Map(view.spam.rows.map((r) => [r.key, r.verdict]));
        const tokenKeys = (rows: typeof view.positions) => rows.flatMap((r) => r.position.underlying.map((u) => `${r.wallet}|${r.chain}|${u.internal_id}`));
        // As the view: a token only spam positions hold is spam in the by-token sheet.
        const heldGenuine = new Set(tokenKeys(view.positions));
        const spamTokens = new Set(tokenKeys(view.spam.rows).filter((k) => !heldGenuine.has(k)));
        for (const [k, s] of snaps.entries()) {
          check();
          const base = [s.as_of, s.fetched_at, s.request_id, s.wallet, labels.get(s.wallet) ?? '', s.chain] as const;
          // A snapshot-level note (its date named another day, its views not of one moment) goes on each of its rows.
          const flags = s.quality ? (JSON.parse(s.quality) as ValueFlag[]) : [];
          const moment = momentNote(flags);
          const dateNote = [...flags.filter((f) => f.path === 'data[0].date').map((f) => `dated ${f.value}`), ...(moment ? [moment] : [])].join('; ');
          const note = (row: string) => (dateNote && row ? `${dateNote}; ${row}` : dateNote || row);
          if (req.report === 'positions') {
            for (const snap of snapshotData<'allPositions'>(db, s.id) as PositionSnapshot[])
              for (const p of snap.positions) {
                const verdict = spamVerdicts.get(`${s.wallet}:${s.chain}:${p.cid ?? p.name}`) ?? null;
                for (const u of p.underlying.length ? p.underlying : [null]) {
                  const d = u?.details ?? {};
                  await writer.row([
                    ...base,
                    p.asset_type,
                    p.protocol_id,
                    p.cid,
                    p.name,
                    p.symbol,
                    p.principal_nav,
                    p.reward_nav,
                    u?.internal_id,
                    u?.symbol,
                    u?.name,
                    u?.qty,
                    u?.nav,
                    d.is_reward,
                    d.type,
                    d.liq_threshold,
                    d.collateral_debt_ratio,
                    d.unlock_time,
                    d.voting_power,
                    d.exchange_rate,
                    d.debt_positions?.join(' '),
                    d.collateral?.join(' '),
                    spamCell(verdict),
                    note(invalidNote(['position.', p], ['', u], ['details.', u?.details])),
                    coverage,
                  ]);
                }
              }
          } else if (req.report === 'underlying') {
            for (const snap of snapshotData<'positionsByUnderlying'>(db, s.id) as UnderlyingSnapshot[])
              for (const g of snap.positions)
                for (const b of g.breakdown.length ? g.breakdown : [null])
                  await writer.row([
                    ...base,
                    g.token_id,
                    g.token_symbol,
                    g.token_name,
                    g.token_cid,
                    g.total_qty,
                    g.total_nav,
                    b?.pos_id,
                    b?.asset_type,
                    b?.protocol_id,
                    b?.name,
                    b?.qty,
                    b?.nav,
                    spamTokens.has(`${s.wallet}|${s.chain}|${g.token_id}`) ? SPAM_TOKEN : '',
                    note(invalidNote(['token.', g], ['', b])),
                    coverage,
                  ]);
          } else {
            for (const snap of snapshotData<'liquidityAnalysis'>(db, s.id) as LiquiditySnapshot[])
              for (const p of snap.positions)
                for (const u of p.underlying.length ? p.underlying : [null]) {
                  const d = u?.details ?? {};
                  await writer.row([
                    ...base,
                    p.asset_type,
                    p.protocol_id,
                    p.cid,
                    p.principal_token_name,
                    p.principal_token_symbol,
                    p.principal_qty,
                    p.principal_total_supply,
                    p.principal_pct_ownership,
                    u?.symbol,
                    u?.name,
                    u?.qty,
                    u?.total_supply,
                    u?.pct_ownership,
                    d.is_reward,
                    d.slippage,
                    d.liq_threshold,
                    d.unlocked_time,
                    d.voting_power,
                    d.exchange_rate,
                    d.debt_positions?.join(' '),
                    d.collaterals?.join(' '),
                    spamVerdicts.has(`${s.wallet}:${s.chain}:${p.cid ?? p.principal_token_name}`) ? SPAM_TOKEN : '',
                    note(invalidNote(['position.', p], ['', u], ['details.', u?.details])),
                    coverage,
                  ]);
                }
          }
          onProgress(k + 1, snaps.length);
        }
        for (const m of absent) {
          const near = [m.nearestBefore, m.nearestAfter].filter(Boolean).join(' and ');
          const row: Cell[] = [req.date, null, null, m.wallet, labels.get(m.wallet) ?? '', m.chain];
          while (row.length < width - 2) row.push(null);
          row.push(`not cached at ${req.date}: not in this sheet's figures${near ? ` (cached at ${near}; not used)` : ''}`, 'not cached');
          await writer.row(row);
        }
        break;
      }
      case 'transactions': {
        const filter: ScopedTimelineFilter = {
          ...req.filter,
          ...(wallet && { wallet }),
          ...(req.wallets && { wallets: req.wallets }),
          ...(req.from && { from: req.from }),
          ...(req.to && { to: req.to }),
        };
        spamThread = (await writeTransactionsCsv(db, filter, writer, onProgress, check, spam)).spamThread;
        break;
      }
      case 'reconciliation': {
        if (!req.from || !req.to) throw new ValidationError('from', 'Choose the opening and closing dates of the reconciliation.');
        const wallets = req.wallets ?? (wallet ? [wallet] : [...labels.keys()]);
        const r = reconcile(db, { wallets, from: req.from, to: req.to });
        // Problems go on the rows of their (wallet, chain), so a filtered sheet still says what is missing.
        const problems = (w: string, c: string) =>
          r.problems
            .filter((p) => p.wallet === w && p.chain === c)
            .map((p) => p.message)
            .join('; ');
        // The tokens judged spam last, said so: reconciled as the others, in no figure of the sheet's readers.
        for (const x of [...r.rows, ...r.spam]) {
          await writer.row([
            r.from,
            r.to,
            x.wallet,
            labels.get(x.wallet) ?? '',
            x.chain,
            x.token_symbol,
            x.token_name,
            x.token_id,
            x.token_cid,
            x.opening_qty,
            x.inflow_qty,
            x.outflow_qty,
            x.closing_qty,
            x.unexplained_qty,
            x.unexplained_share,
            x.wallet_opening_qty,
            x.wallet_closing_qty,
            x.wallet_unexplained_qty,
            x.moved_to_positions_qty,
            x.position_change_qty,
            x.txn_count,
            x.status,
            problems(x.wallet, x.chain),
            r.spam.includes(x) ? 'spam: left out of the reconciliation' : '',
          ]);
        }
        // A (wallet, chain) with nothing to list still says why (e.g. neither date cached).
        for (const p of r.problems)
          if (!r.rows.some((x) => x.wallet === p.wallet && x.chain === p.chain)) {
            await writer.row([
              r.from,
              r.to,
              p.wallet,
              labels.get(p.wallet) ?? '',
              p.chain,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              'incomplete',
              problems(p.wallet, p.chain),
              '',
            ]);
          }
        onProgress(r.rows.length, r.rows.length);
        break;
      }
      case 'unlocks': {
        if (!req.date) throw new ValidationError('date', 'Choose the date the ladder starts from.');
        const ladder = unlockLadder(db, req.date, req.wallets ?? (wallet ? [wallet] : undefined));
        for (const u of ladder.unlocks)
          await writer.row([
            req.date,
            u.unlockTime,
            u.wallet,
            labels.get(u.wallet) ?? '',
            u.chain,
            u.protocolId,
            u.position,
            u.tokenId,
            u.symbol,
            u.qty,
            u.nav,
            u.votingPower,
          ]);
        onProgress(ladder.unlocks.length, ladder.unlocks.length);
        break;
      }
      case 'counterparties': {
        // The user's, whatever the scope; the same cells as counterparties.export (counterparties/csv.ts).
        const book = listCounterparties(db);
        for (const c of book) await writer.row([c.address, c.name, c.tags.join(';'), c.ours, c.chains.join(';'), c.note]);
        onProgress(book.length, book.length);
        break;
      }
      case 'wallets': {
        // The user's, whatever the scope; the same cells as wallets.export (wallets/csv.ts).
        const wallets = listWallets(db);
        const groups = listGroups(db);
        for (const w of wallets)
          await writer.row([
            w.address,
            w.label,
            w.chains.join(';'),
            w.tags.join(';'),
            groups
              .filter((g) => g.wallets.includes(w.address))
              .map((g) => g.name)
              .join(';'),
          ]);
        onProgress(wallets.length, wallets.length);
        break;
      }
      case 'pack': {
        if (!req.pack) throw new ValidationError('from', 'Choose the period of the pack (from and to, or a month).');
        for (const row of packRows(req.pack, req.packClosed)) await writer.row(row);
        onProgress(writer.rows, writer.rows);
        break;
      }
      case 'audit': {
        // Every edit, whatever the scope (the trail is the user's, not a wallet's); a period
        // takes the edits made on its days (UTC).
        const since = req.from ? `${req.from}T00:00:00.000Z` : undefined;
        const until = req.to ? new Date(Date.parse(`${req.to}T00:00:00.000Z`) + 86_400_000).toISOString() : undefined;
        for (const e of iterateEdits(db, { since, until })) {
          check();
          await writer.row([
            e.at,
            e.entity,
            e.key,
            e.action,
            e.origin,
            e.person,
            e.via,
            e.reason,
            e.before === null ? null : JSON.stringify(e.before),
            e.after === null ? null : JSON.stringify(e.after),
          ]);
        }
        onProgress(writer.rows, writer.rows);
        break;
      }
      case 'history': {
        const series = portfolioNav(db, {
          ...(wallet && { wallet }),
          ...(req.wallets && { wallets: req.wallets }),
          ...(req.from && { from: req.from }),
          ...(req.to && { to: req.to }),
        });
        for (const p of series.points)
          await writer.row([
            p.date,
            wallet ?? (req.wallets ? `group:${req.groupName ?? ''}` : 'all'),
            p.totalNav,
            p.principalNav,
            p.rewardNav,
            p.chainsCached,
            p.chainsWatched,
            p.fetchedAt,
            p.spam.count,
            p.spam.claimed,
            // A partial total names the members it lacks (the chart draws it hollow, off the line).
            [
              flaggedNote(p.flagged),
              p.missing.length ? `partial: without ${memberNames(p.missing.map((m) => ({ ...m, label: labels.get(m.wallet) ?? null }))).join(', ')}` : '',
            ]
              .filter(Boolean)
              .join('; '),
          ]);
        onProgress(series.points.length, series.points.length);
        break;
      }
    }
  } finally {
    await writer.end();
  }
  return { rows: writer.rows, ...(spamThread !== undefined && { spamThread }) };
}

/** The `spam` cell of a row judged spam: what decided and why, in a line (empty for a genuine row). */
const SPAM_TOKEN = 'spam: held only by positions judged spam';
function spamCell(v: SpamVerdict | null): string {
  return v ? `spam (${v.decidedBy}): ${v.reasons.map((r) => r.text).join(' ')}` : '';
}

/**
 * The pack's rows, in the pack CSV's columns: the roll-forward (`summary`, `value_usd`), the
 * flows by category and counterparty, the parts (wallet, protocol, chain) at each end, and each
 * token's values with the cached dates whose prices valued it. A partial pack's reasons come
 * last (`partial`, in `note`).
 */
function packRows(p: MonthlyPack, closed?: CsvRequest['packClosed']): Cell[][] {
  const row = (section: string, key: string, name: string, o: Partial<Record<(typeof CSV_COLUMNS)['pack'][number], Cell>> = {}): Cell[] =>
    CSV_COLUMNS.pack.map((c) => (c === 'section' ? section : c === 'key' ? key : c === 'name' ? name : (o[c] ?? null)));
  const out: Cell[][] = [
    ...rollForwardLines(p).map((l) =>
      row('summary', l.key, l.label, {
        value_usd: l.value,
        ...(l.key === 'change' && { note: p.complete ? 'complete' : 'partial' }),
        // Named, not summed: a move between balances and own positions changes no NAV.
        ...(l.memo && { note: 'memo: not in the change' }),
      }),
    ),
  ];
  const flows = (l: PackFlowLine) => ({ inflow_usd: l.inflow, outflow_usd: l.outflow, transfers: l.transfers, unvalued: l.unvalued });
  for (const l of p.byCategory) out.push(row('category', l.key, l.label, flows(l)));
  for (const l of p.byCounterparty) out.push(row('counterparty', l.key, l.label, { kind: l.kind, ...flows(l) }));
  for (const [section, parts] of [
    ['wallet', p.byWallet],
    ['protocol', p.byProtocol],
    ['chain', p.byChain],
  ] as const)
    for (const l of parts) out.push(row(section, l.key, l.label, { opening_usd: l.opening, closing_usd: l.closing, ...flows(l) }));
  for (const t of p.tokens)
    out.push(
      row('token', `${t.wallet}|${t.chain}|${t.tokenCid ?? ''}`, t.symbol ?? '', {
        opening_usd: t.openingNav,
        closing_usd: t.closingNav,
        flow_usd: t.flowValue,
        accrual_usd: t.accrualValue,
        price_effect_usd: t.priceEffect,
        price_dates: t.priceDates.join(' '),
      }),
    );
  for (const r of p.reasons) out.push(row('partial', '', '', { note: r }));
  // A closed period's figures are those stored at close; what changed since is said, not absorbed.
  if (closed) out.push(row('closed', closed.hash, `closed ${closed.at}${closed.by ? ` by ${closed.by}` : ''}`, { note: 'the figures as closed' }));
  // Four eyes (issue 37 item 4): who prepared it and who approved it (UTC), or one person both.
  if (closed?.prepared) {
    out.push(row('prepared', closed.prepared.by ?? '', `prepared ${closed.prepared.at}${closed.prepared.by ? ` by ${closed.prepared.by}` : ''}`, {}));
    out.push(
      row('approved', closed.by ?? '', `approved ${closed.at}${closed.by ? ` by ${closed.by}` : ''}`, {
        ...(closed.samePerson && { note: 'prepared and approved by the same person' }),
      }),
    );
  }
  for (const c of closed?.changed ?? []) out.push(row('changed', '', '', { note: c }));
  return out;
}
