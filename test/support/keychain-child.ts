/**
 * One keychain action in its own process (for "read back in a new process"):
 * keychain-child.ts ACTION BASE_URL [KEY] → prints the result as JSON.
 */
import { systemKeychain } from '../../src/main/core/secrets/keychain.ts';
import { Secrets } from '../../src/main/core/secrets/secrets.ts';

const [action, baseUrl, key] = process.argv.slice(2);
const secrets = new Secrets(systemKeychain(), {});
const out = async (): Promise<unknown> => {
  switch (action) {
    case 'set':
      return secrets.set(baseUrl!, key!);
    case 'session-set':
      return secrets.set(baseUrl!, key!, { sessionOnly: true }).then(async (s) => ({ status: s, key: await secrets.get(baseUrl!) }));
    case 'get':
      return secrets.get(baseUrl!);
    case 'clear':
      return secrets.clear(baseUrl!);
    case 'status':
      return secrets.status(baseUrl!);
    default:
      throw new Error(`unknown action ${action}`);
  }
};
out().then(
  (r) => process.stdout.write(JSON.stringify(r ?? null)),
  (e: unknown) => {
    process.stdout.write(JSON.stringify({ error: (e as Error).message }));
    process.exitCode = 1;
  },
);
