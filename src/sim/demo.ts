/**
 * The demo mode's service as a shell hands it to the core (`createCore({ demo })`): the
 * reference service, started in this process on a loopback port, accepting the key the core
 * makes up for the run. The core never imports the simulator; the function returned here fits
 * the core's `DemoStarter` by its shape (a URL and a close), so neither side imports the other.
 */
import { type Simulator, type SimulatorOptions, startSimulator } from './server.ts';

/** Set to 1 (or true, yes, on), the demo's world has spam in it (spam.ts); unset or anything else, it has none. */
export const ENV_DEMO_SPAM = 'FOLIOSCOPE_DEMO_SPAM';

/** A starter of the reference service with these options (tests: a fixed clock, fewer transactions, latency). */
export function demoStarter(options: Partial<SimulatorOptions> = {}): (accessKey: string) => Promise<Simulator> {
  return (accessKey) => startSimulator({ accessKey, ...options });
}

/**
 * The demo world's options an environment asks for, for a shell to hand to `demoStarter` with its
 * own: FOLIOSCOPE_DEMO_SPAM=1 turns spam on. The shells read their own environment (the CLI a
 * test's, in process), so the simulator never reads `process.env` itself.
 */
export function demoWorldFromEnv(env: Readonly<Record<string, string | undefined>>): Partial<SimulatorOptions> {
  return /^(1|true|yes|on)$/i.test(env[ENV_DEMO_SPAM]?.trim() ?? '') ? { spam: true } : {};
}
