import { type Keychain, KeychainUnavailableError } from './keychain.ts';
import { refusal } from '../store/validation.ts';
import type { KeyStatus } from '../../../shared/model.ts';

export const ENV_KEY = 'FOLIOSCOPE_ACCESS_KEY';
export const ENV_BASE_URL = 'FOLIOSCOPE_BASE_URL';

/**
 * The shortest access key Folioscope accepts. Every text the service sends is scrubbed of the
 * key; a key this short could stand for anything (a word, a piece of a hash or an address)
 * and would be scrubbed out of real data, so it is refused where it enters: Settings,
 * `key set`, FOLIOSCOPE_ACCESS_KEY, and a key kept in the keychain before this rule.
 */
export const MIN_KEY_LENGTH = 12;
/** The longest key taken (printable ASCII: its redaction pattern compiles at any length up to about 2,000). */
export const MAX_KEY_LENGTH = 1024;

export interface SecretsOptions {
  /**
   * The service the environment's key was given for: the base URL passed at start-up (the
   * command line's --base-url, else FOLIOSCOPE_BASE_URL). Defaults to FOLIOSCOPE_BASE_URL.
   * The environment key is sent to this service only, never to one connected to later.
   */
  envKeyBaseUrl?: string | null;
}

export class Secrets {
  private readonly session = new Map<string, string>();
  private keychainProblem: string | null = null;
  private readonly envAccount: string | null;

  constructor(
    private readonly keychain: Keychain,
    private readonly env: Record<string, string | undefined> = process.env,
    options: SecretsOptions = {},
  ) {
    const bound = options.envKeyBaseUrl !== undefined ? options.envKeyBaseUrl : (env[ENV_BASE_URL] ?? null);
    this.envAccount = bound ? accountOf(bound) : null;
  }

  private account(baseUrl: string): string {
    return new URL(baseUrl).origin + new URL(baseUrl).pathname.replace(/\/+$/, '');
  }

  /** The environment's key, when `baseUrl` is the service it was given for. */
  private envKeyFor(baseUrl: string): string | null {
    const fromEnv = this.env[ENV_KEY];
    if (!fromEnv || this.envAccount === null) return null;
    return accountOf(baseUrl) === this.envAccount ? fromEnv : null;
  }

  /**
   * The key for a base URL, for the service client only. A key that breaks the format rules
   * (FOLIOSCOPE_ACCESS_KEY, or a keychain entry from before them) is never sent: the request
   * fails saying what to do.
   */
  async get(baseUrl: string): Promise<string | null> {
    const fromEnv = this.envKeyFor(baseUrl);
    if (fromEnv) return Secrets.checkFormat(fromEnv, ENV_KEY);
    const account = this.account(baseUrl);
    const inSession = this.session.get(account);
    if (inSession) return inSession;
    try {
      const key = await this.keychain.get(account);
      this.keychainProblem = null;
      return key === null ? null : Secrets.checkFormat(key, 'The access key kept in the keychain for this service');
    } catch (err) {
      if (err instanceof KeychainUnavailableError) {
        this.keychainProblem = err.message;
        return null;
      }
      throw err;
    }
  }

  /**
   * Stores a key in the keychain. With `sessionOnly` (the user's choice when the keychain
   * is unavailable) it is kept in memory until the app quits.
   */
  async set(baseUrl: string, key: string, options: { sessionOnly?: boolean } = {}): Promise<KeyStatus> {
    const clean = Secrets.checkFormat(key);
    const account = this.account(baseUrl);
    if (options.sessionOnly) {
      this.session.set(account, clean);
    } else {
      await this.keychain.set(account, clean);
      this.session.delete(account);
      this.keychainProblem = null;
    }
    return this.status(baseUrl);
  }

  /** The key as it will be kept (trimmed), or an error saying what is wrong with it (`what`: where it came from). */
  static checkFormat(key: string, what = 'The access key'): string {
    const clean = key.trim();
    if (!clean) throw refusal('key', 'key.empty', { what });
    if (/\s/.test(clean)) throw refusal('key', 'key.spaces', { what });
    // Printable ASCII, and not too long: every spelling of such a key a service may echo is
    // matched by one expression (service/redact.ts) that always compiles. Longer keys made that
    // expression too large to compile, and the compiler's error spelled the key out.
    if (!/^[\x21-\x7e]+$/.test(clean)) throw refusal('key', 'key.notAscii', { what });
    if (clean.length > MAX_KEY_LENGTH) throw refusal('key', 'key.tooLong', { what, length: clean.length, max: MAX_KEY_LENGTH });
    // Counted in characters as a person counts them (an emoji is one).
    if ([...clean].length < MIN_KEY_LENGTH) throw refusal('key', 'key.tooShort', { what, min: MIN_KEY_LENGTH });
    return clean;
  }

  async clear(baseUrl: string): Promise<KeyStatus> {
    const account = this.account(baseUrl);
    this.session.delete(account);
    try {
      await this.keychain.delete(account);
      this.keychainProblem = null;
    } catch (err) {
      if (!(err instanceof KeychainUnavailableError)) throw err;
      this.keychainProblem = err.message;
    }
    return this.status(baseUrl);
  }

  async status(baseUrl: string): Promise<KeyStatus> {
    const account = this.account(baseUrl);
    if (this.envKeyFor(baseUrl))
      return { set: true, source: 'environment', keychainAvailable: this.keychainProblem === null, keychainProblem: this.keychainProblem };
    if (this.session.has(account)) return { set: true, source: 'session', ...(await this.probe(account)) };
    const probe = await this.probe(account);
    return { set: probe.found, source: probe.found ? 'keychain' : 'none', keychainAvailable: probe.keychainAvailable, keychainProblem: probe.keychainProblem };
  }

  private async probe(account: string): Promise<{ found: boolean; keychainAvailable: boolean; keychainProblem: string | null }> {
    try {
      const found = (await this.keychain.get(account)) !== null;
      this.keychainProblem = null;
      return { found, keychainAvailable: true, keychainProblem: null };
    } catch (err) {
      if (!(err instanceof KeychainUnavailableError)) throw err;
      this.keychainProblem = err.message;
      return { found: false, keychainAvailable: false, keychainProblem: err.message };
    }
  }
}

/** Origin and path of a base URL without trailing slashes; null when it is not a URL. */
function accountOf(baseUrl: string): string | null {
  try {
    const u = new URL(baseUrl);
    return u.origin + u.pathname.replace(/\/+$/, '');
  } catch {
    return null;
  }
}
