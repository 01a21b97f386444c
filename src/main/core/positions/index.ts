/**
 * The positions capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { diffDates } from './store/diff.ts';
export { latestSnapshots, latestSnapshotsOf, nearestPositionDates, snapshotData, SnapshotGone } from './store/latest.ts';
export type { LatestRow } from './store/latest.ts';
export { navHistory, navHistorySteps, navWallets } from './store/nav.ts';
export { cachedDates, clearSnapshots, latestSnapshot, purgeWalletSnapshots, rawSnapshot } from './store/snapshots.ts';
export { datesBetween, plannedUnits, qualityCompleteness, runUnits, syncPositionsUnit } from './sync.ts';
export type { QualityTally } from './sync.ts';
export { positionHandlers } from './handlers.ts';
export { basisSnapshots } from './store/basis.ts';
export type { BasisSnapshot } from './store/basis.ts';
export { newestPositionDates, underlyingDatesBetween } from './store/dates.ts';
export { hasPositionActivity, positionsFreshness, positionsFreshnessOf } from './store/freshness.ts';
export { heldTokens, snapshotTokensAt } from './store/tokens.ts';
export type { HeldToken, SnapshotToken } from './store/tokens.ts';
