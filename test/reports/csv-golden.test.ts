import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCsv } from '../../src/main/core/reports/csv-reports.ts';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { type WritableDB, openDatabase } from '../../src/main/core/store/db.ts';
import { AWKWARD_REQUESTS, fillAwkwardCache } from './awkward-fixture.ts';

/**
 * The transactions export writes exactly the bytes it wrote before it was optimised: the
 * files in golden/ were written by the export as it stood before issue 16 (commit in their
 * history), for the awkward cache of awkward-fixture.ts, and were read through by hand. The
 * `restated` column (the change log, issue 30) was appended to them later, by a run that parsed
 * the old and new files and found every old cell unchanged and the new one empty. The `category`,
 * `category_source` and `note` columns (issue 28) were appended the same way: every old cell
 * unchanged, the new ones filled only for the fixture's annotated rows (a rule's swaps, a manual
 * category with a formula-like note across lines); `categories` and `uncategorised` are new files.
 */
const GOLDEN = join(import.meta.dirname, 'golden');
let dir: string;
let db: WritableDB;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'folioscope-golden-'));
  db = openDatabase(join(dir, 'cache.sqlite'));
  fillAwkwardCache(db);
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('transactions CSV, byte for byte', () => {
  for (const [name, req] of Object.entries(AWKWARD_REQUESTS)) {
    it(`${name}: the same bytes as the golden file, through the file the app writes`, async () => {
      const path = join(dir, `${name}.csv`);
      const progress: Array<[number, number | null]> = [];
      const { rows } = await writeAtomically(path, (out) => exportCsv(db, req, out, (done, total) => progress.push([done, total])));
      const actual = readFileSync(path);
      const expected = readFileSync(join(GOLDEN, `transactions-${name}.csv`));
      expect(actual.toString('utf8')).toBe(expected.toString('utf8'));
      expect(actual.equals(expected)).toBe(true);
      // Every record but the header is a row the export counted (fields may hold line breaks).
      expect(rows).toBe((parse(expected, { bom: true, relax_column_count: false }) as string[][]).length - 1);
      expect(progress.at(-1)?.[0]).toBe(progress.at(-1)?.[1] ?? progress.at(-1)?.[0]);
    });
  }
});
