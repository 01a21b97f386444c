/**
 * The poisoning guard (issue 38, item 5; docs/spam.md): a payment a watched wallet made to an
 * address that looks like one of its known counterparties (the same first and last hex
 * characters, another middle) but is not one fires a high-severity alert naming both addresses,
 * what they share, and the transaction. No rule is needed: it is always on, like the closes' own
 * alert. Every payment the cache holds is looked at, whenever it arrived, so a payment made before
 * the wallet was watched is found at its first sync too: one alert per payment to a lookalike,
 * never one per spam row that set the trap.
 */
import type { Alert } from '../../../shared/model.ts';
import { paidAddresses, paymentsTo } from '../ledger/index.ts';
import { spamJudge } from '../spam/index.ts';
import type { WritableDB } from '../store/db.ts';
import { listWallets } from '../store/wallets.ts';
import { fireCoreAlert } from './store/alerts.ts';

export const ADDRESS_POISONING = 'address-poisoning';

type Detail = { token_cid?: string | null; type: string | null; qty: number | null; symbol: string | null };

export function checkPoisoning(db: WritableDB, at: string): Alert[] {
  const wallets = listWallets(db);
  if (!wallets.length) return [];
  const labels = new Map(wallets.map((w) => [w.address, w.label]));
  const judge = spamJudge(db, { wallets: wallets.map((w) => w.address), whole: true });
  const fired: Alert[] = [];
  // One look per address paid (a history pays the same few addresses again and again), then every
  // payment to an address that imitates another.
  for (const paid of paidAddresses(
    db,
    wallets.map((w) => w.address),
  )) {
    const row = (p: typeof paid) => ({
      wallet: p.wallet,
      chain: p.chain,
      txnHash: p.hash,
      from: p.wallet,
      to: p.to,
      methodHex: null,
      status: 1,
      details: JSON.parse(p.details) as Detail[],
    });
    if (!judge.poisoning(row(paid))) continue;
    for (const payment of paymentsTo(db, paid)) {
      const r = row(payment);
      const hit = judge.poisoning(r);
      if (!hit) continue;
      const sent = r.details
        .filter((d) => d.type === 'out' && (d.qty ?? 0) > 0)
        .map((d) => `${d.qty} ${d.symbol ?? 'tokens'}`)
        .join(', ');
      const name = labels.get(payment.wallet) ? `${labels.get(payment.wallet)} (${payment.wallet})` : payment.wallet;
      const alert = fireCoreAlert(
        db,
        ADDRESS_POISONING,
        {
          subject: `poisoning:${payment.wallet}|${payment.chain}|${payment.hash}`,
          wallet: payment.wallet,
          title: `Payment to a lookalike address ${hit.lookalike}`,
          detail: `${name} sent ${sent || 'tokens'} on ${payment.chain} to ${hit.lookalike}, which is not ${hit.imitates}, the counterparty it imitates: both start ${hit.prefix} and end …${hit.suffix}. Transaction ${payment.hash}, ${new Date(payment.time).toISOString()}. Check whether this payment reached the intended counterparty.`,
          facts: {
            severity: 'high',
            wallet: payment.wallet,
            chain: payment.chain,
            txnHash: payment.hash,
            time: new Date(payment.time).toISOString(),
            lookalike: hit.lookalike,
            imitates: hit.imitates,
            prefix: hit.prefix,
            suffix: hit.suffix,
            sent,
          },
        },
        at,
      );
      if (alert) fired.push(alert);
    }
  }
  return fired;
}
