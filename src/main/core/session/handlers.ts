/**
 * The operations of the session: what the app is connected to (a service and its key, or demo
 * mode), the settings, the cache as a whole (clear it, encrypt or decrypt the data folder), and
 * opening an explorer link.
 */
import { allowedExternalUrl } from '../../../shared/explorers.ts';
import type { AppInfo } from '../../../shared/contract.ts';
import type { ConversionCount, ConversionProgress } from '../../../shared/model.ts';
import type { Handlers } from '../handlers.ts';
import { checkKey, type Keychain, Secrets } from '../secrets/index.ts';
import { setPersonalDisplay, settingsFor } from '../people/index.ts';
import { DEFAULT_SETTINGS, getSettings, updateSettings, type Settings } from '../store/settings.ts';
import { settingsVersion } from '../store/versions.ts';
import { listWallets } from '../store/wallets.ts';
import { refusal, ValidationError } from '../store/validation.ts';
import { clearCache } from '../sync/index.ts';
import { checkFolderPassphrase, decryptFolder, encryptFolder, encryptionStatus, rekeyFolder } from './encryption.ts';
import { normaliseBaseUrl } from './profile.ts';
import type { Session } from './session.ts';

export interface SessionContext {
  session: Session;
  version: string;
  shell: AppInfo['shell'];
  /** A team server's core: closes are prepared, then approved by another person (app.info says so to the screens). */
  team: boolean;
  /** Opens an allowed external URL (the Electron shell passes shell.openExternal). */
  openExternal?: ((url: string) => Promise<void>) | undefined;
  changed(change: 'settings.edited' | 'positions.cleared' | 'transactions.cleared'): void;
  /** How far a conversion of the folder is (the `cache.converting` event). */
  converting(progress: ConversionProgress): void;
}

type SessionOperations =
  | 'app.info'
  | 'app.connect'
  | 'app.useDemo'
  | 'settings.get'
  | 'settings.update'
  | 'settings.display'
  | 'key.status'
  | 'key.set'
  | 'key.clear'
  | 'cache.clear'
  | 'cache.encryption'
  | 'cache.encrypt'
  | 'cache.decrypt'
  | 'cache.rekey'
  | 'cache.locked'
  | 'cache.unlock'
  | 'shell.openExternal';

export function sessionHandlers(c: SessionContext): Pick<Handlers, SessionOperations> {
  const { session } = c;
  const info = async () => {
    const p = session.profile;
    return {
      version: c.version,
      mode: p.mode,
      baseUrl: p.baseUrl,
      key: await session.keyStatus(),
      dataDir: session.dataDir,
      databaseFile: p.databaseFile,
      chains: getSettings(p.db).chains,
      shell: c.shell,
      cacheReadOnly: p.readOnly,
      // A team server's copy is the team's books: its service is set on the server, as there.
      team: c.team || p.replica !== null,
      ...(p.replica && { replica: { origin: p.replica.origin, madeAt: p.replica.madeAt } }),
    };
  };
  /** The service's base URL in the settings (none in demo mode). */
  const liveUrl = () => (session.profile.mode === 'live' ? session.profile.baseUrl : null);
  /** The settings as the person asking reads them (their own display on a team server), with the service in use and the version to send back. */
  const answer = (person: string | undefined) => {
    const { settings, notices, personal } = settingsFor(session.profile.db, person);
    return { ...settings, baseUrl: liveUrl(), notices, version: settingsVersion(session.profile.db), ...(personal && { personal }) };
  };
  /** The folder's caches closed while `work` converts them; its count told to the screens as `what` goes. */
  const converting = (what: string, kind: ConversionProgress['what'], cancelJobs: boolean, work: (onCount: (n: ConversionCount) => void) => Promise<void>) =>
    session.withCacheClosed({ what, cancelJobs, then: 'try again', busy: refusal('cache', 'cache.busy', {}) }, () =>
      work((n) => c.converting({ what: kind, ...n })),
    );
  return {
    'app.info': info,
    'app.connect': async ({ baseUrl, key, sessionOnly }) => {
      const url = normaliseBaseUrl(baseUrl);
      // One cheap request checks the key (the new one, else the one already kept for this
      // service) before anything changes: a refused key changes nothing and says so.
      const candidate = key ? Secrets.checkFormat(key) : await session.secrets.get(url);
      const keyCheck = await checkKey(url, candidate);
      if (keyCheck.state === 'refused') throw new ValidationError('key', keyCheck.message);
      if (key) await session.secrets.set(url, key, { sessionOnly: sessionOnly ?? false });
      // How the user reads the app (language, theme, time zone) goes with them to a service
      // connected for the first time: each cache keeps its own settings, and a fresh one would
      // otherwise start from the defaults (issue 39: connecting reset the locale and the theme).
      const { theme, locale, timeZone } = getSettings(session.profile.db);
      await session.switchTo(url);
      if (!listWallets(session.profile.db).length && sameAsDefaults(getSettings(session.profile.db))) {
        updateSettings(session.profile.db, { theme, locale, timeZone });
      }
      return { ...(await info()), keyCheck };
    },
    'app.useDemo': async () => {
      if (session.profile.mode !== 'demo') await session.switchTo(null);
      return info();
    },
    'settings.get': (_, { person }) => answer(person),
    'settings.update': ({ expectedVersion, ...changes }, { person }) => {
      updateSettings(session.profile.db, changes, expectedVersion);
      c.changed('settings.edited');
      return answer(person);
    },
    'settings.display': (changes, { person }) => {
      // Without a person, the one user's display is the books' settings, changed as any other.
      if (person === undefined) throw refusal('settings', 'settings.displayNeedsPerson', {});
      setPersonalDisplay(session.profile.db, person, changes);
      // Only this person's screens read differently: nobody else is told.
      return answer(person);
    },
    'key.status': () => session.keyStatus(),
    'key.set': async ({ key, sessionOnly }) => {
      const url = session.requireLive();
      // As on connect: a key the service refuses replaces nothing.
      const check = await checkKey(url, Secrets.checkFormat(key));
      if (check.state === 'refused') throw new ValidationError('key', check.message);
      return { ...(await session.secrets.set(url, key, { sessionOnly: sessionOnly ?? false })), check };
    },
    'key.clear': async () => session.secrets.clear(session.requireLive()),
    'cache.clear': async () => {
      // Running jobs would write into what is being cleared: stop them first.
      const p = session.profile;
      p.engine.queue.cancelAll();
      await p.engine.queue.drain();
      const cleared = clearCache(p.db);
      c.changed('positions.cleared');
      c.changed('transactions.cleared');
      return cleared;
    },
    'cache.encryption': async () => ({ ...encryptionStatus(session.dataDir), keychainAvailable: await keychainWorks(session.cacheKeychain) }),
    'cache.encrypt': async (input) => {
      const passphrase = input?.passphrase;
      await converting('Encrypting the cache', 'encrypt', input?.cancelJobs ?? false, async (onCount) => {
        const typed = session.usePassphrase(passphrase);
        try {
          session.cacheKey = await encryptFolder(session.dataDir, {
            keychain: session.cacheKeychain,
            ...(passphrase !== undefined && { passphrase }),
            onCount,
          });
        } catch (err) {
          // Refused before anything was written (a wrong passphrase for an encrypted folder): as before.
          typed.restore(err);
          throw err;
        }
      });
      return encryptionStatus(session.dataDir);
    },
    'cache.decrypt': async (input) => {
      const key = session.cacheKey;
      if (!key) throw refusal('encryption', 'encryption.none', {});
      // Checked before the cache is closed: a missing or wrong passphrase leaves everything open and as it was.
      await checkFolderPassphrase(session.dataDir, input?.passphrase, session.cacheKeychain);
      await converting('Decrypting the cache', 'decrypt', input?.cancelJobs ?? false, async (onCount) => {
        await decryptFolder(session.dataDir, { keychain: session.cacheKeychain, key, onCount });
        session.cacheKey = null;
        // The folder is plain: its passphrase opens nothing any more and is not kept.
        session.forgetPassphrase();
      });
      return encryptionStatus(session.dataDir);
    },
    'cache.rekey': async (input) => {
      const key = session.cacheKey;
      if (!key) throw refusal('encryption', 'encryption.none', {});
      // Checked before the cache is closed, as to turn it off: a screen left unlocked does not choose the folder's next key.
      await checkFolderPassphrase(session.dataDir, input?.currentPassphrase, session.cacheKeychain, { why: 'change', field: 'currentPassphrase' });
      const passphrase = input?.passphrase;
      await converting('Changing the cache key', 'rekey', input?.cancelJobs ?? false, async (onCount) => {
        session.cacheKey = await rekeyFolder(session.dataDir, {
          keychain: session.cacheKeychain,
          key,
          ...(passphrase !== undefined && { passphrase }),
          onCount,
        });
        // From now on the folder opens with the new passphrase, or with the keychain's key and none.
        if (passphrase !== undefined) session.usePassphrase(passphrase);
        else session.forgetPassphrase();
      });
      return encryptionStatus(session.dataDir);
    },
    // A core that answers these has its caches open: the folder's passphrase, if it has one, was
    // given at start (core/app.ts answers them while it waits for it).
    'cache.locked': () => ({ locked: false, dataDir: session.dataDir }),
    'cache.unlock': () => ({ locked: false, dataDir: session.dataDir }),
    'shell.openExternal': async ({ url }) => {
      const checked = allowedExternalUrl(url);
      if (!checked) throw new ValidationError('url', 'Only block explorer links (https) can be opened.');
      if (!c.openExternal) return false;
      // The serialised parsed URL, never the string as given.
      await c.openExternal(checked);
      return true;
    },
  };
}

/**
 * Whether the keychain of cache keys answers (an account no folder has: folder ids are UUIDs),
 * so Settings offers a passphrase instead of a key it could not keep.
 */
async function keychainWorks(keychain: Keychain): Promise<boolean> {
  try {
    await keychain.get('folioscope-availability-check');
    return true;
  } catch {
    return false;
  }
}

/** A cache whose reading settings nobody has touched yet. */
function sameAsDefaults(s: Settings): boolean {
  return s.theme === DEFAULT_SETTINGS.theme && s.locale === DEFAULT_SETTINGS.locale && s.timeZone === DEFAULT_SETTINGS.timeZone;
}
