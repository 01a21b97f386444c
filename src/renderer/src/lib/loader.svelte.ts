/**
 * "Load this when its inputs change": the one way views read from the core. A loader runs
 * `load` whenever the value `inputs` returns changes (compared as JSON, so a rebuilt list
 * with the same wallets is no change), and when a `data.changed` event touches what the
 * view reads (`reads`: after the run under way, if one is; any number of changes meanwhile make
 * one run), shows the newest inputs' result only (a response to older inputs is dropped, and its
 * request is told to stop through the signal), and maps failures to a LoadError.
 *
 *   const positions = loader(
 *     () => ({ wallet: route.current.wallet, date: asOf }),
 *     ({ wallet, date }, signal) => call('positions.get', { wallet, date, view: 'all' }),
 *     { reads: ({ wallet }) => ({ wallets: [wallet], kinds: ['positions', 'wallets'] }) },
 *   );
 *   positions.value; positions.error; positions.loading; positions.reload();
 *
 * Create it while a component initialises (or inside `$effect.root`): it lives as long as
 * the component does.
 */
import { untrack } from 'svelte';
import { dataChanges, touches, type Reads } from './data-changes.ts';
import { toLoadError, type LoadError } from './load-error.ts';

export interface LoaderOptions<I> {
  /** What the data is read from; a `data.changed` that touches it loads again. Omitted: only input changes (and `reload`) load again. */
  reads?: (inputs: I) => Reads;
  /** Clears the value as soon as the inputs change (default: the old value stays until the new one arrives). */
  reset?: boolean;
}

export class Loader<I, T> {
  #value = $state.raw<T | undefined>(undefined);
  #error = $state.raw<LoadError | null>(null);
  #loading = $state(false);
  #reloads = $state(0);
  /** The inputs and abort controller of the current run: a response is current while its controller is. */
  #inputs: I | null = null;
  #key: string | undefined;
  #ran = 0;
  #controller: AbortController | null = null;
  /** A data change came while a run was under way: one more run once it ends. */
  #again = false;
  #load: (inputs: I, signal: AbortSignal) => Promise<T>;
  #options: LoaderOptions<I>;

  constructor(inputs: () => I | null, load: (inputs: I, signal: AbortSignal) => Promise<T>, options: LoaderOptions<I> = {}) {
    this.#load = load;
    this.#options = options;
    $effect(() => {
      const next = inputs();
      const reloads = this.#reloads;
      // Inputs are compared by value: a list rebuilt with the same wallets is no change.
      const key = JSON.stringify(next) ?? 'null';
      if (key === this.#key && reloads === this.#ran) return;
      this.#key = key;
      this.#ran = reloads;
      untrack(() => this.#start(next));
    });
    const reads = options.reads;
    // Listens to the core's data changes while the component lives.
    if (reads) {
      $effect(() =>
        dataChanges.listen((change) => {
          const current = this.#inputs;
          if (current === null || !touches(change, reads(current))) return;
          // Another connection or other settings make the run under way wrong: it stops. Data
          // written makes it only older: it ends and is shown, then one run reads what came
          // meanwhile. Stopping it for each change starved a view during a fund's sync (a
          // change every few milliseconds, each view taking longer than that to build).
          if (change.scope === 'mode' || change.scope === 'settings' || !this.#loading) this.reload();
          else this.#again = true;
        }),
      );
    }
    // The component going away makes the run under way stale.
    $effect(() => () => this.#controller?.abort());
  }

  /** The last result; undefined until the first arrives, after an error, and (with `reset`) while new inputs load. */
  get value(): T | undefined {
    return this.#value;
  }

  /** Why the last run failed, or null. */
  get error(): LoadError | null {
    return this.#error;
  }

  /** Whether a run (or a `replace`) is under way. */
  get loading(): boolean {
    return this.#loading;
  }

  /** Loads again with the same inputs (a Retry button). */
  reload(): void {
    this.#reloads++;
  }

  /**
   * Replaces the value with what `next` makes of it (the next page appended, a check run
   * again), under the same rules: dropped if the inputs change meanwhile, errors mapped.
   */
  async replace(next: (value: T | undefined, signal: AbortSignal) => Promise<T>): Promise<void> {
    const controller = this.#controller;
    if (!controller || controller.signal.aborted) return;
    this.#error = null;
    this.#loading = true;
    try {
      const value = await next(this.#value, controller.signal);
      if (!controller.signal.aborted) this.#value = value;
    } catch (err) {
      if (!controller.signal.aborted) this.#fail(err);
    } finally {
      if (!controller.signal.aborted) {
        this.#loading = false;
        this.#ended();
      }
    }
  }

  /** A run (or a `replace`) ended and was kept: the run a data change asked for meanwhile, if one did. */
  #ended(): void {
    if (!this.#again) return;
    this.#again = false;
    this.reload();
  }

  #start(inputs: I | null): void {
    // A new run makes the one under way stale: its response is dropped and its request told to stop.
    this.#controller?.abort();
    this.#again = false;
    this.#inputs = inputs;
    this.#error = null;
    if (this.#options.reset) this.#value = undefined;
    if (inputs === null) {
      this.#controller = null;
      this.#loading = false;
      return;
    }
    const controller = new AbortController();
    this.#controller = controller;
    this.#loading = true;
    let pending: Promise<T>;
    try {
      pending = this.#load(inputs, controller.signal);
    } catch (err) {
      pending = Promise.reject(err);
    }
    pending.then(
      (value) => {
        if (controller.signal.aborted) return;
        this.#value = value;
        this.#loading = false;
        this.#ended();
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        this.#fail(err);
        this.#loading = false;
        this.#ended();
      },
    );
  }

  #fail(err: unknown): void {
    // No stale numbers beside a failure: the value goes with the error.
    this.#value = undefined;
    this.#error = toLoadError(err);
  }
}

/** A loader (see the module comment): `inputs` is tracked; `load` is not; null inputs load nothing. */
export function loader<I, T>(inputs: () => I | null, load: (inputs: I, signal: AbortSignal) => Promise<T>, options?: LoaderOptions<I>): Loader<I, T> {
  return new Loader(inputs, load, options);
}
