/**
 * The monthly pack as a PDF (docs/pack.md): the roll-forward from opening to closing NAV, the
 * flows by category and counterparty, the scope by wallet, protocol and chain, and the prices
 * the flows were valued at. Drawn from a `MonthlyPack` alone, with the document's date given
 * (a closed period's pack is its stored figures and its close time), so the same pack gives
 * the same bytes (in one locale): a closed period's pack regenerates byte for byte.
 */
import type { Writable } from 'node:stream';
import {
  ALL_WALLETS,
  rollForwardLines,
  UNCATEGORISED,
  type MonthlyPack,
  type PackFlowLine,
  type PackPart,
  type RollForwardLine,
} from '../../../shared/pack.ts';
import { visibleText } from '../../../shared/text-safety.ts';
import { INK, M, MUTED, PARTIAL, WIDTH, heading, line, paragraph, pdfPrintable, say, short, startDocument, table, type Doc } from './pdf-parts.ts';
import { coreSentence, pdfWords } from './pdf-language.ts';
import type { PdfWords } from './pdf-words.ts';
import type { PdfFormat } from './pdf-format.ts';
import type { ClosePeople } from '../../../shared/closes.ts';

/** A closed period's record as its pack's PDF and CSV say it. */
export type PackClosed = ClosePeople & { hash: string; changed: string[] | null };

export interface PackPdfMeta {
  /** The document's date: a closed period's close time, else the end of its closing day. */
  at: string;
  /** Wallet labels, for the header and the by-wallet table. */
  labels: ReadonlyMap<string, string>;
  /**
   * Set for a closed period: when and by whom (the approver), who prepared it and when (null: a
   * close made before closes were prepared), the hash of the data it was closed on, and what
   * changed since (a check's findings).
   */
  closed?: PackClosed | undefined;
}

const dayAfter = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** One document's texts (`t`, the pack's; `all`, the shared ones) and its figures' formats, in its locale. */
interface Lang {
  t: PdfWords['pack'];
  all: PdfWords;
  f: PdfFormat;
  /** A change in USD, signed; "unknown" when it is not known. */
  signed: (v: number | null) => string;
}

/**
 * The pack as a PDF, written to `out` in `locale` (the user's locale setting, passed by the export
 * job; null: en-US, pdf-format.ts): its texts in German for a `de-*` locale, every figure and date
 * in the locale's notation.
 */
export async function writePackPdf(pack: MonthlyPack, meta: PackPdfMeta, out: Writable, locale: string | null = null): Promise<{ pages: number }> {
  const { t: all, f } = pdfWords(locale);
  const t = all.pack;
  const l: Lang = { t, all, f, signed: (v) => (v === null ? t.unknown : f.usdSigned(v)) };
  // The core's own names (not a user's) in the document's language.
  const scope = pack.scope === ALL_WALLETS ? t.allWallets : pack.scope;
  const from = f.date(pack.from);
  const to = f.date(pack.to);
  const { doc, end } = startDocument(
    {
      title: t.docTitle(visibleText(scope), from, to),
      subject: t.docSubject(from, to),
      at: new Date(meta.at),
    },
    out,
    { text: t.footer(scope, from, to, !!meta.closed), page: all.page },
  );
  header(doc, pack, scope, meta, l);
  rollForward(doc, pack, l);
  flows(doc, l, t.byCategory, pack.byCategory);
  flows(doc, l, t.byCounterparty, pack.byCounterparty, (x) => ('kind' in x ? t.kinds[x.kind as keyof typeof t.kinds] : ''));
  parts(doc, l, t.byWallet, pack.byWallet);
  parts(doc, l, t.byProtocol, pack.byProtocol);
  parts(doc, l, t.byChain, pack.byChain);
  tokens(doc, pack, meta, l);
  return { pages: await end() };
}

function header(doc: Doc, pack: MonthlyPack, scope: string, meta: PackPdfMeta, { t, all, f }: Lang): void {
  doc.fontSize(20).fillColor(INK);
  say(doc, t.title(scope), M.left, M.top, { bold: true });
  doc.fontSize(10).fillColor(MUTED);
  say(doc, t.subtitle(f.date(pack.from), f.date(pack.to)), undefined, undefined);
  doc.moveDown(0.8);
  line(doc, t.wallets, pack.wallets.map((w) => `${meta.labels.get(w) ? `${meta.labels.get(w)} ` : ''}${w}`).join('\n'));
  doc.y += (pack.wallets.length - 1) * 2;
  line(doc, t.period, t.periodValue(f.date(pack.from), f.date(dayAfter(pack.from)), f.date(pack.to)));
  line(doc, t.status, meta.closed ? t.closed(f.minute(meta.closed.at), meta.closed.hash.slice(0, 16), meta.closed.by) : t.open);
  // Four eyes: who prepared it and who approved it, or that one person did both (a desktop alone).
  const prepared = meta.closed?.prepared;
  if (meta.closed && prepared)
    line(
      doc,
      t.people,
      `${t.prepared(f.minute(prepared.at), prepared.by)}\n${t.approved(f.minute(meta.closed.at), meta.closed.by)}${meta.closed.samePerson ? `\n${t.samePerson}` : ''}`,
    );
  // What changed and why the pack is partial are the core's sentences (English, docs/reports.md).
  if (meta.closed?.changed) {
    doc.moveDown(0.4);
    paragraph(doc, t.changedSinceClose, {
      size: 9.5,
      color: PARTIAL,
      bold: true,
    });
    for (const c of meta.closed.changed) paragraph(doc, `• ${c}`, { size: 8.5, color: PARTIAL });
  }
  if (!pack.complete) {
    doc.moveDown(0.4);
    paragraph(doc, t.partial, { size: 9.5, color: PARTIAL, bold: true });
    for (const r of pack.reasons) paragraph(doc, `• ${coreSentence(r, all, f)}`, { size: 8.5, color: PARTIAL });
  }
}

function rollForward(doc: Doc, pack: MonthlyPack, { t, f, signed }: Lang): void {
  heading(doc, t.rollForward);
  // Each line by its key, in the document's language (shared/pack.ts writes the English for the CSV).
  const label = (l: RollForwardLine) => {
    const text = t.lines[l.key];
    return typeof text === 'string' ? text : text(f.date(l.key === 'opening' ? pack.from : pack.to));
  };
  const rows: Array<[string, string]> = rollForwardLines(pack)
    .filter((l) => !l.optional || (l.value !== 0 && l.value !== null))
    .map((l) => [label(l), l.total ? (l.value === null ? t.notCached : f.usd(l.value)) : l.memo ? f.usd(l.value ?? 0) : signed(l.value)]);
  table(
    doc,
    [
      { label: t.line, width: WIDTH - 140 },
      { label: t.usd, width: 140, align: 'right' },
    ],
    rows,
    { fontSize: 9 },
  );
  doc.moveDown(0.4);
  paragraph(doc, t.method, { size: 8 });
  if (pack.spamTransactions || pack.spamPositions.closing.count)
    paragraph(
      doc,
      t.spam(
        pack.spamTransactions,
        pack.spamPositions.closing.count,
        f.usd(pack.spamPositions.closing.claimed),
        pack.spamPositions.opening.count,
        f.usd(pack.spamPositions.opening.claimed),
      ),
      { size: 8.5, color: MUTED, dy: 4 },
    );
  if (pack.unknownOutflows)
    paragraph(doc, t.unknownOutflows(pack.unknownOutflows), {
      size: 8.5,
      color: PARTIAL,
      dy: 4,
    });
  for (const u of pack.unpriced)
    paragraph(doc, t.unpriced(u.symbol ?? u.tokenCid ?? t.aToken, u.chain, u.transfers), {
      size: 8.5,
      color: PARTIAL,
    });
}

function flows(doc: Doc, { t, all, f, signed }: Lang, title: string, lines: PackFlowLine[], kind?: (l: PackFlowLine) => string | undefined): void {
  heading(doc, title);
  if (!lines.length) {
    paragraph(doc, t.noFlows, { size: 9 });
    return;
  }
  const nameWidth = kind ? WIDTH - 4 * 82 - 80 : WIDTH - 4 * 82;
  table(
    doc,
    [
      { label: all.columns.name, width: nameWidth, wrap: true },
      ...(kind ? [{ label: t.kind, width: 80 }] : []),
      { label: t.in, width: 82, align: 'right' as const },
      { label: t.out, width: 82, align: 'right' as const },
      { label: t.net, width: 82, align: 'right' as const },
      { label: t.transfers, width: 82, align: 'right' as const },
    ],
    lines.map((l) => [
      shownName(l, t.uncategorised),
      ...(kind ? [kind(l) ?? ''] : []),
      f.usd(l.inflow),
      f.usd(l.outflow),
      signed(l.inflow - l.outflow),
      `${f.count(l.transfers)}${l.unvalued ? t.unvalued(l.unvalued) : ''}`,
    ]),
  );
}

/**
 * A flow line's name as the PDF can show it: an unnamed address in full; a name no font prints
 * whole (a character in none of the embedded fonts, emoji or Thai say, becomes "?") with the
 * address beside it, so two such names are never told apart by question marks alone.
 */
function shownName(l: PackFlowLine, uncategorised: string): string {
  if (!('kind' in l)) return l.label === UNCATEGORISED ? uncategorised : l.label; // a category
  const address = l.key;
  if (l.kind === 'unknown' && l.label.includes('…')) return address;
  return !pdfPrintable(l.label) && address ? `${l.label} (${address})` : l.label;
}

function parts(doc: Doc, { t, all, f }: Lang, title: string, lines: PackPart[]): void {
  heading(doc, title);
  const c = all.columns;
  table(
    doc,
    [
      { label: c.name, width: WIDTH - 4 * 90, wrap: true },
      { label: c.opening, width: 90, align: 'right' },
      { label: t.in, width: 90, align: 'right' },
      { label: t.out, width: 90, align: 'right' },
      { label: c.closing, width: 90, align: 'right' },
    ],
    lines.map((l) => [
      l.label,
      l.opening === null ? t.notCached : f.usd(l.opening),
      f.usd(l.inflow),
      f.usd(l.outflow),
      l.closing === null ? t.notCached : f.usd(l.closing),
    ]),
  );
}

function tokens(doc: Doc, pack: MonthlyPack, meta: PackPdfMeta, { t, all, f }: Lang): void {
  heading(doc, t.tokens);
  const c = all.columns;
  const v = f.usd;
  table(
    doc,
    [
      { label: c.token, width: 44 },
      { label: c.wallet, width: 62 },
      { label: c.chain, width: 30 },
      { label: c.opening, width: 62, align: 'right' },
      { label: t.flows, width: 58, align: 'right' },
      { label: t.accrual, width: 52, align: 'right' },
      { label: t.priceEffect, width: 58, align: 'right' },
      { label: c.closing, width: 62, align: 'right' },
      // Month and day: the period's year is in the header.
      { label: t.pricesOf, width: WIDTH - 428, wrap: true },
    ],
    pack.tokens.map((x) => [
      x.symbol ?? short(x.tokenCid),
      meta.labels.get(x.wallet) || short(x.wallet),
      x.chain,
      v(x.openingNav),
      v(x.flowValue),
      v(x.accrualValue),
      v(x.priceEffect),
      v(x.closingNav),
      x.priceDates.map((d) => f.monthDay(d)).join(' ') || '-',
    ]),
    { fontSize: 7 },
  );
}
