/**
 * Notes, categories and category rules (migration 18; issue 28, "the books", item 2): the SQL of
 * the `annotations` capability. What a rule matches is decided in core/annotations/rules.ts; the
 * transactions a rule needs are the ledger's to read (ledger/store/rule-inputs.ts); this module
 * writes what the rules chose.
 *
 * A transaction's annotation is keyed by (wallet, chain, txn_hash) as `transactions` stores them,
 * never by `transactions.id` (which a restated row that leaves and returns does not keep), so a
 * note outlives its transaction leaving the cache (orphaned, still listed). Every user edit is
 * recorded in the audit trail inside the transaction that makes it; a rule setting a category is
 * not a user edit and records nothing (saving, removing or reordering the rule does).
 */
import { actionTypeKey } from '../../../../shared/display-names.ts';
import type { Category, CategoryKind, CategoryRule, RuleConditions, TxnAnnotation } from '../../../../shared/model.ts';
import { unsafeChars } from '../../../../shared/text-safety.ts';
import type { ReadableDB, WritableDB } from '../../store/handles.ts';
import { recordEdit } from '../../store/audit.ts';
import { addressKey } from '../../store/address-key.ts';
import { all, get, run, sql, value, prepare } from '../../store/sql.ts';
import { refusal } from '../../store/validation.ts';
import { cachedKeys, historyReach, isCached, type TxnKey } from '../../ledger/index.ts';

export type { TxnKey };

/** The longest note, in characters: a paragraph of why money moved, not a document. */
export const NOTE_MAX = 2000;
export const CATEGORY_NAME_MAX = 64;
export const RULE_NAME_MAX = 100;

// ---------------------------------------------------------------------------------------------
// Categories

/** The categories in the user's order, with how many transactions each holds (manual or by a rule). */
export function listCategories(db: ReadableDB): Category[] {
  // The columns are the model's members, by name: the rows are the categories as they are.
  return all<Category>(
    db,
    sql`SELECT c.id, c.name, c.colour, c.kind, c.position,
          (SELECT count(*) FROM txn_annotations a WHERE coalesce(a.manual_category, a.rule_category) = c.id) AS used
        FROM categories c ORDER BY c.position, c.id`,
  );
}

export function getCategory(db: ReadableDB, id: number): Category | null {
  return listCategories(db).find((c) => c.id === id) ?? null;
}

/** A category by its name (any case), or a ValidationError naming `field`. */
export function categoryNamed(db: ReadableDB, name: string, field = 'category'): { id: number; name: string } {
  const row = get<{ id: number; name: string }>(db, sql`SELECT id, name FROM categories WHERE name = ${name.trim()}`);
  if (!row) throw refusal(field, 'category.missing', { name: name.trim() });
  return row;
}

const COLOUR = /^#[0-9a-f]{6}$/;
const KINDS: readonly CategoryKind[] = ['inflow', 'outflow', 'internal', 'any'];

export interface CategoryInput {
  id?: number | undefined;
  name: string;
  colour?: string | null | undefined;
  kind?: CategoryKind | undefined;
}

function cleanCategoryName(name: string): string {
  const n = name.trim();
  if (!n) throw refusal('name', 'category.noName', {});
  if (n.length > CATEGORY_NAME_MAX) throw refusal('name', 'text.tooLong', { field: 'categoryName', max: CATEGORY_NAME_MAX });
  const unsafe = unsafeChars(n);
  if (unsafe) throw refusal('name', 'text.unsafe', { field: 'categoryName', ...unsafe });
  return n;
}

const asItem = (c: Category) => ({ name: c.name, colour: c.colour, kind: c.kind, position: c.position });

/** Creates (no id) or changes a category; a name another category has (in any case) is refused. */
export function saveCategory(db: WritableDB, input: CategoryInput, now = new Date()): Category {
  const name = cleanCategoryName(input.name);
  const colour = input.colour ? input.colour.toLowerCase() : null;
  if (colour !== null && !COLOUR.test(colour)) throw refusal('colour', 'category.colour', {});
  if (input.kind !== undefined && !KINDS.includes(input.kind)) throw refusal('kind', 'category.kind', { kinds: KINDS.join(', ') });
  return db.transaction(() => {
    const clash = get<{ id: number }>(db, sql`SELECT id FROM categories WHERE name = ${name}`);
    if (clash && clash.id !== input.id) throw refusal('name', 'category.exists', { name });
    if (input.id === undefined) {
      const position = (value<number>(db, sql`SELECT coalesce(max(position), 0) FROM categories`) ?? 0) + 1;
      const id = Number(
        run(
          db,
          sql`INSERT INTO categories (name, colour, kind, position, created_at) VALUES (${name}, ${colour}, ${input.kind ?? 'any'}, ${position}, ${now.toISOString()})`,
        ).lastInsertRowid,
      );
      const made = getCategory(db, id)!;
      recordEdit(db, { entity: 'category', key: name, action: 'create', before: null, after: asItem(made) }, now);
      return made;
    }
    const before = getCategory(db, input.id);
    if (!before) throw refusal('id', 'category.missingId', { id: input.id });
    run(
      db,
      sql`UPDATE categories SET name = ${name}, colour = ${input.colour === undefined ? before.colour : colour}, kind = ${input.kind ?? before.kind}
          WHERE id = ${input.id}`,
    );
    const after = getCategory(db, input.id)!;
    recordEdit(db, { entity: 'category', key: before.name, action: 'update', before: asItem(before), after: asItem(after) }, now);
    return after;
  })();
}

/**
 * Removes a category. Refused while a rule sets it (the rule would have nothing to set); the
 * transactions filed under it by hand become uncategorised (the rules decide for them again at the
 * next application), and the count is in the audit record.
 */
export function removeCategory(db: WritableDB, id: number, now = new Date()): { removed: boolean; uncategorised: number } {
  return db.transaction(() => {
    const before = getCategory(db, id);
    if (!before) return { removed: false, uncategorised: 0 };
    const rules = all<{ name: string }>(db, sql`SELECT name FROM category_rules WHERE category_id = ${id} ORDER BY position`);
    if (rules.length) {
      throw refusal('id', 'category.inUse', { name: before.name, count: rules.length, rules: rules.map((r) => r.name).join(', ') });
    }
    run(db, sql`DELETE FROM categories WHERE id = ${id}`);
    deleteEmptyAnnotations(db);
    recordEdit(db, { entity: 'category', key: before.name, action: 'delete', before: { ...asItem(before), transactions: before.used }, after: null }, now);
    return { removed: true, uncategorised: before.used };
  })();
}

// ---------------------------------------------------------------------------------------------
// Rules

interface RuleRow {
  id: number;
  position: number;
  name: string;
  category: string;
  category_id: number;
  conditions: string;
  created_at: string;
}

export type StoredRule = CategoryRule & { categoryId: number };

const ruleOf = (r: RuleRow): StoredRule => ({
  id: r.id,
  position: r.position,
  name: r.name,
  category: r.category,
  categoryId: r.category_id,
  conditions: JSON.parse(r.conditions) as RuleConditions,
  createdAt: r.created_at,
});

/** The rules in the order they are tried (the first that matches wins). */
export function listRules(db: ReadableDB): StoredRule[] {
  return all<RuleRow>(db, sql`SELECT r.*, c.name AS category FROM category_rules r JOIN categories c ON c.id = r.category_id ORDER BY r.position, r.id`).map(
    ruleOf,
  );
}

const ruleItem = (r: StoredRule) => ({ name: r.name, category: r.category, position: r.position, conditions: r.conditions });

export interface RuleInput {
  id?: number | undefined;
  name?: string | undefined;
  category: string;
  conditions: RuleConditions;
  /** 1-based place in the order; a new rule goes last when omitted. */
  position?: number | undefined;
}

/** Conditions as stored: addresses in their stored form, methods in lower case, empty lists left out. */
export function cleanConditions(c: RuleConditions): RuleConditions {
  const out: RuleConditions = {};
  const list = (v: string[] | undefined, f: (s: string) => string = (s) => s.trim()) => {
    const l = [...new Set((v ?? []).map(f).filter(Boolean))];
    return l.length ? l : undefined;
  };
  // An address written 0x… is an EVM one (no other chain's addresses start so): one that is not
  // whole could never match, so it is refused, as the address book refuses it.
  const address = (field: string) => (a: string) => {
    const t = a.trim();
    if (/^0x/i.test(t) && !/^0x[0-9a-fA-F]{40}$/.test(t)) throw refusal(field, 'rules.notEvm', { value: t.slice(0, 50) });
    return addressKey(t);
  };
  const counterparties = list(c.counterparties, address('counterparties'));
  if (counterparties) out.counterparties = counterparties;
  const names = list(c.counterpartyNames);
  if (names) out.counterpartyNames = names;
  if (c.direction) out.direction = c.direction;
  // Stored by key (swap, add_liquidity), whichever way it was written ("Swap", "Add liquidity").
  const actionTypes = list(c.actionTypes, actionTypeKey);
  if (actionTypes) out.actionTypes = actionTypes;
  const methods = list(c.methods, (m) => m.trim().toLowerCase());
  if (methods) out.methods = methods;
  if (c.token?.trim()) out.token = c.token.trim();
  if (c.minAmount !== undefined) out.minAmount = c.minAmount;
  if (c.maxAmount !== undefined) out.maxAmount = c.maxAmount;
  const chains = list(c.chains);
  if (chains) out.chains = chains;
  if (c.status) out.status = c.status;
  const wallets = list(c.wallets, address('wallets'));
  if (wallets) out.wallets = wallets;
  // `status: any` alone would file every transaction as no condition would.
  if (!Object.keys(out).some((k) => k !== 'status' || out.status !== 'any')) throw refusal('conditions', 'rules.noCondition', {});
  if ((out.minAmount !== undefined || out.maxAmount !== undefined) && !out.token) throw refusal('token', 'rules.amountToken', {});
  if (out.minAmount !== undefined && out.maxAmount !== undefined && out.minAmount > out.maxAmount) throw refusal('maxAmount', 'rules.amountOrder', {});
  for (const n of out.counterpartyNames ?? []) {
    const unsafe = unsafeChars(n);
    if (unsafe) throw refusal('counterpartyNames', 'text.unsafe', { field: 'counterpartyName', ...unsafe });
  }
  return out;
}

function renumber(db: WritableDB, ids: readonly number[]): void {
  ids.forEach((id, i) => run(db, sql`UPDATE category_rules SET position = ${i + 1} WHERE id = ${id}`));
}

/** Creates (no id) or replaces a rule, at its position; recorded in the audit trail. Call inside a transaction with the re-application. */
export function saveRule(db: WritableDB, input: RuleInput, now = new Date()): StoredRule {
  const conditions = cleanConditions(input.conditions);
  const category = categoryNamed(db, input.category);
  const name = (input.name ?? '').trim() || `${category.name} rule`;
  if (name.length > RULE_NAME_MAX) throw refusal('name', 'text.tooLong', { field: 'ruleName', max: RULE_NAME_MAX });
  const unsafe = unsafeChars(name);
  if (unsafe) throw refusal('name', 'text.unsafe', { field: 'ruleName', ...unsafe });
  const rules = listRules(db);
  const before = input.id === undefined ? null : (rules.find((r) => r.id === input.id) ?? null);
  if (input.id !== undefined && !before) throw refusal('id', 'rules.missing', { id: input.id });
  let id: number;
  if (before) {
    id = before.id;
    run(db, sql`UPDATE category_rules SET name = ${name}, category_id = ${category.id}, conditions = ${JSON.stringify(conditions)} WHERE id = ${id}`);
  } else {
    id = Number(
      run(
        db,
        sql`INSERT INTO category_rules (position, name, category_id, conditions, created_at)
            VALUES (${rules.length + 1}, ${name}, ${category.id}, ${JSON.stringify(conditions)}, ${now.toISOString()})`,
      ).lastInsertRowid,
    );
  }
  const order = rules.map((r) => r.id).filter((r) => r !== id);
  const at = input.position === undefined ? (before ? before.position - 1 : order.length) : Math.min(Math.max(input.position - 1, 0), order.length);
  order.splice(at, 0, id);
  renumber(db, order);
  const after = listRules(db).find((r) => r.id === id)!;
  recordEdit(db, { entity: 'rule', key: String(id), action: before ? 'update' : 'create', before: before && ruleItem(before), after: ruleItem(after) }, now);
  return after;
}

/** Removes a rule (the categories it set are re-decided by the caller's re-application). */
export function removeRule(db: WritableDB, id: number, now = new Date()): boolean {
  const rules = listRules(db);
  const before = rules.find((r) => r.id === id);
  if (!before) return false;
  run(db, sql`DELETE FROM category_rules WHERE id = ${id}`);
  renumber(
    db,
    rules.filter((r) => r.id !== id).map((r) => r.id),
  );
  recordEdit(db, { entity: 'rule', key: String(id), action: 'delete', before: ruleItem(before), after: null }, now);
  return true;
}

/** Puts the rules in this order: every rule's id exactly once. Each rule whose place changed is one audit record. */
export function reorderRules(db: WritableDB, ids: readonly number[], now = new Date()): StoredRule[] {
  const rules = listRules(db);
  const known = new Set(rules.map((r) => r.id));
  if (ids.length !== rules.length || new Set(ids).size !== ids.length || !ids.every((id) => known.has(id))) throw refusal('ids', 'rules.order', {});
  renumber(db, ids);
  const after = listRules(db);
  for (const r of after) {
    const b = rules.find((x) => x.id === r.id)!;
    if (b.position !== r.position) recordEdit(db, { entity: 'rule', key: String(r.id), action: 'update', before: ruleItem(b), after: ruleItem(r) }, now);
  }
  return after;
}

// ---------------------------------------------------------------------------------------------
// Notes and a transaction's category

interface AnnotationRow {
  wallet: string;
  chain: string;
  txn_hash: string;
  note: string | null;
  manual: string | null;
  rule: string | null;
  rule_id: number | null;
}

const ANNOTATION = sql`SELECT a.wallet, a.chain, a.txn_hash, a.note, m.name AS manual, r.name AS rule, a.rule_id
  FROM txn_annotations a LEFT JOIN categories m ON m.id = a.manual_category LEFT JOIN categories r ON r.id = a.rule_category`;

/** An annotation as the contract gives it; `cached`: whether its transaction is (the ledger's word). */
const annotationOf = (r: AnnotationRow, cached: boolean): TxnAnnotation => ({
  wallet: r.wallet,
  chain: r.chain,
  txnHash: r.txn_hash,
  note: r.note,
  category: r.manual ?? r.rule,
  source: r.manual ? 'manual' : r.rule ? 'rule' : null,
  manualCategory: r.manual,
  ruleCategory: r.rule,
  ruleId: r.rule_id,
  orphaned: !cached,
});

/** A key as `transactions` stores it: the wallet's stored form, the hash as sent. */
export function storedKey(k: TxnKey): TxnKey {
  return { wallet: addressKey(k.wallet.trim()), chain: k.chain.trim(), txnHash: k.txnHash.trim() };
}

export function getAnnotation(db: ReadableDB, key: TxnKey): TxnAnnotation | null {
  const k = storedKey(key);
  const row = get<AnnotationRow>(db, sql`${ANNOTATION} WHERE a.wallet = ${k.wallet} AND a.chain = ${k.chain} AND a.txn_hash = ${k.txnHash}`);
  return row ? annotationOf(row, isCached(db, k)) : null;
}

/** Every note and manual category, oldest key first (the user's data file carries them). */
export function listAnnotations(db: ReadableDB, options: { orphanedOnly?: boolean } = {}): TxnAnnotation[] {
  const rows = all<AnnotationRow>(db, sql`${ANNOTATION} WHERE (a.note IS NOT NULL OR a.manual_category IS NOT NULL) ORDER BY a.wallet, a.chain, a.txn_hash`);
  const cached = cachedKeys(
    db,
    rows.map((r) => ({ wallet: r.wallet, chain: r.chain, txnHash: r.txn_hash })),
  );
  return rows.map((r) => annotationOf(r, cached.has(`${r.wallet}|${r.chain}|${r.txn_hash}`))).filter((a) => !options.orphanedOnly || a.orphaned);
}

/** The user's part of an annotation, as the audit trail and the data file keep it. */
const userPart = (a: TxnAnnotation | null) => (a && (a.note !== null || a.manualCategory !== null) ? { note: a.note, category: a.manualCategory } : null);

export function cleanNote(note: string): string | null {
  const n = note.replace(/\r\n?/g, '\n').trim();
  if (n.length > NOTE_MAX) throw refusal('note', 'text.tooLong', { field: 'note', max: NOTE_MAX });
  // Line breaks are kept (a note may be a few lines); every other control or direction mark is refused.
  const unsafe = unsafeChars(n.replace(/\n/g, ' '));
  if (unsafe) throw refusal('note', 'text.unsafe', { field: 'note', ...unsafe });
  return n || null;
}

/**
 * Sets a transaction's note and/or manual category: `undefined` leaves it, `null` (or '') clears
 * it. Clearing the manual category lets the rules' show again. The transaction must be cached
 * unless `allowOrphan` (an import of a note whose transaction left the cache). One audit record.
 */
export function setAnnotation(
  db: WritableDB,
  key: TxnKey,
  change: { note?: string | null | undefined; category?: string | null | undefined },
  options: { allowOrphan?: boolean; now?: Date } = {},
): TxnAnnotation | null {
  const k = storedKey(key);
  const now = options.now ?? new Date();
  const note = change.note === undefined ? undefined : change.note === null ? null : cleanNote(change.note);
  return db.transaction(() => {
    const category =
      change.category === undefined ? undefined : change.category === null || !change.category.trim() ? null : categoryNamed(db, change.category).id;
    if (!options.allowOrphan) {
      if (!isCached(db, k)) throw refusal('txnHash', 'txn.notCached', { hash: k.txnHash, wallet: k.wallet, chain: k.chain });
    }
    const before = getAnnotation(db, k);
    run(
      db,
      sql`INSERT INTO txn_annotations (wallet, chain, txn_hash, note, manual_category, updated_at)
          VALUES (${k.wallet}, ${k.chain}, ${k.txnHash}, ${note ?? null}, ${category ?? null}, ${now.toISOString()})
          ON CONFLICT (wallet, chain, txn_hash) DO UPDATE SET
            note = ${note === undefined ? sql`note` : sql`${note}`},
            manual_category = ${category === undefined ? sql`manual_category` : sql`${category}`},
            updated_at = excluded.updated_at`,
    );
    deleteEmptyAnnotations(db, k);
    const after = getAnnotation(db, k);
    const b = userPart(before);
    const a = userPart(after);
    if (JSON.stringify(b) !== JSON.stringify(a))
      recordEdit(
        db,
        { entity: 'note', key: `${k.wallet}|${k.chain}|${k.txnHash}`, action: !b ? 'create' : !a ? 'delete' : 'update', before: b, after: a },
        now,
      );
    return after;
  })();
}

/** Annotations left with nothing in them (no note, no category of either kind), one key's or all. */
function deleteEmptyAnnotations(db: WritableDB, k?: TxnKey): number {
  const empty = sql`note IS NULL AND manual_category IS NULL AND rule_category IS NULL`;
  return k
    ? run(db, sql`DELETE FROM txn_annotations WHERE wallet = ${k.wallet} AND chain = ${k.chain} AND txn_hash = ${k.txnHash} AND ${empty}`).changes
    : run(db, sql`DELETE FROM txn_annotations WHERE ${empty}`).changes;
}

// ---------------------------------------------------------------------------------------------
// What the rules read and write

export interface RuleState {
  toTxnId: number;
  toChangeId: number;
  maxTxnId: number;
  maxChangeId: number;
}

/** How far the rules were applied, and how far the cache goes. */
export function ruleState(db: ReadableDB): RuleState {
  const applied = get<{ toTxnId: number; toChangeId: number }>(
    db,
    sql`SELECT s.rules_to_txn_id AS toTxnId, s.rules_to_change_id AS toChangeId FROM annotation_state s WHERE s.id = 1`,
  )!;
  return { ...applied, ...historyReach(db) };
}

export function setRuleState(db: WritableDB, toTxnId: number, toChangeId: number): void {
  run(db, sql`UPDATE annotation_state SET rules_to_txn_id = ${toTxnId}, rules_to_change_id = ${toChangeId} WHERE id = 1`);
}

/** Every rule-made category cleared (before the rules are applied to every transaction again); manual ones untouched. */
export function clearRuleCategories(db: WritableDB): void {
  run(db, sql`UPDATE txn_annotations SET rule_category = NULL, rule_id = NULL WHERE rule_category IS NOT NULL`);
}

/**
 * What the rules chose for these transactions: a category (and the rule) for those matched, none
 * for the others (a rule-made category they had is cleared). Notes and manual categories stay.
 */
export function writeRuleCategories(db: WritableDB, chosen: ReadonlyArray<{ txn: TxnKey; rule: StoredRule | null }>, now = new Date()): void {
  const at = now.toISOString();
  const upsert = prepare(
    db,
    `INSERT INTO txn_annotations (wallet, chain, txn_hash, rule_category, rule_id, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (wallet, chain, txn_hash) DO UPDATE SET rule_category = excluded.rule_category, rule_id = excluded.rule_id
     WHERE rule_category IS NOT excluded.rule_category OR rule_id IS NOT excluded.rule_id`,
  );
  const clear = prepare(
    db,
    'UPDATE txn_annotations SET rule_category = NULL, rule_id = NULL WHERE wallet = ? AND chain = ? AND txn_hash = ? AND rule_category IS NOT NULL',
  );
  // In key order: each write lands next to the last one in the table's B-tree (in time order
  // they landed on random pages, and writing ~80,000 took three times as long).
  const ordered = [...chosen].sort((a, b) => compareKeys(a.txn, b.txn));
  for (const { txn, rule } of ordered) {
    if (rule) upsert.run(txn.wallet, txn.chain, txn.txnHash, rule.categoryId, rule.id, at);
    else clear.run(txn.wallet, txn.chain, txn.txnHash);
  }
}

/** (wallet, chain, hash) in the table's order (SQLite's BINARY: by UTF-8 bytes, which for these ASCII keys is by code unit). */
function compareKeys(a: TxnKey, b: TxnKey): number {
  return a.wallet < b.wallet
    ? -1
    : a.wallet > b.wallet
      ? 1
      : a.chain < b.chain
        ? -1
        : a.chain > b.chain
          ? 1
          : a.txnHash < b.txnHash
            ? -1
            : a.txnHash > b.txnHash
              ? 1
              : 0;
}

/** Annotations emptied by a re-application go (a row with nothing in it says nothing). */
export function dropEmptyAnnotations(db: WritableDB): number {
  return deleteEmptyAnnotations(db);
}

/** The watched wallets' stored addresses (a transfer between two of them is internal). */
export function watchedAddresses(db: ReadableDB): Set<string> {
  return new Set(all<{ address: string }>(db, sql`SELECT address FROM wallets`).map((w) => addressKey(w.address)));
}
