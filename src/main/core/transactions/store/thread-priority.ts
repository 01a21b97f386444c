import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * The write worker's thread runs at a lower CPU priority (nice 10) than the main thread, so
 * that on a busy machine the main thread, which answers the timeline and every other view,
 * gets the CPU first, and the writer takes what is left. Measured on two cores shared with
 * the simulated service: timeline pages while a whale syncs came back sooner, in the syncing
 * process and in one of their own, and the whale itself was no slower: the machine is as busy,
 * the work is only ordered differently (bench/RESULTS.md, "Round 6 (issue 16)").
 *
 * Linux only: there a nice value belongs to a thread, set through its thread id
 * (setpriority(2)), which /proc/thread-self names. Elsewhere (macOS, Windows) a priority is
 * the whole process's, which must not be lowered: nothing is done there. Never throws.
 */
export const WRITER_NICE = 10;

/** Lowers the calling thread's priority to `nice` (never raises it); whether it could. Call it on a worker thread only. */
export function lowerThisThreadPriority(nice = WRITER_NICE): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    // The main thread's id is the process id: lowering it would lower the app's main thread.
    if (!Number.isInteger(tid) || tid <= 0 || tid === process.pid) return false;
    // Only ever lower: a process started with a higher nice keeps it (raising needs privileges).
    if (getPriority(tid) < nice) setPriority(tid, nice);
    return true;
  } catch {
    return false; // not allowed, or no /proc: the writer runs at the normal priority
  }
}
