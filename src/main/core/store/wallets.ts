import type { ReadableDB, WritableDB } from './db.ts';
import { normaliseAddress, normaliseChains, refusal } from './validation.ts';
import { addressKey } from './address-key.ts';
import type { WalletChanges, WalletInput } from '../../../shared/contract.ts';
import type { Wallet } from '../../../shared/model.ts';
import { unsafeChars } from '../../../shared/text-safety.ts';
import { all, get, run, sql } from './sql.ts';
import { recordEdit } from './audit.ts';

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
  if (l.length > 80) throw refusal('label', 'text.tooLong', { field: 'label', max: 80 });
  // Controls and direction overrides could hide or reorder the text shown beside a label.
  const unsafe = unsafeChars(l);
  if (unsafe) throw refusal('label', 'text.unsafe', { field: 'label', ...unsafe });
  return l;
}

function cleanTags(tags: readonly string[] | undefined): string[] {
  const out = [...new Set((tags ?? []).map((t) => t.trim()).filter(Boolean))];
  for (const t of out) {
    const unsafe = unsafeChars(t);
    if (unsafe) throw refusal('tags', 'text.unsafe', { field: 'tag', ...unsafe });
    if (t.length > 32) throw refusal('tags', 'tag.tooLong', { tag: t.slice(0, 12), max: 32 });
  }
  return out;
}

export function addWallet(db: WritableDB, input: WalletInput, now = new Date()): Wallet {
  const chains = normaliseChains(input.chains);
  const address = normaliseAddress(input.address, chains);
  const wallet: Wallet = { address, label: cleanLabel(input.label), tags: cleanTags(input.tags), chains, createdAt: now.toISOString() };
  const existing = getWallet(db, address);
  if (existing) throw refusal('address', 'wallet.watched', { address, label: existing.label });
  db.transaction(() => {
    run(
      db,
      sql`INSERT INTO wallets (address, label, tags, chains, created_at)
          VALUES (${wallet.address}, ${wallet.label}, ${JSON.stringify(wallet.tags)}, ${JSON.stringify(wallet.chains)}, ${wallet.createdAt})`,
    );
    recordEdit(db, { entity: 'wallet', key: wallet.address, action: 'create', before: null, after: wallet });
  })();
  return wallet;
}

export function updateWallet(db: WritableDB, address: string, changes: WalletChanges): Wallet {
  const current = getWallet(db, address);
  if (!current) throw refusal('address', 'wallet.notWatched', { address });
  const chains = changes.chains ? normaliseChains(changes.chains) : current.chains;
  // The address is re-checked against the new chains, canonical form included: a mixed-case
  // 0x address kept as-is for a non-EVM chain would be sent and matched wrongly on an EVM one.
  const canonical = normaliseAddress(current.address, chains);
  if (canonical !== current.address) {
    throw refusal('chains', 'wallet.rewritten', { chains: chains.join(', '), address: canonical });
  }
  const next: Wallet = {
    ...current,
    label: changes.label !== undefined ? cleanLabel(changes.label) : current.label,
    tags: changes.tags !== undefined ? cleanTags(changes.tags) : current.tags,
    chains,
  };
  db.transaction(() => {
    run(
      db,
      sql`UPDATE wallets SET label = ${next.label}, tags = ${JSON.stringify(next.tags)}, chains = ${JSON.stringify(next.chains)} WHERE address = ${current.address}`,
    );
    recordEdit(db, { entity: 'wallet', key: current.address, action: 'update', before: current, after: next });
  })();
  return next;
}

/**
 * Stops watching a wallet. Its cached history stays (re-adding it brings it back) unless `purge`
 * is given: it deletes what the wallet's owners cached (wallets/remove.ts gives it, as the
 * snapshots and the history are theirs), in the same transaction.
 */
export function removeWallet(db: WritableDB, address: string, options: { purge?: ((address: string) => void) | undefined } = {}): boolean {
  const wallet = getWallet(db, address);
  if (!wallet) return false;
  db.transaction(() => {
    run(db, sql`DELETE FROM wallets WHERE address = ${wallet.address}`);
    recordEdit(db, { entity: 'wallet', key: wallet.address, action: 'delete', before: { ...wallet, ...(options.purge && { purged: true }) }, after: null });
    options.purge?.(wallet.address);
  })();
  return true;
}

export function getWallet(db: ReadableDB, address: string): Wallet | null {
  // As written, else (an EVM address in another case) its lower-case stored form. Never
  // lower(?) for any address: a Solana address differing only in case is another wallet,
  // and removing or grouping it must not reach this one.
  const byAddress = (a: string) => get<WalletRow>(db, sql`SELECT * FROM wallets WHERE address = ${a}`);
  const row = byAddress(address) ?? (addressKey(address) !== address ? byAddress(addressKey(address)) : undefined);
  return row ? fromRow(row) : null;
}

export function listWallets(db: ReadableDB): Wallet[] {
  return all<WalletRow>(db, sql`SELECT * FROM wallets ORDER BY created_at, address`).map(fromRow);
}
