/**
 * Watched wallets as CSV (docs/wallet-import.md; issue 40, item 1): reading a file, row by row,
 * into what an import would write, and writing the wallets in the form reading takes back.
 *
 * Three layouts are read, told apart by their header:
 * - Folioscope's `address,label,chains,tags,groups` (address required, columns in any order;
 *   `;` between chains, tags and groups);
 * - Safe's address book export `address,name,chainId`: one row per address and chain, the rows
 *   of one address joined;
 * - Folioscope's address book export (`address,name,tags,ours,chains,note`): its "ours" entries
 *   are the user's own wallets; the others are skipped, said so row by row.
 * An address may carry an EIP-3770 prefix (`eth:0x…`), which adds that chain. A wallet needs a
 * chain: a row that names none is an error, except an address-book entry kept on every chain,
 * which is watched on every chain of the app's list (Settings).
 *
 * All or nothing: the plan says each row's outcome; it is applicable only with no error and (unless
 * `replace`) no conflict, and then applying writes every row in one transaction.
 */
import type { Wallet, WalletGroup, WalletImportPreview, WalletImportRow } from '../../../shared/model.ts';
import { csvLine, csvList as list, chainOrRefuse, parseCsvRecords, readOurs, unneutralise } from '../counterparties/index.ts';
import { normaliseAddress, normaliseChains, refusal, ValidationError } from '../store/validation.ts';
import { coded } from '../../../shared/core-codes.ts';

export const WALLET_CSV_COLUMNS = ['address', 'label', 'chains', 'tags', 'groups'] as const;
const SAFE_COLUMNS = ['address', 'name', 'chainid'];
const BOOK_COLUMNS = ['address', 'name', 'tags', 'ours', 'chains', 'note'];
/** Rows one file may hold: a fund administrator's thousand wallets on a few chains each, with room. */
export const MAX_WALLET_ROWS = 20_000;

/** What applying the plan writes: wallets to add or change, and the groups each joins. */
export interface WalletImportPlan {
  preview: WalletImportPreview;
  add: Array<Pick<Wallet, 'address' | 'label' | 'tags' | 'chains'>>;
  update: Array<Pick<Wallet, 'address' | 'label' | 'tags' | 'chains'>>;
  /** Group name → the addresses the file puts in it (added to its members, never removing one). */
  groups: Map<string, string[]>;
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * What importing `text` beside the watched `wallets` and `groups` would do, row by row; `known`:
 * the app's chain ids. Nothing is written.
 */
export function planWalletImport(
  text: string,
  wallets: readonly Wallet[],
  groups: readonly WalletGroup[],
  known: readonly string[],
  options: { replace?: boolean } = {},
): WalletImportPlan {
  const replace = options.replace ?? false;
  const records = parseCsvRecords(text);
  if (!records.length) throw refusal('file', 'import.empty', {});
  if (records.length - 1 > MAX_WALLET_ROWS) throw refusal('file', 'import.tooMany', { rows: records.length - 1, max: MAX_WALLET_ROWS });
  const header = records[0]!.fields.map((h) => h.trim().toLowerCase());
  const format: WalletImportPreview['format'] = header.includes('chainid') ? 'safe' : header.includes('ours') ? 'address-book' : 'folioscope';
  const allowed: readonly string[] = format === 'safe' ? SAFE_COLUMNS : format === 'address-book' ? BOOK_COLUMNS : WALLET_CSV_COLUMNS;
  const unknown = header.filter((h) => !allowed.includes(h));
  if (unknown.length || !header.includes('address') || new Set(header).size !== header.length)
    throw refusal('file', 'import.badHeader', { columns: WALLET_CSV_COLUMNS.join(','), unknown: unknown.slice(0, 5).join(', ') });
  const col = (fields: string[], name: string) => {
    const k = header.indexOf(name);
    return k < 0 ? undefined : unneutralise(fields[k] ?? '');
  };
  const chainOf = (name: string, numeric: boolean) => chainOrRefuse(name, known, numeric);
  const watched = new Map(wallets.map((w) => [w.address, w]));
  const rows: WalletImportRow[] = [];
  // The file's wallets by address, and the row that first named each.
  const seen = new Map<string, { row: WalletImportRow; label: string; chains: Set<string>; tags: string[] | null; stated: boolean; groups: Set<string> }>();
  for (const { line, fields } of records.slice(1)) {
    const raw = (col(fields, 'address') ?? '').trim();
    const label = (col(fields, format === 'folioscope' ? 'label' : 'name') ?? '').trim();
    const row: WalletImportRow = { row: line, address: raw, label, chains: [], groups: [], outcome: 'error', problem: null };
    rows.push(row);
    try {
      if (fields.length !== header.length) throw refusal('row', 'row.fields', { fields: fields.length, header: header.length });
      if (format === 'address-book' && !readOurs(col(fields, 'ours'))) {
        row.outcome = 'skipped';
        said(row, coded('row.notOurs', {}));
        continue;
      }
      let address = raw;
      const chains: string[] = [];
      // EIP-3770: short name, a colon, the address.
      const colon = address.indexOf(':');
      if (colon > 0) {
        chains.push(chainOf(address.slice(0, colon), false));
        address = address.slice(colon + 1);
      }
      const stated = format !== 'safe' && list(col(fields, 'chains')).length > 0;
      if (format === 'safe') {
        const id = (col(fields, 'chainid') ?? '').trim();
        if (id) chains.push(chainOf(id, true));
      } else for (const c of list(col(fields, 'chains'))) chains.push(chainOf(c, true));
      // An address-book entry on every chain: the wallet is watched on every chain the app knows.
      if (!chains.length && format === 'address-book') chains.push(...known);
      if (!chains.length) throw refusal('chains', 'row.noChain', {});
      const clean = normaliseChains(chains);
      address = normaliseAddress(address, clean);
      row.address = address;
      const tags = format === 'safe' ? null : list(col(fields, 'tags'));
      const groups = format === 'folioscope' ? list(col(fields, 'groups')) : [];
      const earlier = seen.get(address);
      if (earlier) {
        if (earlier.label !== label) {
          row.outcome = 'conflict';
          said(row, coded('row.labelledBefore', { line: earlier.row.row, label: earlier.label }));
          continue;
        }
        // Safe writes one row per chain: one wallet, the chains joined.
        for (const c of clean) earlier.chains.add(c);
        for (const g of groups) earlier.groups.add(g);
        if (tags) earlier.tags = [...new Set([...(earlier.tags ?? []), ...tags])];
        earlier.stated ||= stated;
        row.chains = clean;
        row.outcome = 'merged';
        said(row, coded('row.joined', { line: earlier.row.row }));
        continue;
      }
      seen.set(address, { row, label, chains: new Set(clean), tags: tags && tags.length ? tags : null, stated, groups: new Set(groups) });
      row.outcome = 'add';
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      row.outcome = 'error';
      row.problem = err.message.replace(/^./, (c) => c.toLowerCase());
      if (err.said) row.problemSaid = err.said;
    }
  }
  const add: WalletImportPlan['add'] = [];
  const update: WalletImportPlan['update'] = [];
  const groupsOut = new Map<string, string[]>();
  const members = new Map(groups.map((g) => [g.name.toLowerCase(), new Set(g.wallets)]));
  for (const [address, s] of seen) {
    const current = watched.get(address);
    // A prefix or Safe's row per chain says the wallet is on that chain, not on it alone: only a
    // chains column states a watched wallet's chains whole.
    const chains = current && !s.stated ? [...new Set([...current.chains, ...s.chains])] : [...s.chains];
    const next = { address, label: s.label || current?.label || '', tags: s.tags ?? current?.tags ?? [], chains };
    s.row.chains = chains;
    s.row.groups = [...s.groups];
    const joins = [...s.groups].filter((g) => !members.get(g.toLowerCase())?.has(address));
    if (current && s.label && current.label && current.label !== s.label && !replace) {
      s.row.outcome = 'conflict';
      said(s.row, coded('row.watchedAs', { label: current.label }));
      continue;
    }
    if (!current) {
      s.row.outcome = 'add';
      add.push(next);
    } else if (next.label !== current.label || !same(next.tags, current.tags) || !same([...next.chains].sort(), [...current.chains].sort())) {
      s.row.outcome = 'update';
      update.push(next);
    } else s.row.outcome = joins.length ? 'update' : 'same';
    for (const g of joins) {
      const key = [...groupsOut.keys()].find((k) => k.toLowerCase() === g.toLowerCase()) ?? g;
      groupsOut.set(key, [...(groupsOut.get(key) ?? []), address]);
    }
  }
  const counts: WalletImportPreview['counts'] = { add: 0, update: 0, same: 0, merged: 0, skipped: 0, conflict: 0, error: 0 };
  for (const r of rows) counts[r.outcome]++;
  const applicable = counts.error === 0 && counts.conflict === 0;
  return { preview: { format, rows, counts, replace, applicable, applied: false }, add, update, groups: groupsOut };
}

/** The watched wallets as CSV, in the columns import reads, with a byte-order mark as the reports have. */
export function walletsCsv(wallets: readonly Wallet[], groups: readonly WalletGroup[]): string {
  let out = '\ufeff' + csvLine([...WALLET_CSV_COLUMNS]);
  for (const w of wallets) {
    const of = groups.filter((g) => g.wallets.includes(w.address)).map((g) => g.name);
    out += csvLine([w.address, w.label, w.chains.join(';'), w.tags.join(';'), of.join(';')]);
  }
  return out;
}

/** A row's problem: its English, and its code and values for a screen in another language. */
function said(row: WalletImportRow, c: ReturnType<typeof coded>): void {
  row.problem = c.message;
  row.problemSaid = c.said;
}
