import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { M, WIDTH, startDocument, say } from '../../src/main/core/reports/pdf-parts.ts';
import { pdfWords } from '../../src/main/core/reports/pdf-language.ts';

/**
 * A PDF's pages leave for the file as the next one starts (issue 40: a fund's 3,000-page report
 * held every page until the end, 2.6 GiB), and each page still says "Page i of n", though n is
 * known only at the end: its label is a form XObject filled in then (pdf-parts.ts). Read back
 * with poppler, as a reader's viewer reads it.
 */
const dir = mkdtempSync(join(tmpdir(), 'folioscope-pdf-pages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PAGES = 40;
const PARAGRAPH = Array.from({ length: 700 }, (_, i) => `word${i}`).join(' ');

/** A document of PAGES pages (a heading per page, and a long bold paragraph pdfkit continues onto new pages itself), in `locale`. */
async function write(locale: string | null): Promise<{ path: string; buffered: number[]; bytesBeforeEnd: number; pages: number }> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const { t: all } = pdfWords(locale);
  const { doc, end } = startDocument({ title: 'Pages', subject: 'Streamed', at: new Date(Date.UTC(2026, 9, 31)) }, out, {
    text: 'Folioscope test footer',
    page: all.page,
  });
  const buffered: number[] = [];
  doc.on('pageAdded', () => buffered.push(doc.bufferedPageRange().count));
  doc.font('Helvetica-Bold').fontSize(12).fillColor('#17202b');
  // pdfkit breaks this paragraph over pages itself (continueOnNewPage): the footer drawn at each break must leave its font as it was.
  doc.text(PARAGRAPH, M.left, M.top, { width: WIDTH });
  while (doc.bufferedPageRange().start + doc.bufferedPageRange().count < PAGES) {
    doc.addPage();
    doc.font('Helvetica').fontSize(10);
    say(doc, `Section ${doc.bufferedPageRange().start + 1}`, M.left, M.top);
  }
  // Let the pipe hand on what pdfkit pushed.
  await new Promise((resolve) => setImmediate(resolve));
  const bytesBeforeEnd = chunks.reduce((n, c) => n + c.length, 0);
  const pages = await end();
  const path = join(dir, `doc-${locale ?? 'en'}.pdf`);
  writeFileSync(path, Buffer.concat(chunks));
  return { path, buffered, bytesBeforeEnd, pages };
}

const poppler = (tool: string, ...args: string[]) => {
  const r = spawnSync(tool, args, { encoding: 'utf8' });
  // A page poppler finds broken is said on stderr ("Syntax Error…"), even when it goes on.
  expect(r.stderr, `${tool} ${args.join(' ')}`).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
};

describe('a PDF written page by page', () => {
  it('hands each page on before the document ends, holding one at a time', async () => {
    const { buffered, bytesBeforeEnd, pages, path } = await write(null);
    expect(pages).toBe(PAGES);
    expect(buffered.length).toBe(PAGES - 1);
    expect(Math.max(...buffered)).toBe(1);
    // The first 39 pages had reached the file's stream before end(): each page's content is more than 200 bytes.
    expect(bytesBeforeEnd).toBeGreaterThan((PAGES - 1) * 200);
    expect(poppler('pdfinfo', path)).toMatch(new RegExp(`^Pages:\\s+${PAGES}$`, 'm'));
  });

  it('says "Page i of n" on every page, in the document language, with the footer text beside it', async () => {
    for (const [locale, label] of [
      [null, (i: number) => `Page ${i} of ${PAGES}`],
      ['de-DE', (i: number) => `Seite ${i} von ${PAGES}`],
    ] as const) {
      const { path } = await write(locale);
      const pages = poppler('pdftotext', '-layout', path, '-').split('\f').slice(0, PAGES);
      expect(pages.length).toBe(PAGES);
      for (const [i, text] of pages.entries()) {
        const footer = text.trimEnd().split('\n').at(-1)!;
        expect(footer).toMatch(/^Folioscope test footer\s+/);
        expect(footer.trim().endsWith(label(i + 1)), `page ${i + 1}: ${footer}`).toBe(true);
      }
    }
  });

  it('leaves the text it interrupts as it was: a paragraph continued on the next page keeps its size', async () => {
    const { path } = await write(null);
    // Each word's box (pdftotext -bbox): the paragraph's words are 12 pt on every page it runs over, the footers 7.5 pt.
    const html = poppler('pdftotext', '-bbox', path, '-');
    const heights = new Map<number, number>();
    const onPages = new Set<number>();
    let page = 0;
    for (const line of html.split('\n')) {
      if (line.includes('<page ')) page++;
      const m = /yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">word(\d+)</.exec(line);
      if (!m) continue;
      heights.set(Number(m[3]), Math.round((Number(m[2]) - Number(m[1])) * 10) / 10);
      onPages.add(page);
    }
    expect(heights.size).toBe(700);
    expect(onPages.size).toBeGreaterThan(1);
    const first = heights.get(0)!;
    expect(first).toBeGreaterThan(10);
    for (const [word, h] of heights) expect(h, `word${word}`).toBe(first);
  });
});
