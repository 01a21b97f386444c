import { beforeAll, describe, expect, it } from 'vitest';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { portfolioView, portfolioViewUnlessAborted } from '../../src/main/core/portfolio/view.ts';
import { addWallet, listWallets } from '../../src/main/core/store/wallets.ts';
import { createDB } from '../support/store.ts';

/**
 * Cancellation reaches the work, not only the answer: the portfolio view built for a caller
 * that may stop wanting it gives the event loop a turn between members, so an abort that
 * arrives meanwhile (a cancel message over IPC, a closed HTTP request) stops it there.
 */
describe('the portfolio view stops when its caller no longer wants it', () => {
  let db: WritableDB;
  beforeAll(() => {
    db = createDB();
    for (let i = 1; i <= 5; i++) addWallet(db, { address: `0x${String(i).repeat(40)}`, chains: ['eth', 'arb'] });
  });

  it('an abort that arrives while it works stops it (it would have finished otherwise)', async () => {
    const controller = new AbortController();
    // Runs at the first turn the view gives the event loop, i.e. while the view is being built.
    setImmediate(() => controller.abort());
    await expect(portfolioViewUnlessAborted(db, listWallets(db), '2025-12-31', controller.signal, { turnMs: 0 })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a caller that does not cancel gets the same view as the plain one', async () => {
    const view = await portfolioViewUnlessAborted(db, listWallets(db), '2025-12-31', new AbortController().signal, { turnMs: 0 });
    expect(view).toEqual(portfolioView(db, listWallets(db), '2025-12-31'));
    expect(view.members).toHaveLength(10);
  });

  it('an abort before it starts: nothing is read', async () => {
    await expect(portfolioViewUnlessAborted(db, listWallets(db), '2025-12-31', AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });
});
