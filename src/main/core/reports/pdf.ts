/**
 * The portfolio report as a PDF (pdfkit, the standard Helvetica fonts; a name in another script
 * in an embedded Noto font, pdf-fonts.ts):
 * header with what was asked and where the data came from, summary, NAV over dates,
 * allocation, positions, liquidity and risk, and the period's transactions. Deterministic:
 * the document's dates are the newest fetch time of its data, so the same cache and request
 * give the same bytes.
 */
import { visibleText } from '../../../shared/text-safety.ts';
import { VIEWS_FLAG } from '../../../shared/quality.ts';
import type { Writable } from 'node:stream';
import { displayName } from '../../../shared/display-names.ts';
import type { ReadableDB } from '../store/db.ts';
import { type Allocation, buildReportModel, LISTED_PROBLEMS, type PdfRequest, type ReportModel } from './pdf-model.ts';
import type { Reconciliation } from '../../../shared/model.ts';
import { inPositionsOnly, inPositionsText, reconcileSummaryText } from '../../../shared/reconcile-summary.ts';
import {
  startDocument,
  footers,
  M,
  WIDTH,
  INK,
  MUTED,
  RULE,
  ACCENT,
  PARTIAL,
  BAR_COLORS,
  usd,
  qty,
  short,
  pdfText,
  pdfPrintable,
  say,
  type Doc,
  ensure,
  heading,
  subheading,
  paragraph,
  memberName,
  percent,
  line,
  table,
} from './pdf-parts.ts';
export { pdfText };

// The app's display names ("Uniswap V3", "Transfer in"), not the service's ids.
const words = (s: string | null | undefined) => displayName(s, '-');

export async function exportPdf(db: ReadableDB, req: PdfRequest, out: Writable): Promise<{ pages: number; model: ReportModel }> {
  const model = buildReportModel(db, req);
  const { doc, finished } = startDocument(
    {
      // A group name an older version accepted may hold controls: shown as <U+…> here as on the page.
      title: `Folioscope portfolio report${req.groupName ? ` (${visibleText(req.groupName)})` : ''} ${req.date}`,
      subject: `Positions as of ${req.date}${req.from || req.to ? `, transactions ${req.from ?? '…'} to ${req.to ?? req.date}` : ''}`,
      at: new Date(model.dataTime),
    },
    out,
  );
  header(doc, model);
  summary(doc, model);
  navChart(doc, model);
  allocationSection(doc, model);
  positionsSection(doc, model);
  riskSection(doc, model);
  if (model.reconciliation) reconciliationSection(doc, model, model.reconciliation);
  transactionsSection(doc, model);
  qualitySection(doc, model);
  provenanceSection(doc, model);
  const pages = footers(
    doc,
    `Folioscope portfolio report · as of ${model.request.date} · data fetched up to ${model.dataTime.slice(0, 16).replace('T', ' ')} UTC`,
  );
  doc.end();
  await finished;
  return { pages, model };
}

/** Roll-forward per wallet, chain and token (docs/analytics.md), saying first what it could not check. */
function reconciliationSection(doc: Doc, model: ReportModel, r: Reconciliation): void {
  heading(doc, `Roll-forward reconciliation, ${r.from} to ${r.to}`);
  const summary = model.reconciliationSummary!;
  paragraph(
    doc,
    `Opening: underlying quantities of all positions at the end of ${r.from}. Flows: transfers of successful transactions dated ${summary.flowsFromDay} to ${summary.flowsToDay} (UTC). ` +
      'Closing: at the end of ' +
      r.to +
      '. Unexplained = closing - opening - inflow + outflow: interest, rebases, rewards and price-driven pool changes, or missing data. ' +
      'Share = |unexplained| / (inflow + outflow).',
    { size: 8.5 },
  );
  doc.moveDown(0.4);
  if (r.moves.length) {
    paragraph(
      doc,
      `${r.moves.length} transaction(s) opened or closed the wallets' own positions (deposits, withdrawals, debt drawn or repaid): their transfers moved tokens between balances and positions and are not in the inflow or outflow.`,
      { size: 8.5 },
    );
    doc.moveDown(0.4);
  }
  if (r.problems.length) {
    paragraph(doc, 'Incomplete: the rows marked "incomplete" rest on missing data.', { size: 9, color: '#b3261e', bold: true });
    doc.font('Helvetica').fontSize(8.5).fillColor(INK);
    for (const p of r.problems.slice(0, LISTED_PROBLEMS))
      say(doc, `- ${walletName(model, p.wallet)} ${p.chain}: ${p.message}`, M.left + 8, doc.y, { width: WIDTH - 8 });
    if (summary.problemsNotListed) doc.text(`- and ${summary.problemsNotListed} more (see the CSV report "reconciliation").`, M.left + 8, doc.y);
    doc.moveDown(0.4);
  } else {
    // The screen's verdict, in the same words and counts (src/shared/reconcile-summary.ts).
    const count = (v: number) => String(v);
    const inPositions = summary.inPositions ? ` ${inPositionsText(summary.inPositions, count)}.` : '';
    paragraph(doc, `Complete: ${reconcileSummaryText(summary, count)}.${inPositions}`, {
      size: 9,
      color: INK,
    });
    doc.moveDown(0.4);
  }
  // Small shares keep three decimals, so a remainder is never shown as 0.0%.
  const share = (v: number | null) => (v === null ? '-' : percent(v, v < 0.001 && v > 0 ? 3 : 1));
  table(
    doc,
    [
      { label: 'Wallet', width: 56 },
      { label: 'Chain', width: 28 },
      { label: 'Token', width: 38 },
      { label: 'Opening', width: 62, align: 'right' },
      { label: 'Inflow', width: 58, align: 'right' },
      { label: 'Outflow', width: 58, align: 'right' },
      { label: 'Closing', width: 62, align: 'right' },
      { label: 'Unexplained', width: 60, align: 'right' },
      { label: 'Share', width: 36, align: 'right' },
      { label: 'Status', width: 53 },
    ],
    r.rows.map((x) => [
      walletName(model, x.wallet),
      x.chain,
      x.token_symbol ?? short(x.token_cid),
      qty(x.opening_qty),
      qty(x.inflow_qty),
      qty(x.outflow_qty),
      qty(x.closing_qty),
      qty(x.unexplained_qty),
      share(x.unexplained_share),
      // As the screen badges it: a remainder wholly inside protocol positions is not money unexplained.
      inPositionsOnly(x) ? 'in positions' : x.status,
    ]),
    { fontSize: 7 },
  );
}

/** The other end of a listed transaction: "Grantee X", "Cold (internal)", or its short address. */
function counterpartyCell(t: ReportModel['transactions'][number]): string {
  const p = t.parties;
  const other = t.from === t.wallet ? t.to : t.from;
  const named = t.from === t.wallet ? p?.to : p?.from;
  // An unnamed address by its ends, short enough for the column (a name wraps instead). A name
  // no font prints whole (a character in none of the embedded fonts becomes "?") keeps the
  // address's ends beside it, so two such names are not told apart by question marks alone.
  const ends = other ? `${other.slice(0, 6)}...${other.slice(-4)}` : '-';
  const unprintable = named && !pdfPrintable(named.name);
  const text = named ? (unprintable ? `${named.name} (${ends})` : named.name) : ends;
  return p?.kind === 'internal' ? `${text} (internal)` : text;
}

function walletName(model: ReportModel, address: string): string {
  const w = model.wallets.find((x) => x.address === address);
  return w?.label || short(address);
}

/** What was asked (wallets, chains, date, period) and when the data was fetched. */
function header(doc: Doc, model: ReportModel): void {
  const req = model.request;
  // A per-group report names its group in the title; its wallets are the members only.
  doc.fontSize(20).fillColor(INK);
  say(doc, req.groupName ? `Portfolio report: ${req.groupName}` : 'Portfolio report', M.left, M.top, { bold: true });
  doc.fontSize(10).fillColor(MUTED);
  say(
    doc,
    `Folioscope · positions as of ${req.date}${req.from || req.to ? ` · period ${req.from ?? 'start'} to ${req.to ?? req.date}` : ''}`,
    undefined,
    undefined,
  );
  doc.moveDown(0.8);
  if (req.groupName)
    line(doc, 'Group', `${req.groupName} (${model.wallets.length} member${model.wallets.length === 1 ? '' : 's'}; figures over its members only)`);
  line(doc, req.groupName ? 'Members' : 'Wallets', model.wallets.map((w) => `${w.label ? `${w.label} ` : ''}${w.address}`).join('\n'));
  doc.y += (model.wallets.length - 1) * 2;
  line(doc, 'Chains', model.chains.join(', '));
  line(doc, 'As of', req.date);
  line(doc, 'Period', req.from || req.to ? `${req.from ?? 'first cached date'} to ${req.to ?? req.date}` : 'none (positions only)');
  const minute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
  line(doc, 'Data fetched', `${minute(model.dataFrom)} to ${minute(model.dataTime)}, from the local cache`);
}

/** The three totals, what was left out of them, and how many positions they cover. */
function summary(doc: Doc, model: ReportModel): void {
  heading(doc, 'Summary');
  // Totals that leave out unreadable values say so on their face, not only in a note.
  // A total with nothing known already reads "-".
  const partial = (on: boolean, value: number | null) => (on && value !== null ? ' (incomplete)' : '');
  // A scope with a member not cached at the date: every total is partial, said on its face.
  const scopePartial = !model.coverage.complete;
  const boxes: Array<[string, number | null]> = [
    [`Total NAV${scopePartial && model.totals.total !== null ? ' (partial)' : partial(model.unknownValues > 0, model.totals.total)}`, model.totals.total],
    [`Principal${partial(model.unknownIn.principal, model.totals.principal)}`, model.totals.principal],
    [`Rewards${partial(model.unknownIn.reward, model.totals.reward)}`, model.totals.reward],
  ];
  const bw = (WIDTH - 20) / 3;
  const by = doc.y;
  boxes.forEach(([label, value], i) => {
    const x = M.left + i * (bw + 10);
    doc.roundedRect(x, by, bw, 46, 4).lineWidth(0.6).strokeColor(RULE).stroke();
    doc
      .font('Helvetica')
      .fontSize(8.5)
      .fillColor(MUTED)
      .text(label, x + 10, by + 8, { width: bw - 20 });
    doc
      .font('Helvetica-Bold')
      .fontSize(15)
      .fillColor(INK)
      .text(usd(value), x + 10, by + 21, { width: bw - 20 });
  });
  doc.y = by + 54;
  if (model.spam.count) {
    // What the totals leave out as spam, beside them: a reader of the PDF sees what the screen's toggle shows.
    const listed = model.spam.rows.slice(0, 10);
    paragraph(
      doc,
      `${model.spam.count} spam token${model.spam.count === 1 ? '' : 's'} left out of every figure, claimed ${usd(model.spam.claimed)}: ${listed
        .map((s) => `${s.symbol} (${memberName({ wallet: s.wallet, chain: s.chain, label: null })}, ${usd(s.claimed)}): ${s.why}`)
        .join(' ')}${model.spam.rows.length > listed.length ? ` And ${model.spam.rows.length - listed.length} more.` : ''}`,
      { size: 8.5, color: MUTED },
    );
    doc.moveDown(0.3);
  }
  if (scopePartial) {
    const missing = model.coverage.missing;
    paragraph(
      doc,
      `Partial: ${missing.length} of the ${model.coverage.members.length} wallet chains of this report ${missing.length === 1 ? 'is' : 'are'} not cached at ${model.request.date}, so every total, allocation and table below leaves ${missing.length === 1 ? 'it' : 'them'} out: ${missing
        .map(
          (m) =>
            `${memberName(m)}${m.nearestBefore || m.nearestAfter ? ` (cached at ${[m.nearestBefore, m.nearestAfter].filter(Boolean).join(' and ')}; not used)` : ' (never cached)'}`,
        )
        .join('; ')}. Sync that date for ${missing.length === 1 ? 'it' : 'them'}, then export again.`,
      { size: 9, color: INK, bold: true },
    );
    doc.moveDown(0.3);
  }
  if (model.quality.length) {
    const values = model.unreadableValues;
    // Wallet chains whose three views were not of one moment (each of their views carries the flag).
    const moments = new Set(model.quality.filter((q) => q.flags.some((f) => f.path === VIEWS_FLAG)).map((q) => `${q.wallet}|${q.chain}`)).size;
    const said = [
      values ? `${values} value${values === 1 ? '' : 's'} the service sent could not be read; they are shown as "-" and left out of every total.` : '',
      moments
        ? `The three views of ${moments} wallet chain${moments === 1 ? '' : 's'} (positions, by token, liquidity) are not of one moment: the service's snapshot changed between the requests, so those tables may not match one another.`
        : '',
    ].filter(Boolean);
    paragraph(doc, `Data quality: ${said.length ? said.join(' ') : 'a response was dated another day than asked.'} Details under "Data quality" below.`, {
      size: 9,
      color: INK,
      bold: true,
    });
    doc.moveDown(0.3);
  }
  paragraph(
    doc,
    `${model.positions.length} positions across ${model.coverage.walletsCounted === model.wallets.length ? '' : `${model.coverage.walletsCounted} of `}${model.wallets.length} wallet${model.wallets.length === 1 ? '' : 's'} and ${model.chains.length} chain${model.chains.length === 1 ? '' : 's'}. NAV in USD.`,
    { size: 9 },
  );
}

/** Value by asset type, protocol and chain, as three bar lists side by side. */
function allocationSection(doc: Doc, model: ReportModel): void {
  heading(doc, 'Allocation');
  const colW = (WIDTH - 20) / 3;
  const ay = doc.y;
  let maxY = ay;
  (
    [
      ['By asset type', model.allocation.assetType],
      ['By protocol', model.allocation.protocol],
      ['By chain', model.allocation.chain],
    ] as const
  ).forEach(([title, items], i) => {
    doc.y = ay;
    // Chain codes stay as they are (as in the app); other ids read as display names.
    bars(doc, M.left + i * (colW + 10), colW, title, items, i === 2);
    maxY = Math.max(maxY, doc.y);
  });
  doc.y = maxY + 4;
}

/** Every position, largest first, across pages, and the total under them. */
function positionsSection(doc: Doc, model: ReportModel): void {
  heading(doc, 'Positions');
  table(
    doc,
    [
      { label: 'Position', width: 158, wrap: true },
      { label: 'Protocol', width: 64 },
      { label: 'Type', width: 60 },
      { label: 'Chain', width: 34 },
      { label: 'Wallet', width: 60 },
      { label: 'Principal', width: 70, align: 'right' },
      { label: 'Rewards', width: 65, align: 'right' },
    ],
    model.positions.map((r) => [
      r.position.name ?? '-',
      words(r.position.protocol_id),
      words(r.position.asset_type),
      r.chain,
      walletName(model, r.wallet),
      usd(r.position.principal_nav),
      usd(r.position.reward_nav),
    ]),
  );
  doc
    .font('Helvetica-Bold')
    .fontSize(8.5)
    .fillColor(INK)
    .text(`Total ${usd(model.totals.total)}`, M.left, doc.y + 3, { width: WIDTH, align: 'right' });
}

/** Lending (collateral, debt, ratio, threshold), locked positions and liquidity pools: each table when there is something to show. */
function riskSection(doc: Doc, model: ReportModel): void {
  heading(doc, 'Liquidity and risk');
  const { lending, locked, pools } = model;
  if (lending.length) {
    subheading(doc, 'Lending: debt, collateral ratio and liquidation threshold', true);
    table(
      doc,
      [
        { label: 'Position', width: 160, wrap: true },
        { label: 'Chain', width: 36 },
        { label: 'Collateral', width: 76, align: 'right' },
        { label: 'Debt', width: 76, align: 'right' },
        { label: 'Ratio', width: 46, align: 'right' },
        { label: 'Liq. threshold', width: 64, align: 'right' },
        { label: 'Status', width: 53, align: 'right' },
      ],
      lending.map((r) => [
        r.name ?? '-',
        r.chain,
        usd(r.collateralNav),
        usd(r.debtNav),
        r.ratio === null ? '-' : r.ratio.toFixed(3),
        r.liqThreshold === null ? '-' : r.liqThreshold.toFixed(3),
        r.atRisk ? 'AT RISK' : 'ok',
      ]),
    );
  }
  if (locked.length) {
    subheading(doc, 'Locked positions: unlocks and voting power', !lending.length);
    table(
      doc,
      [
        { label: 'Position', width: 170, wrap: true },
        { label: 'Chain', width: 40 },
        { label: 'Locked', width: 95, align: 'right' },
        { label: 'Unlocks (UTC)', width: 110 },
        { label: 'Voting power', width: 96, align: 'right' },
      ],
      locked.map((u) => [u.name ?? '-', u.chain, `${qty(u.qty)} ${u.symbol ?? ''}`, u.unlockTime.slice(0, 16).replace('T', ' '), qty(u.votingPower)]),
    );
  }
  if (pools.length) {
    subheading(doc, 'Liquidity pools: ownership and slippage', !lending.length && !locked.length);
    table(
      doc,
      [
        { label: 'Pool', width: 190, wrap: true },
        { label: 'Chain', width: 40 },
        { label: 'Holding', width: 90, align: 'right' },
        { label: 'Ownership', width: 90, align: 'right' },
        { label: 'Max slippage', width: 101, align: 'right' },
      ],
      pools.map((p) => [
        p.name ?? '-',
        p.chain,
        qty(p.qty),
        p.ownershipPct === null ? '-' : `${p.ownershipPct.toFixed(4)}%`,
        p.maxSlippage === null ? '-' : percent(p.maxSlippage, 3),
      ]),
    );
  }
}

/** The period's transactions: whether they are complete, a summary by action, and the list. */
function transactionsSection(doc: Doc, model: ReportModel): void {
  const req = model.request;
  if (!req.from && !req.to) return;
  heading(doc, `Transactions, ${req.from ?? 'start'} to ${req.to ?? req.date}`);
  paragraph(doc, `${model.transactionsTotal} transactions in the period.`, { size: 9 });
  // Completeness of the period, said plainly: a total over an incomplete history is not the whole.
  if (model.transactionsIncomplete.length)
    paragraph(
      doc,
      `Incomplete: these transactions may not be all of the period. ${model.transactionsIncomplete.slice(0, 6).join('; ')}${model.transactionsIncomplete.length > 6 ? '; …' : ''}. Sync again, then export again.`,
      { size: 9, color: INK, bold: true, dy: 2 },
    );
  else paragraph(doc, 'Complete: every transaction of the period was synced and proved complete.', { size: 9, dy: 2 });
  doc.moveDown(0.4);
  const total = model.byActionTotal;
  table(
    doc,
    [
      { label: 'Action', width: 150 },
      { label: 'Transactions', width: 100, align: 'right' },
      { label: 'Failed', width: 90, align: 'right' },
      { label: 'Fees (USD)', width: 171, align: 'right' },
    ],
    [
      ...model.byAction.map((a) => [words(a.action), String(a.count), String(a.failed), usd(a.feesUsd)]),
      [total.action, String(total.count), String(total.failed), usd(total.feesUsd)],
    ],
  );
  doc.moveDown(0.6);
  // A category column when any listed transaction has one (issue 28): the wallet, action,
  // transfers and hash give it room (the table keeps the page's width).
  const categorised = model.transactions.some((t) => t.category);
  table(
    doc,
    [
      { label: 'Date (UTC)', width: 70 },
      { label: 'Wallet', width: categorised ? 45 : 55 },
      { label: 'Chain', width: 30 },
      { label: 'Action', width: categorised ? 52 : 62 },
      { label: 'Transfers', width: categorised ? 90 : 110, wrap: true },
      // The other end: its name from the address book (or a watched wallet's label), else its address.
      { label: 'Counterparty', width: categorised ? 55 : 60, wrap: true },
      ...(categorised ? [{ label: 'Category', width: 55, wrap: true }] : []),
      { label: 'Fee', width: 48, align: 'right' as const },
      { label: 'Hash', width: categorised ? 66 : 76 },
    ],
    model.transactions.map((t) => [
      (t.date ?? '').slice(0, 16).replace('T', ' '),
      walletName(model, t.wallet),
      t.chain,
      words(t.actionType) + (t.status === 0 ? ' (failed)' : ''),
      t.details.map((d) => `${d.type === 'out' ? '-' : '+'}${qty(d.qty)} ${d.symbol ?? ''}`).join(', ') || '-',
      counterpartyCell(t),
      ...(categorised ? [t.category ? `${t.category.name}${t.category.source === 'rule' ? ' (rule)' : ''}` : '-'] : []),
      usd(t.gasFee),
      short(t.txnHash),
    ]),
    { fontSize: 7 },
  );
  if (model.transactionsNotListed) paragraph(doc, `${model.transactionsNotListed} more transactions are in the CSV export.`, { size: 8.5, dy: 4 });
}

/** Each value the service sent that could not be read: where, and what was sent. */
function qualitySection(doc: Doc, model: ReportModel): void {
  if (!model.quality.length) return;
  heading(doc, 'Data quality');
  paragraph(
    doc,
    'Values the service sent that could not be read (not a number, infinite, out of range). Each is stored as unknown and left out of totals; the rest of its response is used.',
    { size: 8.5 },
  );
  doc.moveDown(0.4);
  table(
    doc,
    [
      { label: 'Wallet', width: 80 },
      { label: 'Chain', width: 40 },
      { label: 'Response', width: 95 },
      { label: 'Where', width: 200 },
      { label: 'Sent', width: 96 },
    ],
    model.quality.flatMap((q) => q.flags.map((f) => [walletName(model, q.wallet), q.chain, q.endpoint, f.path, f.value])),
  );
}

/** The cached responses behind every figure: request IDs, fetch times and the SHA-256 of each body. */
function provenanceSection(doc: Doc, model: ReportModel): void {
  heading(doc, 'Provenance of the data');
  paragraph(
    doc,
    'Every figure comes from these cached responses of the service: the request ID the service gave, when it was fetched, and the SHA-256 of the response body as received.',
    { size: 8.5 },
  );
  doc.moveDown(0.4);
  for (const p of model.provenance) {
    ensure(doc, 22);
    const y = doc.y;
    doc.fontSize(7.5).fillColor(INK);
    say(
      doc,
      `${walletName(model, p.wallet)} · ${p.chain} · ${p.endpoint} · as of ${p.asOf} · fetched ${p.fetchedAt.slice(0, 19).replace('T', ' ')} UTC · request ${p.requestId ?? '-'}`,
      M.left,
      y,
      { width: WIDTH, lineBreak: false, ellipsis: true, height: 10 },
    );
    doc
      .font('Courier')
      .fontSize(7)
      .fillColor(MUTED)
      .text(`SHA-256 ${p.sha256}`, M.left + 10, y + 9.5, { width: WIDTH - 10, lineBreak: false });
    doc.y = y + 21;
  }
}

/** NAV over the cached dates, as a line; a sentence instead when there are fewer than two. */
function navChart(doc: Doc, model: ReportModel): void {
  heading(doc, 'NAV over dates');
  const { points, partial } = model.navChart;
  const h = 130;
  ensure(doc, h + 30);
  const x0 = M.left + 52;
  const y0 = doc.y + 4;
  const w = WIDTH - 60;
  if (points.length < 2) {
    paragraph(
      doc,
      `${points.length} cached date${points.length === 1 ? '' : 's'}: fill the history in the app (or folioscope sync --from … --to …) to chart NAV over dates.`,
      { size: 9 },
    );
    return;
  }
  const values = points.map((p) => p.value);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi === lo) {
    hi += 1;
    lo -= 1;
  }
  const pad = (hi - lo) * 0.08;
  lo -= pad;
  hi += pad;
  const xAt = (i: number) => x0 + (i / (points.length - 1)) * w;
  const yAt = (v: number) => y0 + h - ((v - lo) / (hi - lo)) * h;
  doc.lineWidth(0.4).strokeColor(RULE);
  for (let k = 0; k <= 4; k++) {
    const v = lo + ((hi - lo) * k) / 4;
    const y = yAt(v);
    doc
      .moveTo(x0, y)
      .lineTo(x0 + w, y)
      .stroke();
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor(MUTED)
      .text(usdCompact(v), M.left, y - 3.5, { width: 48, align: 'right', lineBreak: false });
  }
  // The line joins whole totals only; a date that lacks a member is a hollow mark off the line,
  // never a point of it (a missing wallet would read as a plunge).
  let drawing = false;
  points.forEach((p, i) => {
    if (p.partial) drawing = false;
    else if (!drawing) {
      doc.moveTo(xAt(i), yAt(p.value));
      drawing = true;
    } else doc.lineTo(xAt(i), yAt(p.value));
  });
  doc.lineWidth(1.4).strokeColor(ACCENT).stroke();
  points.forEach((p, i) => {
    const whole = (j: number) => points[j] !== undefined && !points[j]!.partial;
    if (p.partial) doc.circle(xAt(i), yAt(p.value), 2.2).lineWidth(0.8).strokeColor(PARTIAL).stroke();
    else if (!whole(i - 1) && !whole(i + 1)) doc.circle(xAt(i), yAt(p.value), 1.6).fillColor(ACCENT).fill();
  });
  const labels = [0, Math.floor((points.length - 1) / 2), points.length - 1];
  for (const i of labels)
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor(MUTED)
      .text(points[i]!.date, xAt(i) - 30, y0 + h + 4, { width: 60, align: 'center', lineBreak: false });
  doc.y = y0 + h + 16;
  paragraph(
    doc,
    `${points.length} cached dates, ${points[0]!.date} to ${points.at(-1)!.date}; ${wholeSpan(points)}.${partial ? ` ${partial} date${partial === 1 ? '' : 's'} lack a wallet chain: ${partial === 1 ? 'its' : 'their'} partial total${partial === 1 ? ' is' : 's are'} drawn as hollow marks, not joined to the line.` : ''}`,
    { size: 8 },
  );
}

/** The move of the whole totals (a partial total is not a figure to compare). */
function wholeSpan(points: ReadonlyArray<{ date: string; value: number; partial: boolean }>): string {
  const whole = points.filter((p) => !p.partial);
  if (!whole.length) return 'no date has every wallet chain cached';
  if (whole.length === points.length) return `from ${usd(whole[0]!.value)} to ${usd(whole.at(-1)!.value)}`;
  return `whole totals from ${usd(whole[0]!.value)} (${whole[0]!.date}) to ${usd(whole.at(-1)!.value)} (${whole.at(-1)!.date})`;
}

function usdCompact(v: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 }).format(v);
}

function bars(doc: Doc, x: number, width: number, title: string, items: Allocation, raw = false): void {
  doc.font('Helvetica-Bold').fontSize(8.5).fillColor(MUTED).text(title, x, doc.y, { width });
  let y = doc.y + 3;
  items.slice(0, 8).forEach(({ label, share }, i) => {
    doc.fontSize(7.5).fillColor(INK);
    say(doc, raw ? label : words(label), x, y, { width: width * 0.45, lineBreak: false, ellipsis: true });
    doc.rect(x + width * 0.46, y + 1, Math.max(1, width * 0.36 * share), 6).fill(BAR_COLORS[i % BAR_COLORS.length]!);
    doc
      .font('Helvetica')
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(percent(share, 1), x + width * 0.82, y, { width: width * 0.18, align: 'right', lineBreak: false });
    y += 11;
  });
  doc.y = y;
}
