/**
 * `folioscope key`: the access key of the data folder's service, set (checked with the service
 * first), cleared, or its status; `key set --base-url URL` also makes that the folder's service.
 */
import { forTerminal } from '../../../shared/text-safety.ts';
import { ENV_BASE_URL, ENV_KEY, MAX_KEY_LENGTH, MIN_KEY_LENGTH, normaliseBaseUrl, readAppConfig, Secrets, writeAppConfig } from '../../core/index.ts';
import { call, EXIT_INCOMPLETE, type Globals, parse, UsageError, withCore } from '../context.ts';
import { io, say, setExitCode, warn } from '../io.ts';

export async function keyCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope key set | clear | status
  set      reads the key from standard input, checks it with the service and stores it in the OS keychain
           (${MIN_KEY_LENGTH} to ${MAX_KEY_LENGTH} printable ASCII characters; without a keychain, use FOLIOSCOPE_ACCESS_KEY);
           with --base-url, makes that URL the data folder's service once it takes the key (a key it
           refuses is not stored; one it cannot check now is stored, the service left as it was, exit 3)
  clear    removes it
  status   says whether one is set (never the key)`;
  const p = parse(args, {}, usage);
  if (!p) return;
  const [sub] = p.positionals;
  // Demo mode needs no key: said before a core (and its demo service) is started for nothing.
  if (!(g.baseUrl ?? io().env[ENV_BASE_URL] ?? readAppConfig(g.dataDir).baseUrl))
    throw new Error('No service is configured: pass --base-url URL (demo mode needs no key).');
  if (sub !== 'set' && sub !== 'clear' && sub !== 'status') throw new UsageError(usage);
  // Read before the core opens: nothing is started for a key that is not there.
  const read = sub === 'set' ? io().stdin().trim() : '';
  if (sub === 'set' && !read) throw new Error('No key on standard input: echo "$KEY" | folioscope key set');
  // A key that breaks the format rules (too short, spaces) is refused before anything else is asked.
  const key = read && Secrets.checkFormat(read);
  await withCore(g, async (core) => {
    const info = await call(core, 'app.info', undefined);
    if (info.mode === 'demo' || !info.baseUrl) throw new Error('No service is configured: pass --base-url URL (demo mode needs no key).');
    const url = info.baseUrl;
    if (sub === 'set') {
      // Without a keychain the CLI has nowhere to keep the key: said before it goes to the service.
      const before = await call(core, 'key.status', undefined);
      if (!before.keychainAvailable && before.keychainProblem) throw new Error(before.keychainProblem);
      // As in the app: a key the service refuses replaces nothing.
      const status = await call(core, 'key.set', { key });
      say(`Key stored in the ${status.source === 'keychain' ? 'system keychain' : status.source} for ${url}.`);
      if (status.check.state !== 'accepted') warn(forTerminal(`Not checked: ${status.check.message}`));
      // A key set for the URL of the command line makes that the data folder's service, as
      // connecting in Settings does: later commands without --base-url use it, not demo data.
      // Only a service that answered and took the key: a mistyped URL that answers nothing
      // must not replace a working configuration.
      const configured = readAppConfig(g.dataDir).baseUrl;
      const differs = configured === null || normaliseBaseUrl(configured) !== url;
      if (g.baseUrl !== undefined && differs && status.check.state !== 'accepted') {
        warn(
          `${url} was not made the configured service, since it did not take the key just now${configured ? ` (still ${forTerminal(configured)})` : ''}: run key set again when it answers, or pass --base-url.`,
        );
        setExitCode(EXIT_INCOMPLETE);
      } else if (g.baseUrl !== undefined && differs) {
        writeAppConfig(g.dataDir, { baseUrl: url });
        say(`${url} is now the configured service: later commands use it without --base-url.`);
      }
    } else if (sub === 'clear') {
      await call(core, 'key.clear', undefined);
      say(`Key cleared for ${url}.`);
    } else {
      const s = await call(core, 'key.status', undefined);
      say(s.set ? `A key is set for ${url} (from the ${s.source}).` : `No key is set for ${url}.`);
      if (s.keychainProblem) say(s.keychainProblem);
      // Say why an environment key is not used, rather than leave the user guessing.
      if (io().env[ENV_KEY] && s.source !== 'environment') {
        say('FOLIOSCOPE_ACCESS_KEY is set but not used here: it applies only to the service named by FOLIOSCOPE_BASE_URL (else --base-url).');
      }
      // Set, but unusable: say so here rather than only when a sync fails.
      if (s.source === 'environment') {
        try {
          Secrets.checkFormat(io().env[ENV_KEY] ?? '', 'FOLIOSCOPE_ACCESS_KEY');
        } catch (err) {
          say((err as Error).message);
        }
      }
    }
  });
}
