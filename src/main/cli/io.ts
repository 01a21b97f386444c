/**
 * Where a run of the CLI reads and writes: its standard output and error, its environment, its
 * standard input and its exit code. The program (`runProgram`) runs with the process's own; a
 * test runs a command line in its own process with strings (`runCli`), which is what lets the
 * CLI's behaviour be tested without a process start per command (issue 36).
 *
 * The run is found through AsyncLocalStorage rather than handed to every function: the lines a
 * command prints are written at every depth (an alert, a rule, a flagged close, the progress
 * bar, each a helper shared by several commands), and every await and event listener started
 * inside a run stays inside it, so two runs in one process never mix their output.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';

/** A stream a run writes to: the process's own, or a test's collector. */
export interface OutStream {
  write(text: string): unknown;
  /** A terminal: the progress bar is drawn only there (never in a script's or a test's output). */
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
}

export interface CliIo {
  stdout: OutStream;
  stderr: OutStream;
  env: Record<string, string | undefined>;
  /** All of standard input, read only when a command asks for it (a key, a passphrase). */
  stdin(): string;
  /**
   * The run's clock (Unix ms), given to the core and the built-in reference service: a test's
   * pinned one, so a command reads "today" as the test says whatever the computer's date.
   * Absent: the computer's.
   */
  now?: () => number;
}

/** The process's own streams, environment and standard input. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, stdin: () => readFileSync(0, 'utf8') };
}

interface Run {
  io: CliIo;
  /** Set by a command that finished but must not read as a success (exit 1 or 3 without an error). */
  exitCode: number;
}

const runs = new AsyncLocalStorage<Run>();

/** Runs `fn` with `io` as the run's; resolves with what it returned and the exit code a command set. */
export async function withIo<T>(io: CliIo, fn: () => Promise<T>): Promise<{ value: T; exitCode: number }> {
  const run: Run = { io, exitCode: 0 };
  const value = await runs.run(run, fn);
  return { value, exitCode: run.exitCode };
}

/** Outside a run (a module loaded by another program): the process's own. */
const outside: Run = { io: processIo(), exitCode: 0 };
const current = (): Run => runs.getStore() ?? outside;

/** The run's streams, environment and input. */
export const io = (): CliIo => current().io;

/** One line on the run's standard output (console.log's place). */
export function say(line = ''): void {
  current().io.stdout.write(`${line}\n`);
}

/** One line on the run's standard error (console.error's place). */
export function warn(line: string): void {
  current().io.stderr.write(`${line}\n`);
}

/** The run ends with this code though no error was thrown (a doctor that found a failure, an incomplete reconcile). */
export function setExitCode(code: number): void {
  current().exitCode = code;
}
