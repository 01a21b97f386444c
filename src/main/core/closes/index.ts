/**
 * The closes capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { closeHandlers, runCloseCheck } from './handlers.ts';
export { closeInForce, getClose as getCloseRecord, importClose, listCloses, reopenClose } from './store/closes.ts';
export { closeBundle, verifyCloseBundle } from './bundle.ts';
export type { BundleCheck } from './bundle.ts';
