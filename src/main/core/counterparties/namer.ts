/**
 * Names for addresses, wherever one is shown (timeline, detail, reconcile trace, CSV, PDF, the
 * monthly pack): a watched wallet is a counterparty by itself (ours, its label), an address-book
 * entry names an address on its chains (none listed: every chain) and wins over a wallet's label
 * when both exist. Read once per use: a page, a report or a pack asks for thousands of names.
 */
import type { CounterpartyName, TransactionParties } from '../../../shared/model.ts';
import { addressKey } from '../store/address-key.ts';
import { listCounterparties } from './store/counterparties.ts';
import type { ReadableDB } from '../store/handles.ts';
import { listWallets } from '../store/wallets.ts';

export type CounterpartyNamer = (address: string | null, chain: string) => CounterpartyName | null;

export function counterpartyNamer(db: ReadableDB): CounterpartyNamer {
  const wallets = new Map(listWallets(db).map((w) => [w.address, w]));
  const book = new Map(listCounterparties(db).map((c) => [c.address, c]));
  return (address, chain) => {
    if (!address) return null;
    const key = addressKey(address);
    const entry = book.get(key);
    const wallet = wallets.get(key);
    if (entry && (!entry.chains.length || entry.chains.includes(chain))) return { name: entry.name, ours: entry.ours || wallet !== undefined, kind: 'book' };
    if (wallet) return { name: wallet.label || shortAddress(wallet.address), ours: true, kind: 'wallet' };
    return null;
  };
}

/** A wallet with no label is named by its address's ends, as the app's lists show it. */
function shortAddress(a: string): string {
  return a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a;
}

/**
 * What the other side of a transaction is to the wallet: `internal` when both ends are ours (a
 * watched wallet, or an entry marked ours), `book` when the other end has a name, `unknown`
 * when it has none. `outflowToUnknown`: the wallet sent to an address nobody named, the control
 * flag an auditor asks about.
 */
export function counterpartyKind(
  namer: CounterpartyNamer,
  row: { wallet: string; chain: string; from: string | null; to: string | null },
): { kind: 'internal' | 'book' | 'unknown'; other: string | null } {
  const wallet = addressKey(row.wallet);
  const from = row.from ? addressKey(row.from) : null;
  const to = row.to ? addressKey(row.to) : null;
  // The other end: the one that is not the wallet itself (from when it received).
  const other = from === wallet ? to : to === wallet ? from : (to ?? from);
  if (!other || other === wallet) return { kind: other ? 'internal' : 'unknown', other };
  const n = namer(other, row.chain);
  if (n?.ours) return { kind: 'internal', other };
  return { kind: n ? 'book' : 'unknown', other };
}

/**
 * Both ends of a transaction by name, and what the other end is (the timeline's rows, the
 * reconcile trace). `toUnknown` is the control flag: the wallet itself sent tokens out in a plain
 * transfer (no protocol: a swap or a deposit goes to the protocol's contract, which the protocol
 * names) to an address nobody named and not ours.
 */
export function partiesOf(
  namer: CounterpartyNamer,
  row: { wallet: string; chain: string; from: string | null; to: string | null; protocolId?: string | null; details?: ReadonlyArray<{ type: string | null }> },
): TransactionParties {
  const { kind } = counterpartyKind(namer, row);
  const wallet = addressKey(row.wallet);
  const sent = row.from !== null && addressKey(row.from) === wallet && row.to !== null && addressKey(row.to) !== wallet;
  const plainTransferOut = (row.protocolId == null || row.protocolId === 'wallet') && (row.details ?? []).some((d) => d.type === 'out');
  return { from: namer(row.from, row.chain), to: namer(row.to, row.chain), kind, toUnknown: sent && plainTransferOut && kind === 'unknown' };
}
