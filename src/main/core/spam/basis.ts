/**
 * What a closed period's figures owe to spam (docs/closes.md): the user's verdicts that hold for
 * its wallets and the lists the user loaded. Every figure leaves spam out, so a verdict given or
 * a list loaded after a close can move them; a close hashes these (closes/hash.ts, part
 * `spam-verdicts`) and its check says so. A verdict's note and times change no figure: not in it.
 * The shipped list is part of the app, as the rules are.
 */
import { addressKey } from '../store/address-key.ts';
import type { ReadableDB } from '../store/handles.ts';
import { listStoredSpamLists } from './store/lists.ts';
import { listSpamMarks } from './store/verdicts.ts';

export function spamBasis(db: ReadableDB, wallets: readonly string[]): unknown[] {
  const members = new Set(wallets.map(addressKey));
  const verdicts = listSpamMarks(db)
    .filter((m) => m.wallet === null || members.has(addressKey(m.wallet)))
    .map((m) => ({ kind: m.kind, chain: m.chain, target: m.target, wallet: m.wallet, verdict: m.verdict }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  const lists = listStoredSpamLists(db)
    .map((l) => ({ list: l.name, sha256: l.sha256 }))
    .sort((a, b) => a.list.localeCompare(b.list));
  return [...verdicts, ...lists];
}
