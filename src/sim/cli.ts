/**
 * `npm run sim -- --port N --access-key K --seed N --txns-per-wallet N --latency-ms N --spam --fault NAME[:PROBABILITY] ...`
 * Starts the reference service; the first line of stdout is its URL.
 */

import { FAULT_KINDS, type FaultRule, isFaultKind } from './faults.ts';
import { CONVENTION_KEYS, describeConventions, parseConventions } from './conventions.ts';
import { type Quota, startSimulator } from './server.ts';
import { LIVE_MODES, parseLiveModes } from './live.ts';
import { ArgumentError, parseArguments } from '../shared/args.ts';

const USAGE = `Usage: npm run sim -- [options]
  --port N              port on 127.0.0.1 (default: any free port)
  --access-key K        the key every request must carry (default: demo-access-key; Folioscope
                        accepts keys of 12 characters or more)
  --seed N              seed of the generated data (default: 1)
  --txns-per-wallet N   transactions per wallet and chain (default: 2000, up to 1000000)
  --latency-ms N        added latency per request (default: 0)
  --quota N/s[,no-retry-after]  serve at most N requests in any rolling second; 429 beyond,
                        with a Retry-After header unless no-retry-after is given
  --live MODE[,MODE]    a live indexer (src/sim/live.ts): ${LIVE_MODES.join(', ')}; the history
                        changes while the client reads it (deterministic per seed)
  --spam                spam as real treasury wallets get it (src/sim/spam.ts): junk airdropped
                        tokens, address poisoning, one payment to a lookalike; its truth at
                        GET /_sim/spam-truth?wallet=W&chains=C[&from=YYYY-MM-DD][&to=YYYY-MM-DD]
  --fault NAME[:P]      inject a fault with probability P (default 0.2); repeatable.
                        Faults: ${FAULT_KINDS.join(', ')}
  --convention KEY=VALUE  read an open point of the spec another way; repeatable:
${Object.entries(CONVENTION_KEYS)
  .map(([k, v]) => `                          ${k}=${v.values}`)
  .join('\n')}`;

/** `20/s` or `20/s,no-retry-after`. */
export function parseQuota(spec: string): Quota {
  const m = /^(\d{1,6})\/s(,no-retry-after)?$/.exec(spec.trim());
  const perSecond = m ? Number(m[1]) : 0;
  if (!m || perSecond < 1) throw new Error(`--quota is N/s or N/s,no-retry-after with N from 1 to 999999, got '${spec}'`);
  return { perSecond, retryAfter: !m[2] };
}

/** A mistake in the command line: the program prints it with the usage and exits 2, as every usage error. */
function usageError(message: string): Error {
  return Object.assign(new Error(`${message}\n\n${USAGE}`), { usage: true });
}

const OPTIONS = {
  port: { type: 'string' },
  'access-key': { type: 'string' },
  seed: { type: 'string' },
  'txns-per-wallet': { type: 'string' },
  'latency-ms': { type: 'string' },
  quota: { type: 'string' },
  live: { type: 'string' },
  spam: { type: 'boolean' },
  fault: { type: 'string', multiple: true },
  convention: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runSimCli(argv: string[]): Promise<void> {
  let read;
  try {
    read = readOptions(argv);
  } catch (err) {
    throw usageError((err as Error).message);
  }
  if (!read) {
    console.log(USAGE);
    return;
  }
  const { values, faults, port, seed, txnsPerWallet, latencyMs, quota, live, spam, conventions } = read;
  const sim = await startSimulator({
    accessKey: values['access-key'] ?? 'demo-access-key',
    // An option not given is left out, so the simulator's default applies.
    ...(port !== undefined && { port }),
    ...(seed !== undefined && { seed }),
    ...(txnsPerWallet !== undefined && { txnsPerWallet }),
    ...(latencyMs !== undefined && { latencyMs }),
    ...(quota && { quota }),
    ...(live && { live }),
    ...(spam && { spam }),
    faults,
    conventions,
  });
  console.log(sim.url);
  console.error(
    `Reference service listening; faults: ${faults.map((f) => `${f.kind}:${f.probability}`).join(', ') || 'none'}; quota: ${quota ? `${quota.perSecond}/s${quota.retryAfter ? '' : ' without Retry-After'}` : 'none'}; live: ${live ? live.modes.join(',') : 'off'}; spam: ${spam ? 'on' : 'off'}; conventions: ${describeConventions(sim.conventions)}. Ctrl+C stops it.`,
  );
  const stop = () => void sim.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** The options of the command line, each checked; null when only the usage was asked. Throws what is wrong. */
function readOptions(argv: string[]) {
  let values;
  try {
    // The program's one argument reader (src/shared/args.ts): what is wrong in its words.
    ({ values } = parseArguments(argv, OPTIONS, { positionals: false }));
  } catch (err) {
    if (!(err instanceof ArgumentError)) throw err;
    throw new Error(err.message, { cause: err });
  }
  if (values.help) return null;
  const int = (name: string, v: string | undefined, min: number, max: number): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}`);
    return n;
  };
  const faults: FaultRule[] = (values.fault ?? []).map((spec) => {
    const [kind = '', p] = spec.split(':');
    if (!isFaultKind(kind)) throw new Error(`unknown fault '${kind}'; faults: ${FAULT_KINDS.join(', ')}`);
    const probability = p === undefined ? 0.2 : Number(p);
    if (!(probability >= 0 && probability <= 1)) throw new Error(`fault probability must be from 0 to 1, got '${p}'`);
    return { kind, probability };
  });
  return {
    values,
    faults,
    port: int('port', values.port, 0, 65535),
    seed: int('seed', values.seed, 0, 2 ** 31),
    txnsPerWallet: int('txns-per-wallet', values['txns-per-wallet'], 1, 1_000_000),
    latencyMs: int('latency-ms', values['latency-ms'], 0, 600_000),
    quota: values.quota === undefined ? undefined : parseQuota(values.quota),
    live: values.live === undefined ? undefined : { modes: parseLiveModes(values.live) },
    spam: values.spam === true,
    conventions: parseConventions(values.convention ?? []),
  };
}
