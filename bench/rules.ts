/**
 * Category rules (issue 28, item 2): what applying them costs, off the ingest path. A cache of
 * `total` transactions (the simulator's history, stored as a sync stores it), then:
 * - after a sync: the rules applied to the last page-run of new rows (`applyRulesToNew`, what
 *   app.ts runs once a sync job has finished), with no rule (it only notes how far the cache
 *   goes) and with five rules;
 * - "apply to existing": every rule decided again over every cached row (saving a rule);
 * - a rule's preview (how many cached rows it matches).
 */
import { performance } from 'node:perf_hooks';
import { applyRulesToAll, applyRulesToNew, previewRule } from '../src/main/core/annotations/apply.ts';
import { saveRule } from '../src/main/core/annotations/store/annotations.ts';
import { upsertTransactions } from '../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../src/main/core/store/wallets.ts';
import { transaction, type Transaction } from '../src/shared/service/schemas.ts';
import { CHAINS } from '../src/sim/chains.ts';
import { historyOf, transactionAt } from '../src/sim/transactions.ts';
import { report } from './lib.ts';
import { freshDatabase } from './ingest.ts';

const WALLET = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';

export async function rulesBench(total = 200_000, fresh = 10_000): Promise<void> {
  const h = historyOf(
    { seed: 1, txnsPerWallet: total, historyStart: Date.UTC(2018, 0, 1) / 1000, historyEnd: Date.UTC(2026, 10, 1) / 1000 },
    WALLET,
    CHAINS[0]!,
  );
  const db = freshDatabase('rules.sqlite');
  addWallet(db, { address: WALLET, chains: ['eth'] });
  const rows = (from: number, to: number): Transaction[] => {
    const out: Transaction[] = [];
    for (let i = from; i < to; i++) out.push(transaction.parse(JSON.parse(JSON.stringify(transactionAt(h, total - 1 - i)))));
    return out;
  };
  for (let p = 0; p < total - fresh; p += 1000) upsertTransactions(db, WALLET, 'eth', rows(p, Math.min(p + 1000, total - fresh)));
  applyRulesToNew(db); // no rule yet: notes how far the cache goes
  const time = <T>(fn: () => T) => {
    const t0 = performance.now();
    const r = fn();
    return { ms: performance.now() - t0, r };
  };
  // A sync's new rows, with no rule.
  for (let p = total - fresh; p < total - fresh / 2; p += 1000) upsertTransactions(db, WALLET, 'eth', rows(p, p + 1000));
  const none = time(() => applyRulesToNew(db));
  // Five rules of the kinds a treasury writes.
  saveRule(db, { category: 'Swap', conditions: { actionTypes: ['swap'] } });
  saveRule(db, { category: 'Vendor payment', conditions: { direction: 'out', token: 'USDC', minAmount: 100 } });
  saveRule(db, { category: 'Yield/Rewards', conditions: { direction: 'in', actionTypes: ['claim', 'claim_reward'] } });
  saveRule(db, { category: 'Grants', conditions: { counterparties: ['0x00000000219ab540356cbb839cbe05303d7705fa'] } });
  saveRule(db, { category: 'Fees', conditions: { methods: ['0x095ea7b3'] } });
  const all = time(() => applyRulesToAll(db));
  for (let p = total - fresh / 2; p < total; p += 1000) upsertTransactions(db, WALLET, 'eth', rows(p, p + 1000));
  const five = time(() => applyRulesToNew(db));
  const preview = time(() => previewRule(db, { direction: 'out', token: 'USDC' }));
  report(`Category rules over ${total.toLocaleString('en-US')} cached transactions (applied after a sync, never inside its ingest)`, [
    ['after a sync of ' + (fresh / 2).toLocaleString('en-US') + ' new rows, no rule', `${none.ms.toFixed(1)} ms (${JSON.stringify(none.r)})`],
    [
      'after a sync of ' + (fresh / 2).toLocaleString('en-US') + ' new rows, 5 rules',
      `${five.ms.toFixed(1)} ms (${JSON.stringify(five.r)}), ${((five.ms / (fresh / 2)) * 1000).toFixed(1)} µs a row`,
    ],
    ['apply to existing (saving a rule), 5 rules', `${all.ms.toFixed(0)} ms (${JSON.stringify(all.r)}), ${((all.ms / total) * 1000).toFixed(1)} µs a row`],
    ['a rule’s preview (direction out, token USDC)', `${preview.ms.toFixed(0)} ms (${preview.r.matches} matches)`],
  ]);
  db.close();
}
