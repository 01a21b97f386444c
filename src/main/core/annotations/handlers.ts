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
  type StoredRule,
} from './store/annotations.ts';
import type { CategoryRule } from '../../../shared/model.ts';
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
    'notes.get': (key) => getAnnotation(c.db(), key),
    'notes.set': ({ note, category, ...key }) => edit((db) => setAnnotation(db, { ...key, wallet: c.wallet(key.wallet).address }, { note, category })),
    'notes.orphans': () => listAnnotations(c.db(), { orphanedOnly: true }),
    'categories.list': () => listCategories(c.db()),
    'categories.save': (input) => edit((db) => saveCategory(db, input)),
    'categories.remove': ({ id }) => edit((db) => removeCategory(db, id)),
    'rules.list': () => listRules(c.db()).map(shown),
    'rules.save': (input) => {
      const { result, applied } = ruleEdit((db) => saveRule(db, input));
      return { rule: shown(result), applied };
    },
    'rules.remove': ({ id }) => {
      const { result, applied } = ruleEdit((db) => removeRule(db, id));
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
