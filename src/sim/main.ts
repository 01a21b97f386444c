/**
 * The simulator as a script of its own (`node --import tsx src/sim/main.ts …`, as the
 * benchmarks start it). Its own file rather than a "run if I am the entry" check in cli.ts:
 * bundled into the `folioscope` program, such a check compares the bundle's URL with the
 * bundle's path and would start a simulator under every command.
 */
import { runSimCli } from './cli.ts';

runSimCli(process.argv.slice(2)).catch((err: unknown) => {
  console.error(`sim: ${(err as Error).message}`);
  process.exit(2);
});
