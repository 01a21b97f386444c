import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { buildReportModel } from '../../src/main/core/reports/pdf-model.ts';
import { exportPdf, pdfText } from '../../src/main/core/reports/pdf.ts';
import { type WritableDB, openDatabase } from '../../src/main/core/store/db.ts';
import { displayName } from '../../src/shared/display-names.ts';
import { useSimulator } from '../support/sim.ts';
import { fillCache } from './fixture.ts';

/** The PDF names things as the app does, and wraps long names instead of cutting them (read with poppler). */
const ctx = useSimulator({ txnsPerWallet: 300 });
let db: WritableDB;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folioscope-pdf-names-'));
  db = openDatabase(join(dir, 'cache.sqlite'));
  await fillCache(ctx.sim, db);
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('names in the PDF report', () => {
  it('uses the app’s display names and prints every position name whole', async () => {
    const req = { date: '2025-12-31' };
    const path = join(dir, 'names.pdf');
    await writeAtomically(path, (out) => exportPdf(db, req, out));
    // -raw keeps a wrapped cell's lines together, in the order they were written.
    const raw = execFileSync('pdftotext', ['-raw', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    const model = buildReportModel(db, req);
    const protocols = [...new Set(model.positions.map((r) => r.position.protocol_id).filter((p): p is string => !!p))];
    expect(protocols.some((p) => displayName(p) !== p)).toBe(true);
    for (const p of protocols) expect(raw, p).toContain(pdfText(displayName(p)));
    // The lower-case ids with spaces (the old rendering) are gone where the app capitalises.
    for (const p of protocols.filter((x) => displayName(x) !== x.replace(/_/g, ' '))) expect(raw).not.toContain(` ${p.replace(/_/g, ' ')} `);
    const names = [...new Set(model.positions.map((r) => r.position.name).filter((n): n is string => !!n))];
    const long = names.filter((n) => n.length > 30);
    expect(long.length).toBeGreaterThan(0);
    for (const n of names) expect(raw, n).toContain(pdfText(n).replace(/\s+/g, ' '));
  });
});
