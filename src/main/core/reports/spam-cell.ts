import type { ExportTransactionRow, JudgedExportRow } from '../ledger/index.ts';
import { csvCell } from './csv.ts';
import type { SpamJudge, SpamTxnRow } from '../spam/index.ts';

/**
 * The spam cell of one exported transaction (docs/spam.md, "What leaves spam out"): the verdict
 * with its reasons, or the poisoning guard's finding on a payment to a lookalike, as the timeline
 * shows them; empty for a transaction judged genuine. One function for both threads that may
 * judge an export (spam-cells.ts), so the two cannot word a cell differently.
 */
export function spamCell(judge: SpamJudge, r: JudgedExportRow): string {
  const judged = judge.transaction({
    wallet: r[0],
    chain: r[1],
    txnHash: r[2],
    from: r[3],
    to: r[4],
    methodHex: r[5],
    protocolId: r[6],
    status: r[7],
    details: (JSON.parse(r[8] ?? '[]') as SpamTxnRow['details']) ?? [],
  });
  return judged.spam
    ? csvCell(`spam (${judged.decidedBy}): ${judged.reasons.map((x) => x.text).join(' ')}`)
    : judged.poisoning
      ? csvCell(`payment to a lookalike: ${judged.poisoning.lookalike} imitates ${judged.poisoning.imitates}`)
      : '';
}

/** What the judge reads of a row of the export itself. */
export const judgedRow = (r: ExportTransactionRow): JudgedExportRow => [r[1], r[2], r[3], r[9], r[11], r[7], r[6], r[8], r[15]];

/** A row's identity (wallet, chain, hash): how the export checks that its judge's thread walks the same rows. */
export const rowIdentity = (wallet: string, chain: string, txnHash: string): string => `${wallet}\n${chain}\n${txnHash}`;
