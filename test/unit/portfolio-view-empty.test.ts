import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { portfolioView } from '../../src/main/core/portfolio/view.ts';
import { exportPdf } from '../../src/main/core/reports/pdf.ts';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { navHistory } from '../../src/main/core/positions/store/nav.ts';
import { insertSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { addWallet, listWallets } from '../../src/main/core/store/wallets.ts';
import { liquiditySnapshot, positionSnapshot, underlyingSnapshot } from '../../src/shared/service/schemas.ts';
import { createDB, tempDir } from '../support/store.ts';

/**
 * An empty wallet (cached at the date, the service listing no position) is worth $0.00, known;
 * a wallet not cached is unknown. The portfolio view must tell them apart in its totals: before,
 * an all-empty scope read "—" (unknown) in the view, the CLI, the PDF and the NAV history, just
 * as if nothing were cached, and its date dropped out of the NAV chart.
 */
describe('an empty wallet (cached, zero positions) versus one not cached', () => {
  it('the view and the NAV history say $0.00 for the empty wallet, and the PDF does too', async () => {
    const db = createDB();
    const wallet = '0x' + 'e1'.repeat(20);
    addWallet(db, { address: wallet, chains: ['eth'], label: 'Empty' });
    const date = '2025-06-01';
    const schemas = { allPositions: positionSnapshot, positionsByUnderlying: underlyingSnapshot, liquidityAnalysis: liquiditySnapshot } as const;
    for (const endpoint of ['allPositions', 'positionsByUnderlying', 'liquidityAnalysis'] as const) {
      const body = JSON.stringify({ status: 'OK', message: 'ok', data: [{ wallet_id: wallet, date: `${date}T00:00:00Z`, positions: [] }] });
      const data = [schemas[endpoint].parse(JSON.parse(body).data[0])];
      const response = {
        endpoint,
        data,
        message: 'ok',
        requestId: `r-${endpoint}`,
        total: null,
        body,
        url: '',
        fetchedAt: '2025-06-02T00:00:00.000Z',
        attempts: 1,
      };
      insertSnapshot(db, { endpoint, wallet, chain: 'eth', requestedDate: date, response } as Parameters<typeof insertSnapshot>[1]);
    }
    const view = portfolioView(db, listWallets(db), date);
    expect(view).toMatchObject({ complete: true, missing: [], walletsCounted: 1 });
    expect(view.members[0]!.state).toBe('cached');
    // Known to be nothing: 0, not null ("—" reads as unknown, as a member not cached would).
    expect(view.totals).toEqual({ total: 0, principal: 0, reward: 0, count: 0 });
    expect(navHistory(db, {}).points).toMatchObject([{ date, totalNav: 0, chainsCached: 1, chainsWatched: 1 }]);

    const path = join(tempDir(), 'empty.pdf');
    await writeAtomically(path, (out) => exportPdf(db, { date }, out));
    const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
    expect(text).toMatch(/Total NAV\s+Principal\s+Rewards\s+\$0\.00\s+\$0\.00\s+\$0\.00/);
  });
});
