import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyRulesToAll } from '../../src/main/core/annotations/apply.ts';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { buildReportModel } from '../../src/main/core/reports/pdf-model.ts';
import { exportPdf } from '../../src/main/core/reports/pdf.ts';
import { saveRule, setAnnotation } from '../../src/main/core/annotations/store/annotations.ts';
import { createDB, tempDir } from '../support/store.ts';
import { useSimulator } from '../support/sim.ts';
import { fillCache } from './fixture.ts';

/**
 * The PDF lists a period's transactions with their categories (issue 28): a column when any
 * listed transaction has one, the rule's marked "(rule)", the user's plain; read back with poppler.
 */
const ctx = useSimulator({ txnsPerWallet: 300 });
const REQ = { date: '2025-12-31', from: '2025-10-01', to: '2025-12-31' } as const;

describe('categories in the PDF', () => {
  it('lists each transaction’s category beside it, a manual choice as chosen', async () => {
    const db = createDB();
    await fillCache(ctx.sim, db);
    const text = async (name: string) => {
      const path = join(tempDir(), name);
      await writeAtomically(path, (out) => exportPdf(db, REQ, out));
      return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
    };
    const before = await text('before.pdf');
    expect(before).toContain('Transactions, 2025-10-01 to 2025-12-31');
    expect(before).not.toMatch(/\bCategory\b/); // no category yet: the list is as before
    saveRule(db, { category: 'Swap', conditions: { actionTypes: ['swap'] } });
    applyRulesToAll(db);
    const listed = buildReportModel(db, REQ).transactions;
    // A rule matches succeeded transactions only (a failed swap moved nothing; issue 41).
    const swaps = listed.filter((t) => t.actionType === 'swap' && t.status === 1);
    expect(swaps.length).toBeGreaterThan(0);
    expect(swaps.every((t) => t.category?.name === 'Swap' && t.category.source === 'rule')).toBe(true);
    const other = listed.find((t) => t.actionType !== 'swap')!;
    setAnnotation(db, { wallet: other.wallet, chain: other.chain, txnHash: other.txnHash }, { category: 'Grants' });
    const after = await text('after.pdf');
    expect(after).toMatch(/\bCategory\b/);
    expect(after.match(/Swap \(rule\)/g)?.length).toBe(swaps.length);
    expect(after.match(/\bGrants\b/g)?.length).toBe(1);
  });
});
