/**
 * The monthly pack as a PDF (docs/pack.md): the roll-forward from opening to closing NAV, the
 * flows by category and counterparty, the scope by wallet, protocol and chain, and the prices
 * the flows were valued at. Drawn from a `MonthlyPack` alone, with the document's date given
 * (a closed period's pack is its stored figures and its close time), so the same pack gives
 * the same bytes: a closed period's pack regenerates byte for byte.
 */
import type { Writable } from 'node:stream';
import { rollForwardLines, type MonthlyPack, type PackFlowLine, type PackPart } from '../../../shared/pack.ts';
import { visibleText } from '../../../shared/text-safety.ts';
import {
  INK,
  M,
  MUTED,
  PARTIAL,
  WIDTH,
  footers,
  heading,
  line,
  paragraph,
  pdfPrintable,
  say,
  short,
  startDocument,
  table,
  usd,
  type Doc,
} from './pdf-parts.ts';

export interface PackPdfMeta {
  /** The document's date: a closed period's close time, else the end of its closing day. */
  at: string;
  /** Wallet labels, for the header and the by-wallet table. */
  labels: ReadonlyMap<string, string>;
  /** Set for a closed period: when, the hash of the data it was closed on, and what changed since (a check's findings). */
  closed?: { at: string; hash: string; changed: string[] | null } | undefined;
}

const signed = (v: number | null) => (v === null ? 'unknown' : v > 0 ? `+${usd(v)}` : usd(v));
const net = (l: { inflow: number; outflow: number }) => signed(l.inflow - l.outflow);
const dayAfter = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

export async function writePackPdf(pack: MonthlyPack, meta: PackPdfMeta, out: Writable): Promise<{ pages: number }> {
  const { doc, finished } = startDocument(
    {
      title: `Folioscope monthly pack (${visibleText(pack.scope)}) ${pack.from} to ${pack.to}`,
      subject: `NAV roll-forward ${pack.from} to ${pack.to}`,
      at: new Date(meta.at),
    },
    out,
  );
  header(doc, pack, meta);
  rollForward(doc, pack);
  flows(doc, 'Flows by category', pack.byCategory);
  flows(doc, 'Flows by counterparty', pack.byCounterparty, (l) =>
    'kind' in l ? { book: 'address book', wallet: 'watched wallet', unknown: 'UNKNOWN' }[l.kind as string] : '',
  );
  parts(doc, 'By wallet', pack.byWallet);
  parts(doc, 'By protocol', pack.byProtocol);
  parts(doc, 'By chain', pack.byChain);
  tokens(doc, pack, meta);
  const pages = footers(doc, `Folioscope monthly pack · ${pack.scope} · ${pack.from} to ${pack.to}${meta.closed ? ' · closed' : ''}`);
  doc.end();
  await finished;
  return { pages };
}

function header(doc: Doc, pack: MonthlyPack, meta: PackPdfMeta): void {
  doc.fontSize(20).fillColor(INK);
  say(doc, `Monthly pack: ${pack.scope}`, M.left, M.top, { bold: true });
  doc.fontSize(10).fillColor(MUTED);
  say(doc, `Folioscope · NAV from the end of ${pack.from} to the end of ${pack.to}`, undefined, undefined);
  doc.moveDown(0.8);
  line(doc, 'Wallets', pack.wallets.map((w) => `${meta.labels.get(w) ? `${meta.labels.get(w)} ` : ''}${w}`).join('\n'));
  doc.y += (pack.wallets.length - 1) * 2;
  line(doc, 'Period', `opening at the end of ${pack.from}; flows of successful transactions dated ${dayAfter(pack.from)} to ${pack.to} (UTC)`);
  line(
    doc,
    'Status',
    meta.closed
      ? `closed ${meta.closed.at.slice(0, 16).replace('T', ' ')} UTC: the figures as closed (data hash ${meta.closed.hash.slice(0, 16)}…)`
      : 'open (not closed)',
  );
  if (meta.closed?.changed) {
    doc.moveDown(0.4);
    paragraph(doc, 'CHANGED SINCE CLOSE: the data behind these figures changed after the period was closed (the figures are as closed):', {
      size: 9.5,
      color: PARTIAL,
      bold: true,
    });
    for (const c of meta.closed.changed) paragraph(doc, `• ${c}`, { size: 8.5, color: PARTIAL });
  }
  if (!pack.complete) {
    doc.moveDown(0.4);
    paragraph(doc, 'PARTIAL: these figures leave something out:', { size: 9.5, color: PARTIAL, bold: true });
    for (const r of pack.reasons) paragraph(doc, `• ${r}`, { size: 8.5, color: PARTIAL });
  }
}

function rollForward(doc: Doc, pack: MonthlyPack): void {
  heading(doc, 'NAV roll-forward');
  const rows: Array<[string, string]> = rollForwardLines(pack)
    .filter((l) => !l.optional || (l.value !== 0 && l.value !== null))
    .map((l) => [l.label, l.total ? (l.value === null ? 'not cached' : usd(l.value)) : l.memo ? usd(l.value ?? 0) : signed(l.value)]);
  table(
    doc,
    [
      { label: 'Line', width: WIDTH - 140 },
      { label: 'USD', width: 140, align: 'right' },
    ],
    rows,
    { fontSize: 9 },
  );
  doc.moveDown(0.4);
  paragraph(
    doc,
    'Flows are valued at the price the snapshots imply for the token (NAV / quantity in the by-token view of the scope on that chain) at the cached date nearest the transfer; a quantity change no transaction explains (interest, rewards, fees paid) at the closing price; the price effect is the rest of each token’s change. Tokens moved between the scope’s balances and its own positions (the deposit that opens one, the withdrawal that closes it, a debt drawn or repaid) are not flows: named after the change, at their days’ prices, they change no NAV.',
    { size: 8 },
  );
  if (pack.spamTransactions || pack.spamPositions.closing.count)
    paragraph(
      doc,
      `Left out as spam (junk airdrops, address poisoning): ${pack.spamTransactions} transaction${pack.spamTransactions === 1 ? '' : 's'} of the month; ${pack.spamPositions.closing.count} spam token${pack.spamPositions.closing.count === 1 ? '' : 's'} held at the close, claimed ${usd(pack.spamPositions.closing.claimed)} (at the opening ${pack.spamPositions.opening.count}, claimed ${usd(pack.spamPositions.opening.claimed)}), in no figure above.`,
      { size: 8.5, color: MUTED, dy: 4 },
    );
  if (pack.unknownOutflows)
    paragraph(doc, `${pack.unknownOutflows} plain transfers out went to addresses neither in the address book nor watched.`, {
      size: 8.5,
      color: PARTIAL,
      dy: 4,
    });
  for (const u of pack.unpriced)
    paragraph(doc, `${u.symbol ?? u.tokenCid ?? 'A token'} (${u.chain}): ${u.transfers} transfers with no cached price, in no figure.`, {
      size: 8.5,
      color: PARTIAL,
    });
}

function flows(doc: Doc, title: string, lines: PackFlowLine[], kind?: (l: PackFlowLine) => string | undefined): void {
  heading(doc, title);
  if (!lines.length) {
    paragraph(doc, 'No flows in this period.', { size: 9 });
    return;
  }
  const nameWidth = kind ? WIDTH - 4 * 82 - 80 : WIDTH - 4 * 82;
  table(
    doc,
    [
      { label: 'Name', width: nameWidth, wrap: true },
      ...(kind ? [{ label: 'Kind', width: 80 }] : []),
      { label: 'In', width: 82, align: 'right' as const },
      { label: 'Out', width: 82, align: 'right' as const },
      { label: 'Net', width: 82, align: 'right' as const },
      { label: 'Transfers', width: 82, align: 'right' as const },
    ],
    lines.map((l) => [
      shownName(l),
      ...(kind ? [kind(l) ?? ''] : []),
      usd(l.inflow),
      usd(l.outflow),
      net(l),
      `${l.transfers}${l.unvalued ? ` (+${l.unvalued} unvalued)` : ''}`,
    ]),
  );
}

/**
 * A flow line's name as the PDF can show it: an unnamed address in full; a name no font prints
 * whole (a character in none of the embedded fonts, emoji or Thai say, becomes "?") with the
 * address beside it, so two such names are never told apart by question marks alone.
 */
function shownName(l: PackFlowLine): string {
  if (!('kind' in l)) return l.label; // a category
  const address = l.key;
  if (l.kind === 'unknown' && l.label.includes('…')) return address;
  return !pdfPrintable(l.label) && address ? `${l.label} (${address})` : l.label;
}

function parts(doc: Doc, title: string, lines: PackPart[]): void {
  heading(doc, title);
  table(
    doc,
    [
      { label: 'Name', width: WIDTH - 4 * 90, wrap: true },
      { label: 'Opening', width: 90, align: 'right' },
      { label: 'In', width: 90, align: 'right' },
      { label: 'Out', width: 90, align: 'right' },
      { label: 'Closing', width: 90, align: 'right' },
    ],
    lines.map((l) => [
      l.label,
      l.opening === null ? 'not cached' : usd(l.opening),
      usd(l.inflow),
      usd(l.outflow),
      l.closing === null ? 'not cached' : usd(l.closing),
    ]),
  );
}

function tokens(doc: Doc, pack: MonthlyPack, meta: PackPdfMeta): void {
  heading(doc, 'Tokens: values and the prices used');
  const v = (x: number | null) => (x === null ? '-' : usd(x));
  table(
    doc,
    [
      { label: 'Token', width: 44 },
      { label: 'Wallet', width: 62 },
      { label: 'Chain', width: 30 },
      { label: 'Opening', width: 62, align: 'right' },
      { label: 'Flows', width: 58, align: 'right' },
      { label: 'Accrual', width: 52, align: 'right' },
      { label: 'Price eff.', width: 58, align: 'right' },
      { label: 'Closing', width: 62, align: 'right' },
      // Month and day: the period's year is in the header.
      { label: 'Prices of', width: WIDTH - 428, wrap: true },
    ],
    pack.tokens.map((t) => [
      t.symbol ?? short(t.tokenCid),
      meta.labels.get(t.wallet) || short(t.wallet),
      t.chain,
      v(t.openingNav),
      v(t.flowValue),
      v(t.accrualValue),
      v(t.priceEffect),
      v(t.closingNav),
      t.priceDates.map((d) => d.slice(5)).join(' ') || '-',
    ]),
    { fontSize: 7 },
  );
}
