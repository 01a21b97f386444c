/**
 * The annotations capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { applyRulesToAll, applyRulesToNew } from './apply.ts';
export { annotationHandlers } from './handlers.ts';
export {
  cleanConditions,
  cleanNote,
  getAnnotation,
  listAnnotations,
  listCategories,
  listRules,
  saveCategory,
  saveRule,
  setAnnotation,
  storedKey,
} from './store/annotations.ts';
export type { CategoryInput, RuleInput, TxnKey } from './store/annotations.ts';
