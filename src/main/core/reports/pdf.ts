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
import { inPositionsOnly } from '../../../shared/reconcile-summary.ts';
import {
  startDocument,
  M,
  WIDTH,
  INK,
  MUTED,
  RULE,
  ACCENT,
  PARTIAL,
  BAR_COLORS,
  short,
  pdfText,
  pdfPrintable,
  say,
  type Doc,
  ensure,
  heading,
  subheading,
  paragraph,
  line,
  table,
} from './pdf-parts.ts';
import { coreSentence, pdfWords } from './pdf-language.ts';
import type { PdfWords } from './pdf-words.ts';
import type { PdfFormat } from './pdf-format.ts';
export { pdfText };

/** One document's texts (`t`, the report's; `all`, the shared ones) and its figures' formats, in its locale. */
interface Lang {
  t: PdfWords['report'];
  all: PdfWords;
  f: PdfFormat;
}

// The app's display names ("Uniswap V3", "Transfer in"), not the service's ids.
const words = (s: string | null | undefined) => displayName(s, '-');

/**
 * The report of `req`, written to `out` in `locale` (the user's locale setting, passed by the
 * export job; null: en-US, pdf-format.ts): its texts in German for a `de-*` locale, every figure
 * and date in the locale's notation.
 */
export async function exportPdf(db: ReadableDB, req: PdfRequest, out: Writable, locale: string | null = null): Promise<{ pages: number; model: ReportModel }> {
  const model = buildReportModel(db, req);
  const { t: all, f } = pdfWords(locale);
  const l: Lang = { t: all.report, all, f };
  const t = l.t;
  const period = (from: string | undefined, to: string | undefined) => (from || to ? { from: from ? f.date(from) : null, to: f.date(to ?? req.date) } : null);
  const { doc, end } = startDocument(
    {
      // A group name an older version accepted may hold controls: shown as <U+…> here as on the page.
      title: t.docTitle(req.groupName ? visibleText(req.groupName) : null, f.date(req.date)),
      subject: t.docSubject(f.date(req.date), period(req.from, req.to)),
      at: new Date(model.dataTime),
    },
    out,
    { text: t.footer(f.date(model.request.date), f.minute(model.dataTime)), page: all.page },
  );
  header(doc, model, l);
  summary(doc, model, l);
  navChart(doc, model, l);
  allocationSection(doc, model, l);
  positionsSection(doc, model, l);
  riskSection(doc, model, l);
  if (model.reconciliation) reconciliationSection(doc, model, model.reconciliation, l);
  transactionsSection(doc, model, l);
  qualitySection(doc, model, l);
  provenanceSection(doc, model, l);
  return { pages: await end(), model };
}

/** Roll-forward per wallet, chain and token (docs/analytics.md), saying first what it could not check. */
function reconciliationSection(doc: Doc, model: ReportModel, r: Reconciliation, { t, all, f }: Lang): void {
  heading(doc, t.reconciliation(f.date(r.from), f.date(r.to)));
  const summary = model.reconciliationSummary!;
  paragraph(doc, t.reconMethod(f.date(r.from), f.date(summary.flowsFromDay), f.date(summary.flowsToDay), f.date(r.to)), { size: 8.5 });
  doc.moveDown(0.4);
  if (r.moves.length) {
    paragraph(doc, t.reconMoves(r.moves.length), { size: 8.5 });
    doc.moveDown(0.4);
  }
  if (r.problems.length) {
    paragraph(doc, t.reconIncomplete, { size: 9, color: '#b3261e', bold: true });
    doc.font('Helvetica').fontSize(8.5).fillColor(INK);
    // A problem is the core's sentence (English), said again in the document's language when known.
    for (const p of r.problems.slice(0, LISTED_PROBLEMS))
      say(doc, `- ${walletName(model, p.wallet)} ${p.chain}: ${coreSentence(p.message, all, f)}`, M.left + 8, doc.y, { width: WIDTH - 8 });
    if (summary.problemsNotListed) say(doc, t.problemsNotListed(summary.problemsNotListed), M.left + 8, doc.y);
    doc.moveDown(0.4);
  } else {
    paragraph(doc, t.reconComplete(summary), { size: 9, color: INK });
    doc.moveDown(0.4);
  }
  // Small shares keep three decimals, so a remainder is never shown as 0.0%.
  const share = (v: number | null) => (v === null ? '-' : f.percent(v, v < 0.001 && v > 0 ? 3 : 1));
  const c = all.columns;
  table(
    doc,
    [
      { label: c.wallet, width: 56 },
      { label: c.chain, width: 28 },
      { label: c.token, width: 38 },
      { label: c.opening, width: 62, align: 'right' },
      { label: t.inflow, width: 58, align: 'right' },
      { label: t.outflow, width: 58, align: 'right' },
      { label: c.closing, width: 62, align: 'right' },
      { label: t.unexplained, width: 60, align: 'right' },
      { label: t.share, width: 36, align: 'right' },
      { label: c.status, width: 53 },
    ],
    r.rows.map((x) => [
      walletName(model, x.wallet),
      x.chain,
      x.token_symbol ?? short(x.token_cid),
      f.qty(x.opening_qty),
      f.qty(x.inflow_qty),
      f.qty(x.outflow_qty),
      f.qty(x.closing_qty),
      f.qty(x.unexplained_qty),
      share(x.unexplained_share),
      // As the screen badges it: a remainder wholly inside protocol positions is not money unexplained.
      t.reconStatus[inPositionsOnly(x) ? 'inPositions' : x.status],
    ]),
    { fontSize: 7 },
  );
}

/** The other end of a listed transaction: "Grantee X", "Cold (internal)", or its short address. */
function counterpartyCell(t: ReportModel['transactions'][number], internal: string): string {
  const p = t.parties;
  const other = t.from === t.wallet ? t.to : t.from;
  const named = t.from === t.wallet ? p?.to : p?.from;
  // An unnamed address by its ends, short enough for the column (a name wraps instead). A name
  // no font prints whole (a character in none of the embedded fonts becomes "?") keeps the
  // address's ends beside it, so two such names are not told apart by question marks alone.
  const ends = other ? `${other.slice(0, 6)}...${other.slice(-4)}` : '-';
  const unprintable = named && !pdfPrintable(named.name);
  const text = named ? (unprintable ? `${named.name} (${ends})` : named.name) : ends;
  return p?.kind === 'internal' ? `${text}${internal}` : text;
}

function walletName(model: ReportModel, address: string): string {
  const w = model.wallets.find((x) => x.address === address);
  return w?.label || short(address);
}

/** What was asked (wallets, chains, date, period) and when the data was fetched. */
function header(doc: Doc, model: ReportModel, { t, f }: Lang): void {
  const req = model.request;
  const date = f.date(req.date);
  const from = req.from ? f.date(req.from) : null;
  const to = f.date(req.to ?? req.date);
  // A per-group report names its group in the title; its wallets are the members only.
  doc.fontSize(20).fillColor(INK);
  say(doc, t.title(req.groupName ?? null), M.left, M.top, { bold: true });
  doc.fontSize(10).fillColor(MUTED);
  say(doc, t.subtitle(date, req.from || req.to ? { from, to } : null), undefined, undefined);
  doc.moveDown(0.8);
  if (req.groupName) line(doc, t.group, t.groupValue(req.groupName, model.wallets.length));
  line(doc, req.groupName ? t.members : t.wallets, model.wallets.map((w) => `${w.label ? `${w.label} ` : ''}${w.address}`).join('\n'));
  doc.y += (model.wallets.length - 1) * 2;
  line(doc, t.chains, model.chains.join(', '));
  line(doc, t.asOf, date);
  line(doc, t.period, req.from || req.to ? t.periodValue(from, to) : t.periodNone);
  line(doc, t.dataFetched, t.fetchedValue(f.minute(model.dataFrom), f.minute(model.dataTime)));
}

/** The three totals, what was left out of them, and how many positions they cover. */
function summary(doc: Doc, model: ReportModel, { t, all, f }: Lang): void {
  heading(doc, t.summary);
  // Totals that leave out unreadable values say so on their face, not only in a note.
  // A total with nothing known already reads "-".
  const partial = (on: boolean, value: number | null) => (on && value !== null ? t.incompleteMark : '');
  // A scope with a member not cached at the date: every total is partial, said on its face.
  const scopePartial = !model.coverage.complete;
  const boxes: Array<[string, number | null]> = [
    [`${t.totalNav}${scopePartial && model.totals.total !== null ? t.partialMark : partial(model.unknownValues > 0, model.totals.total)}`, model.totals.total],
    [`${t.principal}${partial(model.unknownIn.principal, model.totals.principal)}`, model.totals.principal],
    [`${t.rewards}${partial(model.unknownIn.reward, model.totals.reward)}`, model.totals.reward],
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
      .text(pdfText(label), x + 10, by + 8, { width: bw - 20 });
    doc
      .font('Helvetica-Bold')
      .fontSize(15)
      .fillColor(INK)
      .text(pdfText(f.usd(value)), x + 10, by + 21, { width: bw - 20 });
  });
  doc.y = by + 54;
  if (model.spam.count) {
    // What the totals leave out as spam, beside them: a reader of the PDF sees what the screen's toggle shows.
    const listed = model.spam.rows.slice(0, 10);
    paragraph(
      doc,
      t.spam(
        model.spam.count,
        f.usd(model.spam.claimed),
        listed.map((s) => t.spamItem(s.symbol, all.member(null, s.wallet, s.chain), f.usd(s.claimed), s.why)).join(' '),
        model.spam.rows.length - listed.length,
      ),
      { size: 8.5, color: MUTED },
    );
    doc.moveDown(0.3);
  }
  if (scopePartial) {
    const missing = model.coverage.missing;
    paragraph(
      doc,
      t.scopePartial(
        missing.length,
        model.coverage.members.length,
        f.date(model.request.date),
        missing
          .map((m) => {
            const near = [m.nearestBefore, m.nearestAfter].filter((d): d is string => !!d).map(f.date);
            return `${all.member(m.label, m.wallet, m.chain)}${near.length ? t.cachedAt(near) : t.neverCached}`;
          })
          .join('; '),
      ),
      { size: 9, color: INK, bold: true },
    );
    doc.moveDown(0.3);
  }
  if (model.quality.length) {
    const values = model.unreadableValues;
    // Wallet chains whose three views were not of one moment (each of their views carries the flag).
    const moments = new Set(model.quality.filter((q) => q.flags.some((f) => f.path === VIEWS_FLAG)).map((q) => `${q.wallet}|${q.chain}`)).size;
    const said = [values ? t.unreadable(values) : '', moments ? t.moments(moments) : ''].filter(Boolean);
    paragraph(doc, t.quality(said.length ? said.join(' ') : t.otherDay), {
      size: 9,
      color: INK,
      bold: true,
    });
    doc.moveDown(0.3);
  }
  paragraph(
    doc,
    t.positionsCount(
      model.positions.length,
      model.coverage.walletsCounted === model.wallets.length ? null : model.coverage.walletsCounted,
      model.wallets.length,
      model.chains.length,
    ),
    { size: 9 },
  );
}

/** Value by asset type, protocol and chain, as three bar lists side by side. */
function allocationSection(doc: Doc, model: ReportModel, l: Lang): void {
  const { t } = l;
  heading(doc, t.allocation);
  const colW = (WIDTH - 20) / 3;
  const ay = doc.y;
  let maxY = ay;
  (
    [
      [t.byAssetType, model.allocation.assetType],
      [t.byProtocol, model.allocation.protocol],
      [t.byChain, model.allocation.chain],
    ] as const
  ).forEach(([title, items], i) => {
    doc.y = ay;
    // Chain codes stay as they are (as in the app); other ids read as display names.
    bars(doc, l.f, M.left + i * (colW + 10), colW, title, items, i === 2);
    maxY = Math.max(maxY, doc.y);
  });
  doc.y = maxY + 4;
}

/** Every position, largest first, across pages, and the total under them. */
function positionsSection(doc: Doc, model: ReportModel, { t, all, f }: Lang): void {
  const c = all.columns;
  heading(doc, t.positions);
  table(
    doc,
    [
      { label: c.position, width: 158, wrap: true },
      { label: t.protocol, width: 64 },
      { label: t.type, width: 60 },
      { label: c.chain, width: 34 },
      { label: c.wallet, width: 60 },
      { label: t.principalCol, width: 70, align: 'right' },
      { label: t.rewardsCol, width: 65, align: 'right' },
    ],
    model.positions.map((r) => [
      r.position.name ?? '-',
      words(r.position.protocol_id),
      words(r.position.asset_type),
      r.chain,
      walletName(model, r.wallet),
      f.usd(r.position.principal_nav),
      f.usd(r.position.reward_nav),
    ]),
  );
  doc
    .font('Helvetica-Bold')
    .fontSize(8.5)
    .fillColor(INK)
    .text(pdfText(t.total(f.usd(model.totals.total))), M.left, doc.y + 3, { width: WIDTH, align: 'right' });
}

/** Lending (collateral, debt, ratio, threshold), locked positions and liquidity pools: each table when there is something to show. */
function riskSection(doc: Doc, model: ReportModel, { t, all, f }: Lang): void {
  const c = all.columns;
  heading(doc, t.risk);
  const { lending, locked, pools } = model;
  if (lending.length) {
    subheading(doc, t.lending, true);
    table(
      doc,
      [
        { label: c.position, width: 160, wrap: true },
        { label: c.chain, width: 36 },
        { label: t.collateral, width: 76, align: 'right' },
        { label: t.debt, width: 76, align: 'right' },
        { label: t.ratio, width: 46, align: 'right' },
        { label: t.liqThreshold, width: 64, align: 'right' },
        { label: c.status, width: 53, align: 'right' },
      ],
      lending.map((r) => [
        r.name ?? '-',
        r.chain,
        f.usd(r.collateralNav),
        f.usd(r.debtNav),
        r.ratio === null ? '-' : f.fixed(r.ratio, 3),
        r.liqThreshold === null ? '-' : f.fixed(r.liqThreshold, 3),
        r.atRisk ? t.atRisk : t.ok,
      ]),
    );
  }
  if (locked.length) {
    subheading(doc, t.locked, !lending.length);
    table(
      doc,
      [
        { label: c.position, width: 170, wrap: true },
        { label: c.chain, width: 40 },
        { label: t.lockedCol, width: 95, align: 'right' },
        { label: t.unlocks, width: 110 },
        { label: t.votingPower, width: 96, align: 'right' },
      ],
      locked.map((u) => [u.name ?? '-', u.chain, `${f.qty(u.qty)} ${u.symbol ?? ''}`, f.minute(u.unlockTime), f.qty(u.votingPower)]),
    );
  }
  if (pools.length) {
    subheading(doc, t.pools, !lending.length && !locked.length);
    table(
      doc,
      [
        { label: t.pool, width: 190, wrap: true },
        { label: c.chain, width: 40 },
        { label: t.holding, width: 90, align: 'right' },
        { label: t.ownership, width: 90, align: 'right' },
        { label: t.maxSlippage, width: 101, align: 'right' },
      ],
      pools.map((p) => [
        p.name ?? '-',
        p.chain,
        f.qty(p.qty),
        // The service sends ownership in percent (0.1234 is 0.1234 %).
        p.ownershipPct === null ? '-' : f.percent(p.ownershipPct / 100, 4),
        p.maxSlippage === null ? '-' : f.percent(p.maxSlippage, 3),
      ]),
    );
  }
}

/** The period's transactions: whether they are complete, a summary by action, and the list. */
function transactionsSection(doc: Doc, model: ReportModel, { t, all, f }: Lang): void {
  const req = model.request;
  if (!req.from && !req.to) return;
  const c = all.columns;
  heading(doc, t.transactions(req.from ? f.date(req.from) : null, f.date(req.to ?? req.date)));
  paragraph(doc, t.transactionsCount(model.transactionsTotal), { size: 9 });
  // Completeness of the period, said plainly: a total over an incomplete history is not the whole.
  if (model.transactionsIncomplete.length)
    paragraph(
      doc,
      t.transactionsIncomplete(
        model.transactionsIncomplete
          .slice(0, 6)
          .map((x) => coreSentence(x, all, f))
          .join('; '),
        model.transactionsIncomplete.length > 6,
      ),
      {
        size: 9,
        color: INK,
        bold: true,
        dy: 2,
      },
    );
  else paragraph(doc, t.transactionsComplete, { size: 9, dy: 2 });
  doc.moveDown(0.4);
  const total = model.byActionTotal;
  table(
    doc,
    [
      { label: t.action, width: 150 },
      { label: t.transactionsCol, width: 100, align: 'right' },
      { label: t.failedCol, width: 90, align: 'right' },
      { label: t.feesUsd, width: 171, align: 'right' },
    ],
    [
      ...model.byAction.map((a) => [words(a.action), f.count(a.count), f.count(a.failed), f.usd(a.feesUsd)]),
      [t.totalRow, f.count(total.count), f.count(total.failed), f.usd(total.feesUsd)],
    ],
  );
  doc.moveDown(0.6);
  // A category column when any listed transaction has one (issue 28): the wallet, action,
  // transfers and hash give it room (the table keeps the page's width).
  const categorised = model.transactions.some((t) => t.category);
  table(
    doc,
    [
      { label: t.dateUtc, width: 70 },
      { label: c.wallet, width: categorised ? 45 : 55 },
      { label: c.chain, width: 30 },
      { label: t.action, width: categorised ? 52 : 62 },
      { label: t.transfers, width: categorised ? 90 : 110, wrap: true },
      // The other end: its name from the address book (or a watched wallet's label), else its address.
      { label: t.counterparty, width: categorised ? 55 : 60, wrap: true },
      ...(categorised ? [{ label: t.category, width: 55, wrap: true }] : []),
      { label: t.fee, width: 48, align: 'right' as const },
      { label: t.hash, width: categorised ? 66 : 76 },
    ],
    model.transactions.map((x) => [
      x.date ? f.minute(x.date) : '',
      walletName(model, x.wallet),
      x.chain,
      words(x.actionType) + (x.status === 0 ? t.failed : ''),
      x.details.map((d) => `${d.type === 'out' ? '-' : '+'}${f.qty(d.qty)} ${d.symbol ?? ''}`).join(', ') || '-',
      counterpartyCell(x, t.internal),
      ...(categorised ? [x.category ? `${x.category.name}${x.category.source === 'rule' ? t.byRule : ''}` : '-'] : []),
      f.usd(x.gasFee),
      short(x.txnHash),
    ]),
    { fontSize: 7 },
  );
  if (model.transactionsNotListed) paragraph(doc, t.notListed(model.transactionsNotListed), { size: 8.5, dy: 4 });
}

/** Each value the service sent that could not be read: where, and what was sent. */
function qualitySection(doc: Doc, model: ReportModel, { t, all }: Lang): void {
  if (!model.quality.length) return;
  heading(doc, t.dataQuality);
  paragraph(doc, t.qualityIntro, { size: 8.5 });
  doc.moveDown(0.4);
  table(
    doc,
    [
      { label: all.columns.wallet, width: 80 },
      { label: all.columns.chain, width: 40 },
      { label: t.response, width: 95 },
      { label: t.where, width: 200 },
      { label: t.sent, width: 96 },
    ],
    model.quality.flatMap((q) => q.flags.map((f) => [walletName(model, q.wallet), q.chain, q.endpoint, f.path, f.value])),
  );
}

/** The cached responses behind every figure: request IDs, fetch times and the SHA-256 of each body. */
function provenanceSection(doc: Doc, model: ReportModel, { t, f }: Lang): void {
  heading(doc, t.provenance);
  paragraph(doc, t.provenanceIntro, { size: 8.5 });
  doc.moveDown(0.4);
  for (const p of model.provenance) {
    ensure(doc, 22);
    const y = doc.y;
    doc.fontSize(7.5).fillColor(INK);
    say(doc, t.provenanceLine(walletName(model, p.wallet), p.chain, p.endpoint, f.date(p.asOf), f.second(p.fetchedAt), p.requestId ?? '-'), M.left, y, {
      width: WIDTH,
      lineBreak: false,
      ellipsis: true,
      height: 10,
    });
    doc
      .font('Courier')
      .fontSize(7)
      .fillColor(MUTED)
      .text(`SHA-256 ${p.sha256}`, M.left + 10, y + 9.5, { width: WIDTH - 10, lineBreak: false });
    doc.y = y + 21;
  }
}

/** NAV over the cached dates, as a line; a sentence instead when there are fewer than two. */
function navChart(doc: Doc, model: ReportModel, { t, f }: Lang): void {
  heading(doc, t.navOverDates);
  const { points, partial } = model.navChart;
  const h = 130;
  ensure(doc, h + 30);
  const x0 = M.left + 52;
  const y0 = doc.y + 4;
  const w = WIDTH - 60;
  if (points.length < 2) {
    paragraph(doc, t.fewDates(points.length), { size: 9 });
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
      .text(pdfText(f.usdCompact(v)), M.left, y - 3.5, { width: 48, align: 'right', lineBreak: false });
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
      .text(f.date(points[i]!.date), xAt(i) - 30, y0 + h + 4, { width: 60, align: 'center', lineBreak: false });
  doc.y = y0 + h + 16;
  paragraph(
    doc,
    `${t.navSummary(points.length, f.date(points[0]!.date), f.date(points.at(-1)!.date), wholeSpan(points, { t, f }))}${partial ? t.navPartial(partial) : ''}`,
    {
      size: 8,
    },
  );
}

/** The move of the whole totals (a partial total is not a figure to compare). */
function wholeSpan(points: ReadonlyArray<{ date: string; value: number; partial: boolean }>, { t, f }: Pick<Lang, 't' | 'f'>): string {
  const whole = points.filter((p) => !p.partial);
  if (!whole.length) return t.noWholeDate;
  if (whole.length === points.length) return t.span(f.usd(whole[0]!.value), f.usd(whole.at(-1)!.value));
  return t.wholeSpan(f.usd(whole[0]!.value), f.date(whole[0]!.date), f.usd(whole.at(-1)!.value), f.date(whole.at(-1)!.date));
}

function bars(doc: Doc, f: PdfFormat, x: number, width: number, title: string, items: Allocation, raw = false): void {
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
      .text(pdfText(f.percent(share, 1)), x + width * 0.82, y, { width: width * 0.18, align: 'right', lineBreak: false });
    y += 11;
  });
  doc.y = y;
}
