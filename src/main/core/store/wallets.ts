import type { ReadableDB, WritableDB } from './db.ts';
import { normaliseAddress, normaliseChains, ValidationError } from './validation.ts';
import { addressKey } from './address-key.ts';
import type { WalletChanges, WalletInput } from '../../../shared/contract.ts';
import type { Wallet } from '../../../shared/model.ts';
import { unsafeCharsProblem } from '../../../shared/text-safety.ts';
import { deleteKeysOfWallet } from './hash-levels.ts';

interface WalletRow {
  address: string;
  label: string;
  tags: string;
  chains: string;
  created_at: string;
}

const fromRow = (r: WalletRow): Wallet => ({
  address: r.address,
  label: r.label,
  tags: JSON.parse(r.tags) as string[],
  chains: JSON.parse(r.chains) as string[],
  createdAt: r.created_at,
});

function cleanLabel(label: string | undefined): string {
  const l = (label ?? '').trim();
  if (l.length > 80) throw new ValidationError('label', 'The label is too long (at most 80 characters).');
  // Controls and direction overrides could hide or reorder the text shown beside a label.
  const problem = unsafeCharsProblem(l);
  if (problem) throw new ValidationError('label', `The label ${problem}.`);
  return l;
}

function cleanTags(tags: readonly string[] | undefined): string[] {
  const out = [...new Set((tags ?? []).map((t) => t.trim()).filter(Boolean))];
  for (const t of out) {
    const problem = unsafeCharsProblem(t);
    if (problem) throw new ValidationError('tags', `A tag ${problem}.`);
    if (t.length > 32) throw new ValidationError('tags', `The tag "${t.slice(0, 12)}…" is too long (at most 32 characters).`);
  }
  return out;
}

export function addWallet(db: WritableDB, input: WalletInput, now = new Date()): Wallet {
  const chains = normaliseChains(input.chains);
  const address = normaliseAddress(input.address, chains);
  const wallet: Wallet = { address, label: cleanLabel(input.label), tags: cleanTags(input.tags), chains, createdAt: now.toISOString() };
  const existing = getWallet(db, address);
  if (existing) throw new ValidationError('address', `${address} is already watched${existing.label ? ` as "${existing.label}"` : ''}.`);
  db.prepare('INSERT INTO wallets (address, label, tags, chains, created_at) VALUES (?, ?, ?, ?, ?)').run(
    wallet.address,
    wallet.label,
    JSON.stringify(wallet.tags),
    JSON.stringify(wallet.chains),
    wallet.createdAt,
  );
  return wallet;
}

export function updateWallet(db: WritableDB, address: string, changes: WalletChanges): Wallet {
  const current = getWallet(db, address);
  if (!current) throw new ValidationError('address', `${address} is not a watched wallet.`);
  const chains = changes.chains ? normaliseChains(changes.chains) : current.chains;
  // The address is re-checked against the new chains, canonical form included: a mixed-case
  // 0x address kept as-is for a non-EVM chain would be sent and matched wrongly on an EVM one.
  const canonical = normaliseAddress(current.address, chains);
  if (canonical !== current.address) {
    throw new ValidationError('chains', `On ${chains.join(', ')} this address is written ${canonical}; remove the wallet and add it again on these chains.`);
  }
  const next: Wallet = {
    ...current,
    label: changes.label !== undefined ? cleanLabel(changes.label) : current.label,
    tags: changes.tags !== undefined ? cleanTags(changes.tags) : current.tags,
    chains,
  };
  db.prepare('UPDATE wallets SET label = ?, tags = ?, chains = ? WHERE address = ?').run(
    next.label,
    JSON.stringify(next.tags),
    JSON.stringify(next.chains),
    current.address,
  );
  return next;
}

/**
 * Stops watching a wallet. Its cached history stays (re-adding it brings it back) unless
 * `purge` asks to delete it too, in the same transaction.
 */
export function removeWallet(db: WritableDB, address: string, options: { purge?: boolean } = {}): boolean {
  const wallet = getWallet(db, address);
  if (!wallet) return false;
  db.transaction(() => {
    db.prepare('DELETE FROM wallets WHERE address = ?').run(wallet.address);
    if (options.purge) {
      db.prepare('DELETE FROM snapshots WHERE wallet = ?').run(wallet.address);
      deleteKeysOfWallet(db, wallet.address); // while the rows still say whose they are
      db.prepare('DELETE FROM transactions WHERE wallet = ?').run(wallet.address);
      db.prepare('DELETE FROM txn_sync_ranges WHERE wallet = ?').run(wallet.address);
      db.prepare('DELETE FROM transaction_symbols WHERE wallet = ?').run(wallet.address);
      db.prepare('DELETE FROM transaction_write_stamps WHERE wallet = ?').run(wallet.address);
      // Ids above the new largest one will be given again (rowids are not AUTOINCREMENT): a
      // daily-sum watermark above it would take those new rows as summed, so it is dropped
      // (rebuilt on next use; see store/queries/transfer-days.ts).
      db.prepare('DELETE FROM transfer_days_state WHERE built_to_id > (SELECT coalesce(max(id), 0) FROM transactions)').run();
    }
  })();
  return true;
}

export function getWallet(db: ReadableDB, address: string): Wallet | null {
  // As written, else (an EVM address in another case) its lower-case stored form. Never
  // lower(?) for any address: a Solana address differing only in case is another wallet,
  // and removing or grouping it must not reach this one.
  const get = db.prepare('SELECT * FROM wallets WHERE address = ?');
  const row = (get.get(address) ?? (addressKey(address) !== address ? get.get(addressKey(address)) : undefined)) as WalletRow | undefined;
  return row ? fromRow(row) : null;
}

export function listWallets(db: ReadableDB): Wallet[] {
  return (db.prepare('SELECT * FROM wallets ORDER BY created_at, address').all() as WalletRow[]).map(fromRow);
}
