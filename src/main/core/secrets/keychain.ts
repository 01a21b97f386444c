/**
 * The OS keychain through keytar (macOS Keychain, Windows Credential Vault, the Secret
 * Service on Linux): one entry per base URL under the app's service name. keytar is
 * loaded lazily, so a machine where it cannot load still starts (and says why).
 */

import { createRequire } from 'node:module';

export const KEYCHAIN_SERVICE = 'Folioscope';

export interface Keychain {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
  /** The accounts that hold a secret (never the secrets), where the keychain can list them. */
  accounts?(): Promise<string[]>;
}

export interface KeychainOptions {
  /**
   * For the CLI: each command is its own process, so a key kept "for this session only" would
   * be gone when the command ends. Its messages offer what a CLI user can do instead.
   */
  cli?: boolean;
  /**
   * What the keychain is asked to keep: the service's access key (the default, which the app may
   * keep in memory until it quits instead), or a data folder's cache key, which every start needs
   * (issue 39): its messages offer a passphrase instead, and never a key kept in memory.
   */
  holds?: 'access-key' | 'cache-key';
}

export class KeychainUnavailableError extends Error {
  constructor(detail: string, options: KeychainOptions = {}) {
    const secretService =
      process.platform === 'linux' ? 'Install and unlock a Secret Service (GNOME Keyring: apt install gnome-keyring, or KWallet)' : 'Unlock your keychain';
    super(
      `The system keychain is not available (${detail}). ` +
        (options.holds === 'cache-key'
          ? // Never "for this session only" (issue 39): the cache key opens the cache at every start, so none can be kept for less.
            `A random cache key must be kept there: every start needs it to open the cache. ${secretService}, then encrypt again; or encrypt with a passphrase instead (Settings → Encryption, or folioscope cache encrypt --passphrase-stdin): every start then asks for it, or reads it from FOLIOSCOPE_CACHE_PASSPHRASE.`
          : options.cli
            ? 'The CLI cannot keep a key without it. For headless runs, give the key in the environment of each run: ' +
              'FOLIOSCOPE_ACCESS_KEY, with FOLIOSCOPE_BASE_URL (or --base-url) naming its service. ' +
              `Or: ${secretService[0]!.toLowerCase()}${secretService.slice(1)}, then run key set again.`
            : `${secretService}, or keep the key for this session only.`),
    );
    this.name = 'KeychainUnavailableError';
  }
}

type Keytar = {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
};

/** Keytar's own errors name D-Bus details; keep the first line, never a secret (it has none). */
function reason(err: unknown): string {
  return String((err as Error)?.message ?? err)
    .split('\n')[0]!
    .slice(0, 200);
}

export function systemKeychain(service = KEYCHAIN_SERVICE, options: KeychainOptions = {}): Keychain {
  let keytar: Keytar | null = null;
  const load = (): Keytar => {
    if (keytar) return keytar;
    try {
      keytar = createRequire(import.meta.url)('keytar') as Keytar;
      return keytar;
    } catch (err) {
      throw new KeychainUnavailableError(`keytar did not load: ${reason(err)}`, options);
    }
  };
  const guard = async <T>(fn: (k: Keytar) => Promise<T>): Promise<T> => {
    const k = load();
    try {
      return await fn(k);
    } catch (err) {
      throw new KeychainUnavailableError(reason(err), options);
    }
  };
  return {
    get: (account) => guard((k) => k.getPassword(service, account)),
    set: (account, secret) => guard((k) => k.setPassword(service, account, secret)),
    delete: (account) => guard((k) => k.deletePassword(service, account)),
    // Keytar hands the secrets too: only the accounts leave here.
    accounts: () => guard(async (k) => (await k.findCredentials(service)).map((c) => c.account)),
  };
}
