/**
 * The `folioscope` program: the CLI's commands, plus `serve`, which is the web shell's. It is
 * the one place that puts the two shells together, so neither imports the other.
 */
import { runProgram } from './cli/index.ts';
import { serveCommand } from './web/serve-command.ts';

runProgram(process.argv.slice(2), { serve: serveCommand });
