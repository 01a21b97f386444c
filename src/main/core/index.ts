/**
 * The core's one face for the shells (the CLI, the web shell, the Electron shell and the
 * `folioscope` launcher): all they may import from src/main/core, held by the lint
 * (`folio/import-boundaries`, eslint/boundaries.js). What a shell asks of the core goes through
 * the contract (`Core.request`/`dispatch`); what is here besides is what a shell needs without an
 * open core or before one opens: starting it, the names of the environment and the keychain, the
 * data folder's files (a damaged or locked cache is dealt with before a core can open it), and the
 * few texts and paths the core writes that a shell shows or serves.
 */

// Starting the core, and what the shells hold of it.
export { createCore } from './app.ts';
export type { Core, CoreOptions, DemoService, DemoStarter, DispatchOptions } from './app.ts';
export { appRoot, defaultDataDir } from './paths.ts';
export { selfCheck } from './self-check.ts';
export type { SelfCheckReport } from './self-check.ts';

// The data folder's service and cache, read before (or without) a core: which service it uses,
// the cache file of a service, and a cache that cannot be opened moved aside (the CLI's
// `cache move-aside`, the desktop app's start-up choice) or found locked.
export { databaseFileFor, encryptionStatus, loadFolderKey, normaliseBaseUrl, readAppConfig, writeAppConfig } from './session/index.ts';
export { CacheProblemError } from './store/db.ts';
export { moveCacheAside } from './store/recovery.ts';

// The access key and the cache key: their environment variables, keychain services and format,
// which the CLI names in its help and checks before a core is started for a key that cannot be.
export {
  CACHE_KEY_SERVICE,
  ENV_BASE_URL,
  ENV_KEY,
  KEYCHAIN_SERVICE,
  MAX_KEY_LENGTH,
  MIN_KEY_LENGTH,
  PASSPHRASE_ENV,
  Secrets,
  systemKeychain,
} from './secrets/index.ts';
export type { Keychain } from './secrets/index.ts';

// Texts the app shows and the CLI prints in the same words, and where an export the web shell
// serves was written.
export { describeCondition } from './alerts/index.ts';
export { describeCadence } from './schedule/index.ts';
export { downloadPath, writeAtomically } from './reports/index.ts';

// A closed period's auditor's bundle checked from the file alone: no core, no cache, no network
// (the CLI's `verify-bundle`, run by an auditor on a machine that has never seen the books).
export { verifyCloseBundle } from './closes/index.ts';
export type { BundleCheck } from './closes/index.ts';

// The people of a team server (docs/team.md): the names, limits and refusal the team server and
// the CLI's `users` need beside `Core.people`.
export {
  ABSOLUTE_LIMIT_MS,
  cappedRole,
  IDLE_LIMIT_MS,
  LOCK_WINDOW_MS,
  MAX_SESSIONS_PER_PERSON,
  MAX_TOKENS_PER_PERSON,
  MIN_PASSWORD_LENGTH,
  NAME_FAILURES,
  PeopleError,
  TooManyTokensError,
} from './people/index.ts';
export type { OidcLink, OidcSignIn, People, Person, SignedIn, SignIn } from './people/index.ts';

// A team server's replica of its books (docs/team.md, "The desktop on a team server"): its
// manifest, and the check a desktop makes of a downloaded one before it keeps it.
export { ReplicaRefusedError, verifyReplica } from './store/replica-files.ts';
export { ownerOnlyFolder, writeSmallFile } from './store/small-file.ts';
export type { ReplicaManifest } from './store/replica-files.ts';
export type { ReplicaOf } from './session/index.ts';
