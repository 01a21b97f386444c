import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { exportPdf } from '../../src/main/core/reports/pdf.ts';
import { type WritableDB, openDatabase } from '../../src/main/core/store/db.ts';
import { useSimulator, WALLET } from '../support/sim.ts';
import { fillCache } from './fixture.ts';

/**
 * The text of fixed reports, as pdftotext extracts it, against the text the report had when
 * pdf.ts was made to lay out only (the figures moved to pdf-model.ts and src/shared/portfolio):
 * moving the arithmetic must not change a character a reader sees. What differs from run to
 * run (fetch times, request IDs, response hashes) is masked; every figure stays.
 * Set FOLIOSCOPE_WRITE_GOLDEN=1 to write the files anew after a deliberate change.
 */
const ctx = useSimulator({ txnsPerWallet: 120, conventions: { badValue: 'nan', badField: 'principal_nav' } });
let db: WritableDB;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folioscope-pdf-text-'));
  db = openDatabase(join(dir, 'cache.sqlite'));
  await fillCache(ctx.sim, db);
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function mask(text: string): string {
  return (
    text
      .replace(/\b[0-9a-f]{64}\b/g, '<sha256>')
      .replace(/\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?( UTC)?/g, '<time>')
      .replace(/request \S+/g, 'request <id>')
      .replace(/[ \t]+$/gm, '')
      // pdftotext -layout places columns by a page-wide estimate: one wider label moves every
      // column of the page by a space or two. The reader sees the words and figures, not that.
      .replace(/[ \t]{2,}/g, '  ')
  );
}

async function reportText(name: string, req: Parameters<typeof exportPdf>[1]): Promise<string> {
  const path = join(dir, `${name}.pdf`);
  await writeAtomically(path, (out) => exportPdf(db, req, out));
  // To look at the pages (pdftoppm) before and after a change.
  if (process.env['FOLIOSCOPE_KEEP_PDF']) copyFileSync(path, join(process.env['FOLIOSCOPE_KEEP_PDF'], `${name}.pdf`));
  return mask(execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }));
}

const golden = (name: string) => join(import.meta.dirname, 'golden', `${name}.txt`);

describe('the text of a fixed portfolio report', () => {
  for (const [name, req] of [
    ['all-with-period', { date: '2025-12-31', from: '2025-10-01', to: '2025-12-31' }],
    ['one-wallet', { date: '2025-11-05', wallet: WALLET }],
  ] as const) {
    it(`${name}: the same text as before`, async () => {
      const text = await reportText(name, req);
      if (process.env['FOLIOSCOPE_WRITE_GOLDEN'] === '1') writeFileSync(golden(name), text);
      expect(text.length).toBeGreaterThan(1000);
      expect(text).toBe(readFileSync(golden(name), 'utf8'));
    });
  }
});
