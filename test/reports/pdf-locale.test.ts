import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportRequest } from '../../src/shared/contract.ts';
import type { JobInfo } from '../../src/shared/model.ts';
import { JobQueue } from '../../src/main/core/jobs/queue.ts';
import { downloadPath, startExport } from '../../src/main/core/reports/export-job.ts';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { buildReportModel } from '../../src/main/core/reports/pdf-model.ts';
import { exportPdf } from '../../src/main/core/reports/pdf.ts';
import { pdfFormat } from '../../src/main/core/reports/pdf-format.ts';
import { writePackPdf } from '../../src/main/core/reports/pack-pdf.ts';
import { scopeNameOf, scopePack } from '../../src/main/core/pack/index.ts';
import { listWallets } from '../../src/main/core/store/wallets.ts';
import { walletsOf } from '../../src/main/core/portfolio/index.ts';
import { type WritableDB, openDatabase } from '../../src/main/core/store/db.ts';
import { updateSettings } from '../../src/main/core/store/settings.ts';
import { useSimulator } from '../support/sim.ts';
import { fillCache } from './fixture.ts';

/**
 * The PDFs follow the locale setting (issue 39, items 2 and 13: "the PDF ignores the locale
 * ($11,843,120.58)"): exported through the export job as the app and the CLI start it, with the
 * setting stored in the cache, and read back from the file written with poppler's pdftotext.
 */
const ctx = useSimulator({ txnsPerWallet: 120 });
let db: WritableDB;
let dir: string;
const queue = new JobQueue();
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folioscope-pdf-locale-'));
  db = openDatabase(join(dir, 'cache.sqlite'));
  await fillCache(ctx.sim, db);
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const REPORT = { date: '2025-12-31', from: '2025-10-01', to: '2025-12-31' } as const;
// Two dates the fixture caches (weekly from 2025-10-01), so the pack has an opening and a closing NAV.
const PACK = { from: '2025-10-01', to: '2025-11-05' } as const;

/** The file an export job writes with the locale setting `locale`, once the job is done. */
async function exported(locale: string | null, req: ExportRequest): Promise<string> {
  updateSettings(db, { locale });
  const downloads = join(dir, 'downloads');
  const finished = new Promise<JobInfo>((resolve) => {
    const off = queue.on('progress', (info) => {
      if (info.state === 'done' || info.state === 'failed' || info.state === 'cancelled') {
        off();
        resolve(info);
      }
    });
  });
  const started = await startExport(db, queue, { downloadsDir: downloads }, req);
  const info = await finished;
  expect(info.id).toBe(started!.id);
  expect(info.state, JSON.stringify(info.error)).toBe('done');
  const out = info.output!;
  const path = downloadPath(downloads, out.downloadId!, out.fileName);
  // To look at the pages (pdftoppm) after a change.
  if (process.env['FOLIOSCOPE_KEEP_PDF']) copyFileSync(path, join(process.env['FOLIOSCOPE_KEEP_PDF'], `${locale ?? 'none'}-${out.fileName}`));
  return path;
}
const text = (path: string) => execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
/** A figure as pdftotext gives it back: the no-break spaces Intl writes print as spaces. */
const shown = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const de = (v: number) => shown(new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(v));
const us = (v: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(v);

describe('the portfolio report in the locale setting', () => {
  it('de-DE: German texts, German figures and dates', async () => {
    const all = text(await exported('de-DE', { format: 'pdf', ...REPORT }));
    const model = buildReportModel(db, REPORT);
    expect(model.totals.total).toBeGreaterThan(1000);
    // The total NAV as Germans write it ("11.843.120,58 $"), never as in en-US.
    expect(all).toContain(de(model.totals.total!));
    expect(all).not.toContain(us(model.totals.total!));
    expect(all).not.toMatch(/\$\d/);
    // Every position's value is a German amount or "-".
    for (const p of model.positions.slice(0, 10)) if (p.position.principal_nav !== null) expect(all).toContain(de(p.position.principal_nav));
    // Dates as Intl writes them for de-DE, and no ISO date left in the text (the hashes aside).
    expect(all).toContain('Positionen am 31.12.2025 · Zeitraum 01.10.2025 bis 31.12.2025');
    expect(all).toContain('Transaktionen, 01.10.2025 bis 31.12.2025');
    expect(all.replace(/\b[0-9a-f]{64}\b/g, '')).not.toMatch(/\b20\d\d-\d\d-\d\d\b/);
    // Percentages in German notation ("12,3 %").
    expect(all).toMatch(/\d,\d %/);
    expect(all).not.toMatch(/\d\.\d%/);
    for (const heading of [
      'Portfoliobericht',
      'Zusammenfassung',
      'NAV gesamt',
      'NAV über die Daten',
      'Aufteilung',
      'Nach Anlageart',
      'Positionen',
      'Liquidität und Risiko',
      'Fortschreibung und Abstimmung, 01.10.2025 bis 31.12.2025',
      'Herkunft der Daten',
      'Seite 1 von',
      'Datum (UTC)',
      'Gegenpartei',
    ])
      expect(all, heading).toContain(heading);
    for (const english of ['Summary', 'Allocation', 'Provenance of the data', 'Page 1 of', 'Liquidity and risk', 'NAV over dates', 'Counterparty'])
      expect(all, english).not.toContain(english);
    // The document's own title, as a reader's PDF viewer shows it.
    const info = execFileSync('pdfinfo', [await exported('de-DE', { format: 'pdf', date: REPORT.date })], { encoding: 'utf8' });
    expect(info).toMatch(/Title:\s+Folioscope-Portfoliobericht 31\.12\.2025/);
  });

  it('a locale whose digits no font draws (Chakma, Tamil decimal digits): its conventions in Latin digits, no figure a "?"', async () => {
    const questionMarks = (t: string) => (t.match(/\?/g) ?? []).length;
    const baseline = questionMarks(text(await exported('en-US', { format: 'pdf', ...REPORT })));
    const model = buildReportModel(db, REPORT);
    for (const locale of ['ccp', 'en-US-u-nu-tamldec']) {
      const all = text(await exported(locale, { format: 'pdf', ...REPORT }));
      expect(questionMarks(all), locale).toBe(baseline);
      const f = pdfFormat(locale);
      expect(f.locale, locale).toMatch(/-u-nu-latn$/);
      expect(all, locale).toContain(shown(f.usd(model.totals.total!)));
    }
    // Chakma's own: its grouping (lakh) and its currency sign, in Latin digits.
    expect(pdfFormat('ccp').usd(-1234567.89)).toMatch(/^-12,34,567\.89\s?US\$$/);
  });

  it('en-US, as set and with no locale set: the report as before, byte for byte', async () => {
    const before = join(dir, 'before.pdf');
    await writeAtomically(before, (out) => exportPdf(db, REPORT, out));
    const bytes = readFileSync(before);
    expect(readFileSync(await exported('en-US', { format: 'pdf', ...REPORT })).equals(bytes)).toBe(true);
    // No locale (the screen follows the system's): the file is en-US whatever the machine's locale.
    expect(readFileSync(await exported(null, { format: 'pdf', ...REPORT })).equals(bytes)).toBe(true);
    const all = text(before);
    const model = buildReportModel(db, REPORT);
    expect(all).toContain(us(model.totals.total!));
    expect(all).toContain('Transactions, 2025-10-01 to 2025-12-31');
  });
});

describe('the monthly pack in the locale setting', () => {
  it('de-DE: German texts, German figures and dates', async () => {
    const all = text(await exported('de-DE', { format: 'pdf', document: 'pack', ...PACK }));
    const pack = scopePack(db, { wallets: walletsOf(db, undefined), ...PACK, scope: scopeNameOf({}) });
    expect(pack.closing).toBeGreaterThan(1000);
    expect(all).toContain(de(pack.closing!));
    expect(all).not.toMatch(/\$\d/);
    expect(all).toContain('Folioscope · NAV vom Ende des 01.10.2025 bis zum Ende des 05.11.2025');
    expect(all).toContain('NAV am Anfang (01.10.2025)');
    expect(all).toContain('NAV am Ende (05.11.2025)');
    for (const heading of [
      'Monatsbericht',
      'NAV-Fortschreibung',
      'Flüsse nach Kategorie',
      'Flüsse nach Gegenpartei',
      'Nach Wallet',
      'Token: Werte und verwendete Preise',
      'Seite 1 von',
    ])
      expect(all, heading).toContain(heading);
    for (const english of ['Monthly pack', 'Flows by category', 'Opening NAV', 'Page 1 of', 'Prices of']) expect(all, english).not.toContain(english);
    expect(all.replace(/\b[0-9a-f]{64}\b/g, '')).not.toMatch(/\b20\d\d-\d\d-\d\d\b/);
  });

  it("de-DE: the core's reasons said in German too, with German dates", async () => {
    // A month whose ends the fixture never cached: the pack is partial and says why.
    const pack = scopePack(db, { wallets: walletsOf(db, undefined), from: '2025-10-31', to: '2025-11-30', scope: scopeNameOf({}) });
    expect(pack.reasons.join(' ')).toContain("Partial: 3 of the scope's wallet chains are not cached at 2025-11-30");
    const path = join(dir, 'pack-partial-de.pdf');
    await writeAtomically(path, (out) => writePackPdf(pack, { at: '2025-11-30T23:59:59.000Z', labels: new Map() }, out, 'de-DE'));
    const all = text(path).replace(/\s+/g, ' ');
    expect(all).toContain('Monatsbericht: Alle Wallets');
    expect(all).toContain('TEILWEISE: diese Zahlen lassen etwas aus:');
    expect(all).toContain('Teilweise: 3 Wallet-Chains des Bereichs sind am 30.11.2025 nicht gespeichert und nicht in den Summen');
    expect(all).toContain('Ohne Kategorie');
    expect(all).not.toContain('Partial:');
    expect(all).not.toContain('Uncategorised');
    expect(all).not.toContain('All wallets');
  });

  it('en-US: the pack as before, byte for byte', async () => {
    const pack = scopePack(db, { wallets: walletsOf(db, undefined), ...PACK, scope: scopeNameOf({}) });
    const before = join(dir, 'pack-before.pdf');
    await writeAtomically(before, (out) =>
      writePackPdf(pack, { at: `${PACK.to}T23:59:59.000Z`, labels: new Map(listWallets(db).map((w) => [w.address, w.label])) }, out),
    );
    expect(readFileSync(await exported('en-US', { format: 'pdf', document: 'pack', ...PACK })).equals(readFileSync(before))).toBe(true);
    expect(text(before)).toContain(`Opening NAV (${PACK.from})`);
  });
});
