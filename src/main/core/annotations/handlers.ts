/**
 * The operations of notes, categories and category rules (issue 28, item 2; the `annotations`
 * capability, docs/ARCHITECTURE.md). Every edit is recorded in the audit trail by the store, in
 * the transaction that makes it; saving, removing or reordering a rule applies every rule again
 * in that same transaction, so the categories shown never disagree with the rules listed.
 */
import type { Handlers, ScopeContext } from '../handlers.ts';
import type { WritableDB } from '../store/handles.ts';
import {
  getAnnotation,
  listAnnotations,
  listCategories,
  listRules,
  removeCategory,
  removeRule,
  reorderRules,
  saveCategory,
  saveRule,
  setAnnotation,
  storedKey,
  type StoredRule,
  type TxnKey,
} from './store/annotations.ts';
import type { Category, CategoryRule, TxnAnnotation } from '../../../shared/model.ts';
import { checkVersion, lastEdit, versionsOf } from '../store/versions.ts';
import type { ReadableDB } from '../store/handles.ts';
import { applyRulesToAll, previewRule } from './apply.ts';
import type { CounterpartyNamer } from './rules.ts';

type AnnotationOperations =
  | 'notes.get'
  | 'notes.set'
  | 'notes.orphans'
  | 'categories.list'
  | 'categories.save'
  | 'categories.remove'
  | 'rules.list'
  | 'rules.save'
  | 'rules.remove'
  | 'rules.reorder'
  | 'rules.preview'
  | 'rules.apply';

export interface AnnotationContext extends ScopeContext {
  /** The cache to write (the profile's, which changes when the user switches service). */
  writable(): WritableDB;
  /** Says that notes, categories or rules changed (the timeline reloads its rows). */
  changed(): void;
  /** Names of counterparties, once the address book gives them (rules' name conditions). */
  namer?: (() => CounterpartyNamer | undefined) | undefined;
}

/** A rule as the contract gives it (the category's row id stays inside the core). */
const shown = ({ categoryId: _id, ...rule }: StoredRule): CategoryRule => rule;

const shortHash = (h: string): string => (h.length > 14 ? `${h.slice(0, 8)}…${h.slice(-4)}` : h);

/** A note's key in the audit trail (annotations.ts `setAnnotation`). */
const noteItem = (k: TxnKey): string => `${k.wallet}|${k.chain}|${k.txnHash}`;

const withNoteVersion = (db: ReadableDB, a: TxnAnnotation | null): TxnAnnotation | null =>
  a && { ...a, version: lastEdit(db, 'note', noteItem(storedKey(a))).version };

const withCategoryVersion = <C extends Category>(db: ReadableDB, x: C): C => ({ ...x, version: lastEdit(db, 'category', x.name).version });

/** Refuses an edit of a category or a rule changed since the editor loaded `expected` (store/versions.ts). */
function checkCategory(db: ReadableDB, id: number, expected: number | undefined): void {
  if (expected === undefined) return;
  const now = listCategories(db).find((x) => x.id === id);
  // A category removed since: saving says there is no such category, removing removes nothing.
  if (!now) return;
  checkVersion(db, 'category', now.name, now.name, expected);
}

function checkRule(db: ReadableDB, id: number, expected: number | undefined): void {
  if (expected === undefined) return;
  const now = listRules(db).find((r) => r.id === id);
  checkVersion(db, 'rule', String(id), now?.name || `#${id}`, expected);
}

export function annotationHandlers(c: AnnotationContext): Pick<Handlers, AnnotationOperations> {
  const namer = () => c.namer?.();
  const edit = <T>(fn: (db: WritableDB) => T): T => {
    const result = fn(c.writable());
    c.changed();
    return result;
  };
  /** A rule edit and the rules applied again, as one transaction. */
  const ruleEdit = <T>(fn: (db: WritableDB) => T) =>
    edit((db) => db.transaction(() => ({ result: fn(db), applied: applyRulesToAll(db, { namer: namer() }) }))());
  return {
    'notes.get': (key) => withNoteVersion(c.db(), getAnnotation(c.db(), key)),
    'notes.set': ({ note, category, expectedVersion, ...key }) =>
      edit((db) =>
        // The check and the edit in one transaction, so nobody's edit lands between them.
        db
          .transaction(() => {
            const k = storedKey({ ...key, wallet: c.wallet(key.wallet).address });
            const current = getAnnotation(db, k);
            const has = current !== null && (current.note !== null || current.manualCategory !== null);
            // Named by its hash shortened, as the screens show it: the message must fit a drawer.
            checkVersion(db, 'note', noteItem(k), shortHash(k.txnHash), expectedVersion, has);
            return withNoteVersion(db, setAnnotation(db, k, { note, category }));
          })
          .immediate(),
      ),
    'notes.orphans': () => listAnnotations(c.db(), { orphanedOnly: true }),
    'categories.list': () => {
      const db = c.db();
      return listCategories(db).map((x) => withCategoryVersion(db, x));
    },
    'categories.save': ({ expectedVersion, ...input }) =>
      edit((db) =>
        db
          .transaction(() => {
            if (input.id !== undefined) checkCategory(db, input.id, expectedVersion);
            return withCategoryVersion(db, saveCategory(db, input));
          })
          .immediate(),
      ),
    'categories.remove': ({ id, expectedVersion }) =>
      edit((db) =>
        db
          .transaction(() => {
            checkCategory(db, id, expectedVersion);
            return removeCategory(db, id);
          })
          .immediate(),
      ),
    'rules.list': () => {
      const db = c.db();
      const versions = versionsOf(db, 'rule');
      return listRules(db).map((r) => ({ ...shown(r), version: versions.get(String(r.id)) ?? 0 }));
    },
    'rules.save': ({ expectedVersion, ...input }) => {
      const { result, applied } = ruleEdit((db) => {
        if (input.id !== undefined) checkRule(db, input.id, expectedVersion);
        return saveRule(db, input);
      });
      return { rule: { ...shown(result), version: lastEdit(c.db(), 'rule', String(result.id)).version }, applied };
    },
    'rules.remove': ({ id, expectedVersion }) => {
      const { result, applied } = ruleEdit((db) => {
        checkRule(db, id, expectedVersion);
        return removeRule(db, id);
      });
      return { removed: result, applied };
    },
    'rules.reorder': ({ ids }) => {
      const { result, applied } = ruleEdit((db) => reorderRules(db, ids));
      return { rules: result.map(shown), applied };
    },
    'rules.preview': ({ conditions, wallet, group }) => {
      const members = c.scopeOf(wallet, group);
      return previewRule(c.db(), conditions, { wallets: members, namer: namer() });
    },
    'rules.apply': () => edit((db) => applyRulesToAll(db, { namer: namer() })),
  };
}
