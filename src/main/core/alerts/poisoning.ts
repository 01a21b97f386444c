/**
 * The poisoning guard (issue 38, item 5; docs/spam.md): a payment a watched wallet made to an
 * address that looks like one of its known counterparties (the same first and last hex
 * characters, another middle) but is not one fires a high-severity alert naming both addresses,
 * what they share, and the transaction. No rule is needed: it is always on, like the closes' own
 * alert. Every payment the cache holds is looked at, whenever it arrived, so a payment made before
 * the wallet was watched is found at its first sync too: one alert per payment to a lookalike,
 * never one per spam row that set the trap.
 *
 * An alert it fired is taken back (resolved, with why in words) once its situation no longer
 * holds: the lookalike became a counterparty the user vouched for (named in the address book, a
 * watched wallet, called not spam, or genuine by a list), or the payment is no longer cached (or is
 * cached as failed). One the user acknowledged is left as they left it. Taken back, it does not
 * fire again while that holds; if it stops holding (the verdict cleared), the payment fires anew.
 */
import type { Alert } from '../../../shared/model.ts';
import { paidAddresses, paymentsTo, transactionForJudge, unreadableTransfers } from '../ledger/index.ts';
import { inputCountsBySide, keptJudge, positionsMoved, type KeptJudge, type WalletInputs } from '../portfolio/index.ts';
import { addressKey } from '../store/address-key.ts';
import { isOutflow, type SpamJudge } from '../spam/index.ts';
import type { WritableDB } from '../store/db.ts';
import { listWallets } from '../store/wallets.ts';
import { fireCoreAlert, openCoreAlerts, resolveAlert } from './store/alerts.ts';

export const ADDRESS_POISONING = 'address-poisoning';
/** The subject of the alert saying the guard itself could not run (check.ts). */
export const GUARD_FAILED_SUBJECT = 'poisoning-guard';

type Detail = { token_cid?: string | null; type: string | null; qty: number | null; symbol: string | null };

/** A fault of the cached data the guard read, said plainly (never the row's text, which an error of JSON quotes). */
export class GuardDataError extends Error {}

/**
 * What the guard keeps of each cache from check to check: its judge (portfolio/kept-judge.ts), so a
 * check after a positions sync reads that sync's wallets again, not every wallet's whole history;
 * and the counters of what it read (portfolio/store/inputs.ts) as of the last check that
 * committed, so such a check looks at those wallets' payments alone: a wallet's positions go into
 * that wallet's verdicts only. Anything else moved (a transaction, a mark, the address book, the
 * watched wallets), or nothing at all, and every payment is looked at.
 */
interface GuardState {
  judge: KeptJudge;
  checked: Map<string, WalletInputs> | null;
}
const states = new WeakMap<WritableDB, GuardState>();

/** A check's alerts, and what to call once its transaction has committed (the next check starts from what it saw). */
export interface GuardCheck {
  fired: Alert[];
  committed(): void;
}

export function checkPoisoning(db: WritableDB, at: string, o: { unwritten?: boolean } = {}): GuardCheck {
  try {
    return guard(db, at, o);
  } catch (err) {
    // SQLite's error names no row: the damaged one is found and named.
    if (!(err instanceof GuardDataError) && /malformed JSON/i.test(err instanceof Error ? err.message : '')) {
      const bad = unreadableTransfers(
        db,
        listWallets(db).map((w) => w.address),
      );
      if (bad) throw unreadable(bad);
    }
    throw err;
  }
}

const unreadable = (p: { wallet: string; chain: string; hash: string }) =>
  new GuardDataError(`the cached transaction ${p.hash} of ${p.wallet} on ${p.chain} has a list of transfers that cannot be read`);

function guard(db: WritableDB, at: string, o: { unwritten?: boolean }): GuardCheck {
  let state = states.get(db);
  if (!state) states.set(db, (state = { judge: keptJudge({ whole: true }), checked: null }));
  const judge = state.judge(db, o);
  // In a transaction opened around the check, what it wrote may roll back: every payment, nothing kept.
  const counts = o.unwritten || !db.inTransaction ? inputCountsBySide(db) : null;
  const moved = counts && state.checked ? positionsMoved(state.checked, counts) : null;
  const only = moved?.length ? new Set(moved.map(addressKey)) : null;
  const wallets = listWallets(db).filter((w) => !only || only.has(addressKey(w.address)));
  const labels = new Map(wallets.map((w) => [w.address, w.label]));
  const fired: Alert[] = [];
  // Taken back first: a payment whose lookalike the user vouched for fires nothing below either.
  takeBack(db, judge, at, only);
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
      details: transfers(p.details, p),
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
  return {
    fired,
    committed: () => {
      if (counts) state.checked = counts;
    },
  };
}

/** A cached row's transfers; a list that cannot be read is the cache's fault, named by its transaction. */
function transfers(text: string, p: { wallet: string; chain: string; hash: string }): Detail[] {
  let details: unknown;
  try {
    details = JSON.parse(text);
  } catch {
    details = null;
  }
  if (!Array.isArray(details)) throw unreadable(p);
  return details as Detail[];
}

/**
 * Resolves each open poisoning alert, not acknowledged, whose situation no longer holds, with why;
 * one whose payment is still to an address the judge finds a lookalike stays open.
 */
function takeBack(db: WritableDB, judge: SpamJudge, at: string, only: ReadonlySet<string> | null): void {
  for (const a of openCoreAlerts(db, ADDRESS_POISONING)) {
    if (a.acknowledgedAt !== null || !a.subject.startsWith('poisoning:')) continue;
    const { wallet, chain, txnHash, lookalike } = a.facts;
    if (typeof wallet !== 'string' || typeof chain !== 'string' || typeof txnHash !== 'string' || typeof lookalike !== 'string') continue;
    if (only && !only.has(addressKey(wallet))) continue;
    const why = noLongerHolds(db, judge, { wallet, chain, txnHash, lookalike });
    if (why) resolveAlert(db, a.id, at, why);
  }
}

function noLongerHolds(db: WritableDB, judge: SpamJudge, k: { wallet: string; chain: string; txnHash: string; lookalike: string }): string | null {
  let row: ReturnType<typeof transactionForJudge>;
  try {
    row = transactionForJudge(db, k);
  } catch (err) {
    if (err instanceof SyntaxError) throw unreadable({ wallet: k.wallet, chain: k.chain, hash: k.txnHash });
    throw err;
  }
  if (!row)
    return `Transaction ${k.txnHash} of ${k.wallet} on ${k.chain} is no longer in the cache (its transactions were cleared, or the wallet removed with its data): no payment is left to check.`;
  if (row.status === 0 || !isOutflow(row))
    return `Transaction ${k.txnHash} of ${k.wallet} on ${k.chain} is now cached as ${row.status === 0 ? 'failed' : 'moving nothing out'}: no money left the wallet in it.`;
  const vouched = judge.vouched(k.wallet, k.chain, k.lookalike);
  if (!vouched || judge.poisoning(row)) return null;
  return `No longer a payment to a lookalike: ${vouched}, a counterparty you vouched for (remove that to be warned again).`;
}
