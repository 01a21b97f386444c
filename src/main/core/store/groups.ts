/** Wallet groups (migration 005): named sets of watched wallets. */
import type { ReadableDB, WritableDB } from './db.ts';
import { all, get, run, sql } from './sql.ts';
import { refusal } from './validation.ts';
import { getWallet } from './wallets.ts';
import { recordEdit } from './audit.ts';
import { unsafeChars, visibleText } from '../../../shared/text-safety.ts';
import type { GroupInput } from '../../../shared/contract.ts';
import type { WalletGroup } from '../../../shared/model.ts';

export function listGroups(db: ReadableDB): WalletGroup[] {
  const groups = all<{ id: number; name: string }>(db, sql`SELECT id, name FROM wallet_groups ORDER BY name COLLATE NOCASE`);
  const members = all<{ g: number; wallet: string }>(db, sql`SELECT group_id AS g, wallet FROM wallet_group_members ORDER BY wallet`);
  return groups.map((g) => ({ ...g, wallets: members.filter((m) => m.g === g.id).map((m) => m.wallet) }));
}

export function getGroup(db: ReadableDB, id: number): WalletGroup {
  const g = listGroups(db).find((x) => x.id === id);
  if (!g) throw refusal('group', 'group.missing', { id });
  return g;
}

export function saveGroup(db: WritableDB, input: GroupInput, now = new Date()): WalletGroup {
  const name = input.name.trim();
  if (!name) throw refusal('name', 'group.noName', {});
  // The contract refuses these already; kept here too, as for labels, since the name reaches PDFs and terminals.
  const unsafe = unsafeChars(name);
  if (unsafe) throw refusal('name', 'text.unsafe', { field: 'groupName', ...unsafe });
  // Each member as the wallets table has it (getWallet: an EVM address in any case, any other
  // exactly as watched), so a case-sensitive address such as Solana's joins as it is.
  const found = input.wallets.map((w) => ({ asked: w, wallet: getWallet(db, w) }));
  const unknown = found.filter((f) => !f.wallet).map((f) => visibleText(f.asked));
  if (unknown.length) throw refusal('wallets', 'group.notWatched', { addresses: unknown.join(', ') });
  const wallets = [...new Set(found.map((f) => f.wallet!.address))];
  const clash = get<{ id: number }>(db, sql`SELECT id FROM wallet_groups WHERE name = ${name} COLLATE NOCASE`);
  if (clash && clash.id !== input.id) throw refusal('name', 'group.exists', { name });
  const before = input.id === undefined ? null : (listGroups(db).find((g) => g.id === input.id) ?? null);
  const saved = db
    .transaction(() => {
      let gid = input.id;
      if (gid === undefined) gid = Number(run(db, sql`INSERT INTO wallet_groups (name, created_at) VALUES (${name}, ${now.toISOString()})`).lastInsertRowid);
      else if (run(db, sql`UPDATE wallet_groups SET name = ${name} WHERE id = ${gid}`).changes === 0) throw refusal('group', 'group.missing', { id: gid });
      run(db, sql`DELETE FROM wallet_group_members WHERE group_id = ${gid}`);
      for (const w of wallets) run(db, sql`INSERT INTO wallet_group_members (group_id, wallet) VALUES (${gid}, ${w})`);
      const after = getGroup(db, gid);
      // Keyed by id (a rename keeps it); the name is in before/after for a reader.
      recordEdit(db, { entity: 'group', key: String(gid), action: before ? 'update' : 'create', before, after });
      return after;
    })
    .immediate();
  return saved;
}

export function removeGroup(db: WritableDB, id: number): boolean {
  return db.transaction(() => {
    const before = listGroups(db).find((g) => g.id === id);
    if (!before) return false;
    run(db, sql`DELETE FROM wallet_groups WHERE id = ${id}`);
    recordEdit(db, { entity: 'group', key: String(id), action: 'delete', before, after: null });
    return true;
  })();
}
