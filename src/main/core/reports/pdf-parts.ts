/**
 * The drawing parts every Folioscope PDF shares (the portfolio report, the monthly pack): A4 pages,
 * the standard Helvetica fonts, headings, paragraphs, label/value lines and tables that continue
 * across pages with their header repeated. Text goes through pdfText and is drawn by `say`:
 * what Helvetica encodes (WinAnsi) in Helvetica, any other script in an embedded Noto font
 * (pdf-fonts.ts), run by run.
 */
import PDFDocument from 'pdfkit';
import type { Writable } from 'node:stream';
import { visibleText } from '../../../shared/text-safety.ts';
import { type BaseFont, type Run, needsEmbedded, printable, runsOf } from './pdf-fonts.ts';

export const A4 = { width: 595.28, height: 841.89 };
export const M = { top: 50, bottom: 50, left: 42, right: 42 };
export const WIDTH = A4.width - M.left - M.right;
export const INK = '#17202b';
export const MUTED = '#5d6b7a';
export const RULE = '#d5dae1';
export const ACCENT = '#2d6cdf';
/** A partial figure's mark (a NAV date that lacks a wallet chain). */
export const PARTIAL = '#b45309';
export const BAR_COLORS = ['#2d6cdf', '#13a37f', '#e0922f', '#9b59b6', '#d64550', '#3bb3c4', '#7f8c8d', '#b8a13a'];

// Figures are formatted by the document's own PdfFormat (pdf-format.ts), in the locale setting.
export const short = (a: string | null | undefined) => (!a ? '-' : a.length > 14 ? `${a.slice(0, 8)}...${a.slice(-6)}` : a);

/**
 * Text as the PDF prints it: controls and direction overrides visible as <U+…> (a name cannot
 * reorder the text around it), dashes and arrows as Helvetica has them, and a character no font
 * has (neither Helvetica nor an embedded Noto font: emoji, Thai …) as "?".
 */
export function pdfText(s: string): string {
  // Controls and direction overrides from the service or a label show as <U+…>, not as "?".
  return s
    .split('\n')
    .map(visibleText)
    .join('\n')
    .replace(/[\u2212\u2012\u2013]/g, '-')
    .replace(/\u2192/g, '->')
    .replace(/\u00a0|\u202f/g, ' ')
    .replace(/[^\n\x20-\x7e\u00a1-\u00ff\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]/gu, (c) => (printable(c) ? c : '?'));
}

/** Whether every character of a name prints as itself (none becomes "?"). */
export const pdfPrintable = (s: string): boolean => !pdfText(s).includes('?') || s.includes('?');

export type Doc = InstanceType<typeof PDFDocument>;
export const bottom = () => A4.height - M.bottom;

export function ensure(doc: Doc, height: number): void {
  if (doc.y + height > bottom()) doc.addPage();
}

export function heading(doc: Doc, text: string): void {
  ensure(doc, 60);
  doc.moveDown(0.8);
  doc.fontSize(12.5).fillColor(INK);
  say(doc, text, M.left, doc.y, { width: WIDTH, bold: true });
  const y = doc.y + 2;
  doc
    .moveTo(M.left, y)
    .lineTo(M.left + WIDTH, y)
    .lineWidth(0.6)
    .strokeColor(ACCENT)
    .stroke();
  doc.y = y + 6;
}

export function subheading(doc: Doc, text: string, first = false): void {
  if (!first) doc.moveDown(0.6);
  doc.font('Helvetica-Bold').fontSize(9.5).fillColor(INK).text(text, M.left, doc.y);
  doc.moveDown(0.3);
}

/** A paragraph across the page: the sections' notes, verdicts and explanations. */
export function paragraph(doc: Doc, text: string, o: { size: number; color?: string; bold?: boolean; dy?: number }): void {
  doc.fontSize(o.size).fillColor(o.color ?? MUTED);
  say(doc, text, M.left, doc.y + (o.dy ?? 0), { width: WIDTH, bold: !!o.bold });
}

export function line(doc: Doc, label: string, value: string): void {
  const y = doc.y;
  doc.fontSize(9).fillColor(MUTED);
  say(doc, label, M.left, y, { width: 110 });
  doc.fillColor(INK);
  say(doc, value, M.left + 115, y, { width: WIDTH - 115 });
  doc.y = Math.max(doc.y, y + 12);
}

export interface Column {
  label: string;
  width: number;
  align?: 'left' | 'right';
  /** Long text (position names) wraps onto more lines instead of being cut. */
  wrap?: boolean;
}

/** A table that continues across pages, repeating its header on each. */
export function table(doc: Doc, columns: Column[], rows: string[][], options: { fontSize?: number; zebra?: boolean } = {}): void {
  const size = options.fontSize ?? 8;
  const rowH = size + 5.5;
  const drawHeader = () => {
    let x = M.left;
    const y = doc.y;
    doc.font('Helvetica-Bold').fontSize(size).fillColor(MUTED);
    for (const c of columns) {
      cell(doc, c.label, x + 2, y, { width: c.width - 4, height: rowH, align: c.align ?? 'left', bold: true });
      x += c.width;
    }
    doc
      .moveTo(M.left, y + rowH - 2)
      .lineTo(M.left + WIDTH, y + rowH - 2)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.y = y + rowH;
  };
  ensure(doc, rowH * 3);
  drawHeader();
  rows.forEach((row, r) => {
    doc.font('Helvetica').fontSize(size);
    // Wrapping cells set the row's height; the others stay on one line.
    const textH = Math.max(size + 2, ...row.map((cell, i) => (columns[i]!.wrap ? heightOf(doc, cell, columns[i]!.width - 4) : 0)));
    const h = rowH + textH - (size + 2);
    if (doc.y + h > bottom()) {
      doc.addPage();
      drawHeader();
    }
    const y = doc.y;
    if (options.zebra !== false && r % 2 === 1) doc.rect(M.left, y - 1.5, WIDTH, h).fill('#f3f5f8');
    let x = M.left;
    doc.font('Helvetica').fontSize(size).fillColor(INK);
    row.forEach((text, i) => {
      const c = columns[i]!;
      if (c.wrap) say(doc, text, x + 2, y, { width: c.width - 4, align: c.align ?? 'left' });
      else cell(doc, text, x + 2, y, { width: c.width - 4, height: size + 2, align: c.align ?? 'left' });
      x += c.width;
    });
    doc.y = y + h;
  });
  doc.x = M.left;
}

/**
 * A table's one-line cell at x, y: cut with an ellipsis where it is wider than `width` (a fixed
 * height makes pdfkit cut it instead of wrapping it). One that fits, in Helvetica, one line with no
 * space at either end or doubled, is drawn where pdfkit's line wrapper would put it, without the
 * wrapper: its word-by-word pass was most of a long table's time (bench/RESULTS.md).
 */
function cell(doc: Doc, text: string, x: number, y: number, o: { width: number; height: number; align: 'left' | 'right'; bold?: boolean }): void {
  const shown = pdfText(text);
  if (!/\n|^\s|\s$|\s\s/.test(shown) && !needsEmbedded(shown)) {
    const w = doc.font(o.bold ? 'Helvetica-Bold' : 'Helvetica').widthOfString(shown);
    if (w <= o.width) {
      // Measured once: pdfkit measures a fragment again unless told its width.
      const options: PDFKit.Mixins.TextOptions & { textWidth: number; wordCount: number } = { lineBreak: false, textWidth: w, wordCount: 1 };
      doc.text(shown, o.align === 'right' ? x + o.width - w : x, y, options);
      return;
    }
  }
  say(doc, text, x, y, { width: o.width, height: o.height, align: o.align, lineBreak: false, ellipsis: true, bold: !!o.bold });
}

/** What every page's footer says: `text` on the left, `page(i, n)` ("Page i of n") on the right. */
export interface Footer {
  text: string;
  page: (i: number, of: number) => string;
}

/**
 * A document written to `out`, dated `at` (the data's time, never the clock: the same data
 * gives the same bytes), each page with `footer`. `end()` ends it and settles, with its number
 * of pages, when `out` has it all.
 *
 * A page is written out as soon as the next one starts: pages kept for their footers until the
 * end held a fund's 3,000-page report whole in memory. A page's footer is drawn as it ends, but
 * its "of n" is not known then: each page shows its label through a form XObject of its own,
 * filled in at the end, when n is.
 */
export function startDocument(info: { title: string; subject: string; at: Date }, out: Writable, footer: Footer): { doc: Doc; end: () => Promise<number> } {
  const doc = new PDFDocument({
    size: 'A4',
    margins: M,
    info: {
      Title: info.title,
      Author: 'Folioscope',
      Subject: info.subject,
      Creator: 'Folioscope',
      Producer: 'Folioscope',
      CreationDate: info.at,
      ModDate: info.at,
    },
  });
  const finished = new Promise<void>((resolve, reject) => {
    out.once('finish', () => resolve());
    out.once('error', reject);
  });
  doc.pipe(out);
  const labels: PDFKit.PDFKitReference[] = [];
  // The page's footer, drawn before pdfkit ends the page (an addPage of ours, a table's, or a
  // paragraph's continuing on a new page): what the page's drawing had set is put back after.
  const drawFooter = () => {
    const s = state(doc);
    const kept = { x: doc.x, y: doc.y, font: s._font, source: s._fontSource, family: s._fontFamily, size: s._fontSize, fill: s._fillColor };
    const page = doc.page;
    const margin = page.margins.bottom;
    // Write in the bottom margin without starting a new page.
    page.margins.bottom = 0;
    doc.save();
    doc.font('Helvetica').fontSize(7.5).fillColor(MUTED);
    say(doc, footer.text, M.left, FOOTER_Y, { width: WIDTH - 80, lineBreak: false, ellipsis: true });
    const label = doc.ref({ Type: 'XObject', Subtype: 'Form', BBox: [0, 0, page.width, page.height], Resources: { ProcSet: ['PDF', 'Text'] } });
    const name = `Page${labels.length + 1}`;
    labels.push(label);
    (page as unknown as { xobjects: Record<string, unknown> }).xobjects[name] = label;
    doc.addContent(`/${name} Do`);
    doc.restore();
    page.margins.bottom = margin;
    Object.assign(s, { _font: kept.font, _fontSource: kept.source, _fontFamily: kept.family, _fontSize: kept.size, _fillColor: kept.fill });
    doc.x = kept.x;
    doc.y = kept.y;
  };
  const addPage = doc.addPage.bind(doc);
  doc.addPage = (options?: PDFKit.PDFDocumentOptions) => {
    drawFooter();
    return addPage(options);
  };
  const end = async () => {
    drawFooter();
    const pages = labels.length;
    // Each label drawn by pdfkit as on its page (the same place, font and encoding), into its
    // XObject: a page of pdfkit's whose content and resources are the XObject's.
    const last = doc.page;
    for (const [i, label] of labels.entries()) {
      const data = (label as unknown as { data: { Resources: object } }).data;
      const form = Object.assign(Object.create(Object.getPrototypeOf(last) as object) as object, {
        document: doc,
        width: last.width,
        height: last.height,
        margins: { ...last.margins, bottom: 0 },
        content: label,
        resources: { data: data.Resources },
        dictionary: { data: {} },
        markings: [],
      });
      doc.page = form as unknown as typeof last;
      doc.font('Helvetica').fontSize(7.5).fillColor(MUTED);
      doc.text(pdfText(footer.page(i + 1, pages)), M.left + WIDTH - 80, FOOTER_Y, { width: 80, align: 'right', lineBreak: false });
      (label as unknown as { end(): void }).end();
    }
    doc.page = last;
    doc.end();
    await finished;
    return pages;
  };
  return { doc, end };
}

/** Where the footer's line is: in the bottom margin. */
const FOOTER_Y = A4.height - 32;

type TextOptions = PDFKit.Mixins.TextOptions & { bold?: boolean };
interface DocState {
  _font: { ascender: number };
  _fontSize: number;
  _fontSource: unknown;
  _fontFamily: unknown;
  _fillColor: unknown;
}
const state = (doc: Doc) => doc as unknown as DocState;
const registered = new WeakMap<Doc, Set<string>>();
/** The run's font made current: an embedded face is registered with the document the first time it is used. */
function fontOf(doc: Doc, f: Run['font']): Doc {
  if (typeof f === 'string') return doc.font(f);
  let keys = registered.get(doc);
  if (!keys) registered.set(doc, (keys = new Set()));
  if (!keys.has(f.key)) {
    doc.registerFont(f.key, f.bytes);
    keys.add(f.key);
  }
  return doc.font(f.key);
}
const runsWidth = (doc: Doc, runs: Run[]) => runs.reduce((w, r) => w + fontOf(doc, r.font).widthOfString(r.text), 0);

/**
 * `text` (through pdfText) at x, y in Helvetica, or Helvetica-Bold with `bold`, at the size and
 * colour set. Text Helvetica encodes whole goes to pdfkit as it always did. Other text is laid
 * out here: cut into lines as pdfkit would (or cut short with an ellipsis, for `lineBreak: false`
 * with `ellipsis`), each line into runs by font (pdf-fonts.ts), each run measured with its own
 * font and placed on Helvetica's baseline, so a column's width and a row's height hold.
 */
export function say(doc: Doc, text: string, x: number | undefined, y: number | undefined, options: TextOptions = {}): void {
  const { bold, ...o } = options;
  const base: BaseFont = bold ? 'Helvetica-Bold' : 'Helvetica';
  const shown = pdfText(text);
  if (!needsEmbedded(shown)) {
    doc.font(base).text(shown, x ?? doc.x, y ?? doc.y, o);
    return;
  }
  const x0 = x ?? doc.x;
  let ly = y ?? doc.y;
  const width = o.width ?? doc.page.width - doc.page.margins.right - x0;
  const size = state(doc)._fontSize;
  const baseAscender = state(doc.font(base))._font.ascender;
  const lineH = doc.currentLineHeight(true) + (o.lineGap ?? 0);
  for (const lineText of lines(doc, shown, base, width, o)) {
    if (o.lineBreak !== false && ly + lineH > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      ly = doc.page.margins.top;
    }
    const runs = runsOf(lineText, base);
    const w = runsWidth(doc, runs);
    let cx = o.align === 'right' ? x0 + width - w : o.align === 'center' ? x0 + (width - w) / 2 : x0;
    for (const r of runs) {
      fontOf(doc, r.font);
      // pdfkit puts the baseline at y + the font's ascender: every run sits on Helvetica's.
      const dy = ((state(doc)._font.ascender - baseAscender) / 1000) * size;
      doc.text(r.text, cx, ly - dy, { lineBreak: false });
      cx += doc.widthOfString(r.text);
    }
    ly += lineH;
  }
  doc.font(base);
  doc.x = x0;
  doc.y = ly;
}

/** The height `say` gives the text in `width` (a table's wrapping cell). */
export function heightOf(doc: Doc, text: string, width: number, bold = false): number {
  const base: BaseFont = bold ? 'Helvetica-Bold' : 'Helvetica';
  const shown = pdfText(text);
  if (!needsEmbedded(shown)) return doc.font(base).heightOfString(shown, { width });
  const n = lines(doc, shown, base, width, {}).length;
  return n * doc.font(base).currentLineHeight(true);
}

/** The text's lines: its own, each wrapped at spaces to `width` (or cut with an ellipsis when it may not break). */
function lines(doc: Doc, text: string, base: BaseFont, width: number, o: PDFKit.Mixins.TextOptions): string[] {
  const widthOf = (s: string) => runsWidth(doc, runsOf(s, base));
  return text.split('\n').flatMap((own) => {
    if (o.lineBreak === false) {
      if (!o.ellipsis || widthOf(own) <= width) return [own];
      const ellipsis = typeof o.ellipsis === 'string' ? o.ellipsis : '…';
      const room = width - doc.font(base).widthOfString(ellipsis);
      const chars = [...own];
      // The most characters that fit before the ellipsis.
      let lo = 0;
      let hi = chars.length;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (widthOf(chars.slice(0, mid).join('')) <= room) lo = mid;
        else hi = mid - 1;
      }
      const kept = chars.slice(0, lo).join('').trimEnd();
      // A name that reads right to left ends at its left: the ellipsis goes there.
      return [/^[^\p{L}]*[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u.test(kept) ? ellipsis + kept : kept + ellipsis];
    }
    const out: string[] = [];
    let current = '';
    for (const word of own.split(/(?<=\s)/)) {
      if (current && widthOf((current + word).trimEnd()) > width) {
        out.push(current.trimEnd());
        current = '';
      }
      // A word wider than the line is cut where it fills one.
      let rest = word;
      while (!current && widthOf(rest.trimEnd()) > width && [...rest].length > 1) {
        const chars = [...rest];
        let n = 1;
        while (n < chars.length && widthOf(chars.slice(0, n + 1).join('')) <= width) n++;
        out.push(chars.slice(0, n).join(''));
        rest = chars.slice(n).join('');
      }
      current += rest;
    }
    out.push(current.trimEnd());
    return out;
  });
}
