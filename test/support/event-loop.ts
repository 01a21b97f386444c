/**
 * Counts the turns of this thread's event loop from now until `stop`: work said to run off the
 * thread (a worker's) lets it turn while it runs; the same work on the thread runs from its ask to
 * its answer with no turn at all.
 */
export function countTurns(): { turns(): number; stop(): void } {
  let turns = 0;
  let spinning = true;
  const spin = () => {
    turns++;
    if (spinning) setImmediate(spin);
  };
  setImmediate(spin);
  return { turns: () => turns, stop: () => void (spinning = false) };
}
