import { describe, expect, it } from 'vitest';
import { dealingsBetween } from '../../src/main/core/ledger/index.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { refreshTransferDays } from '../../src/main/core/transactions/store/transfer-days.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { plansOf } from '../support/plan.ts';
import { createDB } from '../support/store.ts';
import { transactionRow } from '../support/transactions.ts';

/**
 * The spam judge's question of a wallet, "with whom among these addresses did it deal" (one
 * lookalike bucket's range), is answered from the dealings kept as rows are written (issue 40
 * item 3, issue 37 item 8): a seek on party_dealings' key per chain. It walked the address
 * indexes over the range, which at a fund's scale holds every watched wallet's transactions with
 * a router, an exchange or the fund's own wallets: a Timeline page of 1,000 wallets × 6 chains
 * took 22 s (bench/RESULTS.md). A pair whose dealings are not kept (states dropped) still reads
 * its rows, by the address indexes, not the wallet's whole history. The figures themselves are
 * held to the transactions' aggregate in test/store/transfer-days-kept.test.ts.
 */
const W = '0x' + '1'.repeat(40);
const OTHER = '0x' + 'c1'.repeat(20);

function cache() {
  const db = createDB();
  addWallet(db, { address: W, chains: ['eth', 'arb'] });
  for (const chain of ['eth', 'arb'])
    upsertTransactions(
      db,
      W,
      chain,
      [1, 2, 3].map((n) =>
        transactionRow({
          wallet_id: W,
          chain_id: chain,
          txn_hash: `0x${chain === 'eth' ? 'e' : 'a'}${n.toString(16).padStart(63, '0')}`,
          from: n === 1 ? OTHER : W,
          to: n === 1 ? W : OTHER,
          details: [{ token_cid: '0xaa', type: n === 1 ? 'in' : 'out', qty: n, symbol: 'AAA' }],
        }),
      ),
    );
  return db;
}

const DEALINGS = /\bparty_dealings\b|\btransactions t\b/;

describe('a wallet’s dealings within an address range', () => {
  it('are read from the kept dealings by their key, never by walking the address indexes', () => {
    const db = cache();
    refreshTransferDays(db, [
      { wallet: W, chain: 'eth' },
      { wallet: W, chain: 'arb' },
    ]);
    let got: ReturnType<typeof dealingsBetween> | undefined;
    const plans = plansOf(db, () => (got = dealingsBetween(db, W, '0xc1', '0xc2')), DEALINGS);
    expect(got!.recipients.map((r) => r.chain).sort()).toEqual(['arb', 'eth']);
    expect(got!.senders.map((s) => [s.chain, s.address]).sort()).toEqual([
      ['arb', OTHER],
      ['eth', OTHER],
    ]);
    for (const plan of plans.filter((p) => p.includes('party_dealings') || p.includes(' t '))) {
      expect(plan).not.toMatch(/transactions_by_(to|from)/);
      expect(plan).not.toMatch(/SCAN t\b/);
    }
    expect(plans.join(' | ')).toMatch(/SEARCH d USING PRIMARY KEY \(wallet=\? AND chain=\? AND dir=\? AND address>\? AND address<\?\)/);
  });

  it('read the rows of a pair not kept by the address indexes over the range, not the wallet’s whole history', () => {
    const db = cache();
    const plans = plansOf(db, () => dealingsBetween(db, W, '0xc1', '0xc2'), DEALINGS).join(' | ');
    expect(plans).toMatch(/SEARCH t USING INDEX transactions_by_to \(to_addr>\? AND to_addr<\?\)/);
    expect(plans).toMatch(/SEARCH t USING INDEX transactions_by_from \(from_addr>\? AND from_addr<\?\)/);
    expect(plans).not.toMatch(/SCAN t\b/);
  });
});
