/**
 * Work written as a generator that yields between its parts (a portfolio view's members, NAV's
 * snapshots), run in one stretch by a caller that needs the answer now (a CSV, the PDF), or by
 * one that may stop wanting it (a screen left, a newer date picked: cancellation across the
 * contract, app.ts) with turns of the event loop between stretches: the core answers other asks
 * meanwhile, and an abort that arrives stops the work at its next part.
 */

/** How long work runs before it lets an abort (or anything else waiting) in. */
export const TURN_MS = 8;

export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export async function runStepsUnlessAborted<T>(steps: Generator<void, T>, signal: AbortSignal, turnMs = TURN_MS): Promise<T> {
  let since = performance.now();
  try {
    for (;;) {
      signal.throwIfAborted();
      const step = steps.next();
      if (step.done) return step.value;
      if (performance.now() - since >= turnMs) {
        await new Promise((resolve) => setImmediate(resolve));
        since = performance.now();
      }
    }
  } finally {
    // Stopped part way: the generator's own `finally` blocks run now, not never.
    void steps.return(undefined as T);
  }
}

/**
 * The steps of a read made again, from the start, when they throw what `again` names (a row its
 * first part listed was deleted before a later turn read it), at most `tries` times in all: then
 * the error is the caller's.
 */
export function* stepsAgain<T>(make: () => Generator<void, T>, again: (e: unknown) => boolean, tries = 3): Generator<void, T> {
  for (let tried = 1; ; tried++) {
    try {
      return yield* make();
    } catch (e) {
      if (!again(e) || tried >= tries) throw e;
    }
  }
}
