/**
 * `spam.explain`: one token or one transaction judged as every reader judges it (the same
 * `spamJudge`), with the verdict's reasons and what the judge did not know.
 */
import type { SpamExplanation } from '../../../shared/spam.ts';
import { transactionForJudge } from '../ledger/index.ts';
import { heldTokens, latestSnapshot } from '../positions/index.ts';
import type { ReadableDB } from '../store/handles.ts';
import { ValidationError } from '../store/validation.ts';
import { key } from './judge.ts';
import { spamJudge } from './reader.ts';

export function explainTransaction(db: ReadableDB, q: { wallet: string; chain: string; txnHash: string }): SpamExplanation {
  const row = transactionForJudge(db, { wallet: q.wallet, chain: q.chain, txnHash: q.txnHash.toLowerCase() });
  if (!row)
    throw new ValidationError('txnHash', `${q.txnHash.slice(0, 80)} is not a cached transaction of ${q.wallet} on ${q.chain}: sync its transactions first.`);
  const judge = spamJudge(db, { wallets: [q.wallet] });
  const { poisoning, lookalike, ...verdict } = judge.transaction(row);
  return {
    subject: { kind: 'transaction', wallet: q.wallet, chain: q.chain, txnHash: row.txnHash },
    verdict,
    poisoning,
    lookalike,
    notes: judge.notes(q.wallet),
  };
}

/**
 * A token of a wallet: at `date` (that day's views) when given, else at the newest day its
 * positions hold it, else by what its history says (a token only ever received).
 */
export function explainToken(db: ReadableDB, q: { wallet: string; chain: string; cid: string; date?: string | undefined }): SpamExplanation {
  const cid = key(q.cid);
  const held = heldTokens(db, q.wallet).find((t) => t.chain === q.chain && key(t.cid) === cid) ?? null;
  const date = q.date ?? held?.last ?? null;
  const notes: string[] = [];
  if (date && !latestSnapshot(db, 'positionsByUnderlying', q.wallet, q.chain, date))
    notes.push(`The positions of ${date} are not cached: the token is judged by the wallet's history.`);
  else if (date && !latestSnapshot(db, 'liquidityAnalysis', q.wallet, q.chain, date))
    notes.push(`The liquidity view of ${date} is not cached: whether the token has a market is not known.`);
  const judge = spamJudge(db, { wallets: [q.wallet] });
  const verdict = judge.token(q.wallet, q.chain, { cid, symbol: held?.symbol ?? null, name: held?.name ?? null }, date ?? undefined);
  return {
    subject: { kind: 'token', wallet: q.wallet, chain: q.chain, cid, symbol: held?.symbol ?? null, name: held?.name ?? null, date },
    verdict,
    poisoning: null,
    lookalike: null,
    notes: [...notes, ...judge.notes(q.wallet)],
  };
}
