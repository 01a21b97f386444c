/**
 * The secrets capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export {
  CACHE_KEY_SERVICE,
  changeUnderWay,
  PASSPHRASE_ENV,
  configAfterChange,
  folderKey,
  newFolderKey,
  previousKeyOf,
  readEncryptionConfig,
  removeConfigLeftovers,
  removeEncryptionConfig,
  sealKey,
  waitsForPassphrase,
  writeEncryptionConfig,
  WrongPassphraseError,
} from './cache-key.ts';
export type { EncryptionConfig, KeySources, ScryptCost } from './cache-key.ts';
export { checkKey } from './key-check.ts';
export { KEYCHAIN_SERVICE, systemKeychain } from './keychain.ts';
export type { Keychain } from './keychain.ts';
export { ENV_BASE_URL, ENV_KEY, MAX_KEY_LENGTH, MIN_KEY_LENGTH, Secrets } from './secrets.ts';
