/**
 * The analytics capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { exposureOf } from './exposure.ts';
export { lendingRiskOf, memberOrder, unlocksOf } from './risk.ts';
export { healthHistory } from './store/health.ts';
export { checkPeriod, flowWindow, reconcile, reconcileTrace } from './store/reconcile.ts';
export { analyticsHandlers } from './handlers.ts';
