import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, matchesGlob } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { saveCounterparty } from '../../src/main/core/counterparties/book.ts';
import { scopePack } from '../../src/main/core/pack/index.ts';
import { walletsOf } from '../../src/main/core/portfolio/index.ts';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { writePackPdf } from '../../src/main/core/reports/pack-pdf.ts';
import type { MonthlyPack } from '../../src/shared/pack.ts';
import { buildReportModel } from '../../src/main/core/reports/pdf-model.ts';
import { exportPdf } from '../../src/main/core/reports/pdf.ts';
import { pdfText } from '../../src/main/core/reports/pdf-parts.ts';
import { fontFiles, runsOf } from '../../src/main/core/reports/pdf-fonts.ts';
import { type WritableDB, openDatabase } from '../../src/main/core/store/db.ts';
import { listWallets, updateWallet } from '../../src/main/core/store/wallets.ts';
import { useSimulator, WALLET } from '../support/sim.ts';
import { fillCache } from './fixture.ts';

/**
 * Every name prints (issue 39 item 3): a wallet label and counterparties in Cyrillic, Greek,
 * Arabic, Hebrew, Chinese, Korean, Thai and with emoji come out of the portfolio report and the monthly pack as their own
 * characters (read back with poppler), not as "?", in the embedded Noto fonts (pdffonts).
 * FOLIOSCOPE_KEEP_PDF=dir keeps the files to look at (pdftoppm).
 */
const ctx = useSimulator({ txnsPerWallet: 120 });
let db: WritableDB;
let dir: string;
const LABEL = 'Фонд Альфа';
const NAMES = ['صندوق الأمل', 'Ταμείο Βήτα', 'קרן גמא', '东方基金会', 'Фонд Альфа / 基金 / صندوق', '한국 펀드', 'กองทุนไทย', 'Kasse 🦄🇩🇪'];
const RTL = /[\u0590-\u08ff]/;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folioscope-pdf-scripts-'));
  db = openDatabase(join(dir, 'cache.sqlite'));
  await fillCache(ctx.sim, db);
  updateWallet(db, WALLET, { label: LABEL });
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const keep = (path: string, name: string) => {
  if (process.env['FOLIOSCOPE_KEEP_PDF']) copyFileSync(path, join(process.env['FOLIOSCOPE_KEEP_PDF'], name));
};
const text = (path: string) => execFileSync('pdftotext', ['-raw', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
const fonts = (path: string) => execFileSync('pdffonts', [path], { encoding: 'utf8' });

/** A name is in the text: as written, or (right to left) reversed, or at least every one of its characters. */
function expectName(all: string, name: string): void {
  const bare = name.replace(/\s+/g, '');
  if (!RTL.test(name)) return void expect(all, name).toContain(bare);
  if (all.includes(bare) || all.includes([...bare].reverse().join(''))) return;
  for (const c of bare) expect(all, `${c} of ${name}`).toContain(c);
}

/** The embedded fonts pdffonts lists: each embedded, as a subset. */
function expectEmbedded(list: string, families: string[]): void {
  for (const f of families) expect(list, f).toMatch(new RegExp(`[A-Z]{6}\\+${f}\\S*\\s.*\\syes\\s+yes`));
}

describe('names in any script', () => {
  it('pdfText keeps what an embedded font prints; a character no font has is "?"', () => {
    for (const n of NAMES) expect(pdfText(n)).toBe(n);
    expect(pdfText('Δ ק 中')).toBe('Δ ק 中');
    expect(pdfText('กองทุน 한국 🦄')).toBe('กองทุน 한국 🦄');
    // Outside every font's ranges (Ethiopic, a private-use character).
    expect(pdfText('ሀ \ue000')).toBe('? ?');
  });

  it('cuts a name into runs by font, a right-to-left name drawn word by word from the right', () => {
    expect(runsOf('Treasury', 'Helvetica')).toEqual([{ text: 'Treasury', font: 'Helvetica' }]);
    const mixed = runsOf('Фонд Альфа / 基金 / صندوق', 'Helvetica');
    expect(mixed.map((r) => r.text).join('')).toBe('Фонд Альфа / 基金 / صندوق');
    // Chinese characters come from the slices of Noto Sans SC that hold them (基 and 金 lie in two).
    expect(mixed.map((r) => (typeof r.font === 'string' ? r.font : r.font.key.replace(/-sc-\d+-/, '-sc-N-'))).join(' ')).toMatch(
      /^noto-sans-cyrillic-400-normal Helvetica (noto-sans-sc-N-400-normal )+Helvetica noto-sans-arabic-arabic-400-normal$/,
    );
    // A right-to-left name: its words drawn last first, each shaped and reversed by fontkit.
    const arabic = runsOf('صندوق الأمل', 'Helvetica-Bold');
    expect(arabic.map((r) => r.text)).toEqual(['الأمل', ' ', 'صندوق']);
    expect(typeof arabic[0]!.font !== 'string' && arabic[0]!.font.key).toBe('noto-sans-arabic-arabic-700-normal');
    // Two right-to-left words with a number between: the words' order is reversed, the number's digits are not.
    expect(runsOf('קרן 12 גמא', 'Helvetica').map((r) => r.text)).toEqual(['גמא', ' 12 ', 'קרן']);
  });

  it('draws Hangul in Noto Sans KR, Han characters still in Noto Sans SC, Thai in Noto Sans Thai, emoji in Noto Emoji', () => {
    const key = (text: string, base: 'Helvetica' | 'Helvetica-Bold' = 'Helvetica') =>
      runsOf(text, base).map((r) => (typeof r.font === 'string' ? r.font : r.font.key.replace(/-\d+-(\d00)-/, '-N-$1-')));
    // ㄱ (a compatibility jamo) lies in a slice of SC too: KR, tried first for Hangul, draws it.
    expect(key('한국ㄱ')).toEqual(['noto-sans-kr-N-400-normal', 'noto-sans-kr-N-400-normal', 'noto-sans-kr-N-400-normal']);
    expect(key('韓國')).toEqual(['noto-sans-sc-N-400-normal', 'noto-sans-sc-N-400-normal']);
    // Thai's vowel and tone marks stay in the run of the letter they sit on.
    expect(runsOf('กองทุน ไทย', 'Helvetica-Bold')).toEqual([{ text: 'กองทุน ไทย', font: expect.objectContaining({ key: 'noto-sans-thai-thai-700-normal' }) }]);
    // A flag's two regional indicators, and a family joined by ZWJs, are one run each; bold has its own file.
    expect(key('🇩🇪 Kasse 👨‍👩‍👧', 'Helvetica-Bold')).toEqual(['noto-emoji-N-700-normal', 'Helvetica-Bold', 'noto-emoji-N-700-normal']);
    // Digits and "#" stay in Helvetica although Noto Emoji's ranges list them (keycaps).
    expect(key('#1')).toEqual(['Helvetica']);
  });

  it('the installed app ships every font file a PDF may open (electron-builder.yml leaves out only what is never opened)', () => {
    const root = join(import.meta.dirname, '../..');
    const { files } = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as { files: string[] };
    const left = files.filter((f) => f.startsWith('!')).map((f) => f.slice(1));
    const all = fontFiles();
    // Seven families, two weights each; Noto Emoji's bold is a file of its own (the package has 300 to 700).
    expect(all.filter((f) => f.includes('/noto-emoji-') && f.endsWith('-700-normal.woff')).length).toBeGreaterThan(5);
    for (const file of all) {
      // The path as electron-builder sees it, from the app's root (the file's own may be a symlink's target).
      const path = file.slice(file.lastIndexOf('node_modules/'));
      expect(readFileSync(file).length, path).toBeGreaterThan(0);
      expect(
        left.filter((g) => matchesGlob(path, g)),
        path,
      ).toEqual([]);
    }
  });

  it('the portfolio report prints labels and counterparties in Cyrillic, Greek, Arabic, Hebrew, Chinese, Korean, Thai and emoji', async () => {
    const req = { date: '2025-12-31', wallet: WALLET, from: '2025-10-01', to: '2025-12-31' };
    const model = buildReportModel(db, req);
    const others = [...new Set(model.transactions.map((t) => (t.from === WALLET ? t.to : t.from)).filter((a): a is string => !!a && a !== WALLET))];
    expect(others.length).toBeGreaterThanOrEqual(NAMES.length);
    NAMES.forEach((name, i) => saveCounterparty(db, { address: others[i]!, name }));
    const path = join(dir, 'report.pdf');
    await writeAtomically(path, (out) => exportPdf(db, req, out));
    keep(path, 'scripts-report.pdf');
    const all = text(path);
    expect(all).toContain(LABEL.replace(/\s+/g, ''));
    for (const n of NAMES) expectName(all, n);
    // No name fell back to question marks, nor to the address beside it.
    expect(all).not.toMatch(/\?\?/);
    for (const a of others.slice(0, NAMES.length)) expect(all).not.toContain(`(${a.slice(0, 6)}...${a.slice(-4)})`);
    expectEmbedded(fonts(path), [
      'NotoSans-Regular',
      'NotoSansArabic-Regular',
      'NotoSansHebrew-Regular',
      'NotoSansSC-Regular',
      'NotoSansKR-Regular',
      'NotoSansThai-Regular',
      'NotoEmoji-Regular',
    ]);
    // Still deterministic with the fonts embedded: the same cache gives the same bytes.
    const again = join(dir, 'report-again.pdf');
    await writeAtomically(again, (out) => exportPdf(db, req, out));
    expect(readFileSync(again).equals(readFileSync(path))).toBe(true);
  });

  it('the monthly pack prints them too', async () => {
    const period = { wallets: walletsOf(db, undefined), from: '2025-10-31', to: '2025-11-30', scope: LABEL };
    // The month's own counterparties, named in each script.
    const first = scopePack(db, period).byCounterparty.filter((l) => 'kind' in l && l.kind !== 'wallet');
    expect(first.length).toBeGreaterThanOrEqual(NAMES.length);
    NAMES.forEach((name, i) => saveCounterparty(db, { address: first[i]!.key, name }));
    const pack = scopePack(db, period);
    const path = join(dir, 'pack.pdf');
    const labels = new Map(listWallets(db).map((w) => [w.address, w.label]));
    await writeAtomically(path, (out) => writePackPdf(pack, { at: '2025-11-30T23:59:59.000Z', labels }, out));
    keep(path, 'scripts-pack.pdf');
    const all = text(path);
    expect(all).toContain(`Monthlypack:${LABEL.replace(/\s+/g, '')}`);
    const named = pack.byCounterparty.filter((l) => NAMES.includes(l.label));
    // Every name, some twice: a counterparty the report's test named may be among the month's too.
    expect(new Set(named.map((l) => l.label)).size).toBe(NAMES.length);
    for (const l of named) expectName(all, l.label);
    expect(all).not.toMatch(/\?\?/);
    expectEmbedded(fonts(path), ['NotoSans-Regular', 'NotoSans-Bold']);
  });

  it('cuts a long name to its column with an ellipsis measured in its own fonts, and wraps it where the column wraps', async () => {
    const W = ['0x' + 'a1'.repeat(20), '0x' + 'b2'.repeat(20)];
    const labels = new Map([
      [W[0]!, '东方基金会全球资产管理有限公司'],
      [W[1]!, 'קרן גמא הבינלאומית'],
    ]);
    const token = (wallet: string, symbol: string) => ({
      symbol,
      tokenCid: symbol,
      wallet,
      chain: 'eth',
      openingNav: 1,
      flowValue: 0,
      accrualValue: 0,
      priceEffect: 0,
      closingNav: 1,
      priceDates: ['2025-11-02'],
    });
    const pack = {
      ...scopePack(db, { wallets: [], from: '2025-10-31', to: '2025-11-30', scope: 'x' }),
      wallets: W,
      byWallet: W.map((w) => ({ key: w, label: labels.get(w)!, opening: 1, inflow: 0, outflow: 0, closing: 1 })),
      tokens: [token(W[0]!, 'USDC'), token(W[1]!, 'WETH')],
    } as MonthlyPack;
    const path = join(dir, 'long.pdf');
    await writeAtomically(path, (out) => writePackPdf(pack, { at: '2025-11-30T23:59:59.000Z', labels }, out));
    keep(path, 'scripts-long.pdf');
    const rows = execFileSync('pdftotext', ['-raw', path, '-'], { encoding: 'utf8' }).split('\n');
    // By wallet: whole. The tokens table's 62-point wallet column: cut, the ellipsis at the end
    // the name reads to (the left of a Hebrew one).
    expect(rows.some((r) => r.startsWith('东方基金会全球资产管理有限公司'))).toBe(true);
    const usdc = rows.find((r) => r.startsWith('USDC '))!;
    expect(usdc).toMatch(/^USDC 东方基金会[^ ]*… eth /);
    const weth = rows.find((r) => r.startsWith('WETH '))!;
    expect(weth).toContain('…');
    expect(weth).toContain('קרן');
    expect(weth).not.toContain('הבינלאומית');
  });
});
