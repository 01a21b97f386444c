/**
 * Loaded before anything else in every thread of a process (`node --import …/kill-at-step.ts`:
 * Node runs `--import` modules in worker threads too), so a process doing a conversion kills
 * itself just before its Nth step, whichever thread takes it: a rename (every step of a
 * conversion that a crash can fall between ends in one) or the removal of a file named
 * `….sqlite` (an old backup once its converted copy is named). KILL_AT is N; KILL_COUNT names a
 * file the threads count their steps in (one byte each), so the count runs across them.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const killAt = Number(process.env.KILL_AT);
const counter = process.env.KILL_COUNT;
if (counter && killAt > 0) {
  const rename = fs.renameSync;
  const rm = fs.rmSync;
  const step = () => {
    fs.appendFileSync(counter, '.');
    if (fs.statSync(counter).size === killAt) process.kill(process.pid, 'SIGKILL');
  };
  fs.renameSync = (from, to) => {
    step();
    rename(from, to);
  };
  // The removal of an old backup (the converted one named already): a stop there leaves both.
  fs.rmSync = (path, options) => {
    if (String(path).endsWith('.sqlite')) step();
    rm(path, options);
  };
  // The named imports of node:fs in the code under test see the patched function too.
  syncBuiltinESMExports();
}
