/**
 * How far the JavaScript heap grows past what it holds before V8 collects it again, while a large
 * document is made (issue 40). Left to V8, the limit after a collection is up to four times what
 * survived it: a fund's report or month's pack parses every snapshot body of its dates and drops
 * each, and stood at 1.2–1.7 GB, most of it garbage, where what it held was under 700 MB. At one
 * and a half times both stay under 1 GB and are no slower (bench/RESULTS.md, "A fund's PDFs under
 * 1 GB"). Only while such work runs: a screen's view built from nothing at a fund's scale took
 * 15–20 % longer under it (more full collections while it holds its positions).
 */
import { setFlagsFromString } from 'node:v8';

/** While bounded, the heap may grow to 1.5 times what survived the last full collection. */
export const HEAP_GROWING_PERCENT = 50;

/** Counts the works under way that bound the heap; the flag is set by the first and cleared by the last. */
export function heapBound(setFlag: (flag: string) => void = setFlagsFromString) {
  let holders = 0;
  const hold = () => {
    // V8 reads the flag at each full collection (its memory controller): it holds from the next one.
    if (holders++ === 0) setFlag(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  };
  // 0: V8's own growth again.
  const release = () => {
    if (--holders === 0) setFlag('--heap-growing-percent=0');
  };
  /** `work` (a function, or one giving a promise) with the heap's growth bounded until it ends. */
  return function withBoundedHeap<T>(work: () => T): T {
    hold();
    let result: T;
    try {
      result = work();
    } catch (err) {
      release();
      throw err;
    }
    if (result instanceof Promise) return result.finally(release) as T;
    release();
    return result;
  };
}

/** This process's. */
export const withBoundedHeap = heapBound();

/** `fn` made to run with the heap's growth bounded (a job's work, handed to the queue as it is). */
export const heapBoundedWhile =
  <A extends unknown[], T>(fn: (...args: A) => T) =>
  (...args: A): T =>
    withBoundedHeap(() => fn(...args));
