/**
 * The `folioscope` program: the CLI's commands, plus `serve`, which is the web shell's, and
 * `server`, the team server's (whose `init` is the CLI's people commands). It is the one place
 * that puts the shells together, so none imports another.
 */
import { runProgram, serverInitCommand } from './cli/index.ts';
import { serverCommand } from './team/server-command.ts';
import { serveCommand } from './web/serve-command.ts';

runProgram(process.argv.slice(2), {
  serve: serveCommand,
  server: (g, args) => (args[0] === 'init' ? serverInitCommand(g, args.slice(1)) : serverCommand(g, args)),
});
