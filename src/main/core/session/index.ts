/**
 * The session capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { sessionHandlers } from './handlers.ts';
export { databaseFileFor, normaliseBaseUrl, readAppConfig, writeAppConfig } from './profile.ts';
// For the shells, through core/index.ts: `cache status` and `cache move-aside` read the folder without a core.
export { encryptionStatus, loadFolderKey } from './encryption.ts';
export type { DemoService, DemoStarter, Profile, ReplicaOf } from './profile.ts';
export { Session } from './session.ts';
export type { CacheUser, SessionOptions } from './session.ts';
