import { insertSnapshots } from '../../src/main/core/positions/store/snapshots.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { holdingViews, txn, type Holding } from '../spam/support.ts';

/**
 * The world of the kept views' and kept NAV series' tests (portfolio-parts, nav-kept): wallets
 * whose holdings the spam judge weighs, the snapshots filed for them, and the swap that makes a
 * token one the wallet bought by its own hand.
 */
export const W = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
export const W2 = '0x' + '2'.repeat(40);
export const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
export const THIN = '0x' + 'c1'.repeat(20);
export const BOUGHT = '0x' + 'c2'.repeat(20);
export const FAKE = '0x' + 'fa'.repeat(20);
export const PEER = '0x' + '7'.repeat(40);
export const W3 = '0x' + '3'.repeat(40);

export const hold = (o: Partial<Holding> & { cid: string; symbol: string }): Holding => ({ name: o.symbol, qty: 100, nav: 100, ...o });
/** What the judge weighs: a token with no market (spam unless bought), a fake USDC, a real one. */
export const HOLDINGS = [
  hold({ cid: THIN, symbol: 'GLDX', slippage: 0.9 }),
  hold({ cid: BOUGHT, symbol: 'THIN', slippage: 0.8, nav: 250 }),
  hold({ cid: USDC, symbol: 'USDC', name: 'USD Coin', nav: 1000 }),
  hold({ cid: FAKE, symbol: 'AIRDROP', nav: 5 }),
];

/** A wallet chain's three views of `holdings` at `day` filed, fetched at `fetchedAt` when given. */
export function lay(db: WritableDB, wallet: string, chain: string, day: string, holdings: Holding[], fetchedAt?: string): void {
  insertSnapshots(
    db,
    holdingViews(wallet, chain, day, holdings).inputs.map((i) => (fetchedAt ? { ...i, response: { ...i.response, fetchedAt } } : i)),
  );
}

/** The wallet's swap of USDC for `cid` on eth, its hash made from `n` (a new `n`, a new transaction). */
export function swapInto(db: WritableDB, wallet: string, cid: string, n: number): void {
  upsertTransactions(db, wallet, 'eth', [
    txn({
      wallet_id: wallet,
      txn_hash: `0x${n.toString(16).padStart(64, 'b')}`,
      from: wallet,
      to: PEER,
      action_type: 'swap',
      details: [
        { token_cid: USDC, type: 'out', qty: 50, symbol: 'USDC' },
        { token_cid: cid, type: 'in', qty: 100, symbol: 'THIN' },
      ],
    }),
  ]);
}

/** Three wallets at `day`: W on eth (HOLDINGS) and arb (USDC), W2 on eth (HOLDINGS), W3 on eth (HOLDINGS but the first). */
export function layThree(db: WritableDB, day: string): void {
  addWallet(db, { address: W, chains: ['eth', 'arb'], label: 'Treasury' });
  addWallet(db, { address: W2, chains: ['eth'] });
  addWallet(db, { address: W3, chains: ['eth'] });
  lay(db, W, 'eth', day, HOLDINGS);
  lay(db, W, 'arb', day, [hold({ cid: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', symbol: 'USDC', name: 'USD Coin' })]);
  lay(db, W2, 'eth', day, HOLDINGS);
  lay(db, W3, 'eth', day, HOLDINGS.slice(1));
}
