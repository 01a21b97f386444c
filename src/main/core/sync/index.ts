/**
 * The sync capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { SyncEngine } from './engine.ts';
export { walletCacheSummaries } from './store/status.ts';
export { syncHandlers } from './handlers.ts';
export { clearCache } from './clear.ts';
