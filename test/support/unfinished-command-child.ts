/**
 * The CLI's program runner with one command that awaits a promise nothing will ever settle (as
 * a write waiting on an unreferenced worker once did): the process must not end as a success.
 */
import { runProgram } from '../../src/main/cli/index.ts';

runProgram(['never-settles'], { 'never-settles': () => new Promise<void>(() => undefined) });
