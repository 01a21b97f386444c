/**
 * `cache.encrypt` through a core as the app and the web shell make it (the system keychain for
 * cache keys, no passphrase), in its own process so the test can take the Secret Service away:
 * encrypt-child.ts DATA_DIR → prints {"ok": …} or {"error": message} as JSON, with what
 * `cache.encryption` said of the keychain first (Settings offers a passphrase when it is missing).
 */
import { createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';

const [dataDir] = process.argv.slice(2);
const core = await createCore({ dataDir: dataDir!, shell: 'web', env: {}, demo: demoStarter(), scheduleEveryMs: 0 });
try {
  const status = await core.request('cache.encryption', {});
  const res = await core.dispatch('cache.encrypt', {});
  process.stdout.write(JSON.stringify({ ...(res.ok ? { ok: true } : { error: res.error.message }), keychainAvailable: status.keychainAvailable }));
} finally {
  await core.close();
}
