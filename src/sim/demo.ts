/**
 * The demo mode's service as a shell hands it to the core (`createCore({ demo })`): the
 * reference service, started in this process on a loopback port, accepting the key the core
 * makes up for the run. The core never imports the simulator; the function returned here fits
 * the core's `DemoStarter` by its shape (a URL and a close), so neither side imports the other.
 */
import { type Simulator, type SimulatorOptions, startSimulator } from './server.ts';

/** A starter of the reference service with these options (tests: a fixed clock, fewer transactions, latency). */
export function demoStarter(options: Partial<SimulatorOptions> = {}): (accessKey: string) => Promise<Simulator> {
  return (accessKey) => startSimulator({ accessKey, ...options });
}
