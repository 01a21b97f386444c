// @vitest-environment jsdom
import { flushSync } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { FolioError } from '../../src/renderer/src/lib/api.ts';
import { dataChanges, type Reads } from '../../src/renderer/src/lib/data-changes.ts';
import { describeLoadError, type LoadError } from '../../src/renderer/src/lib/load-error.ts';
import type { Loader } from '../../src/renderer/src/lib/loader.svelte.ts';
import { loader } from '../../src/renderer/src/lib/loader.svelte.ts';

/**
 * The "load when the inputs change" helper, run by Svelte's own runtime (this file is
 * compiled with runes, and the loader's effects run inside `$effect.root`).
 */

const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const B = '0x00000000219ab540356cbb839cbe05303d7705fa';

/** A promise settled by the test, so responses can arrive in any order. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

/** A loader over one piece of state, recording every run. */
function setup<I>(initial: I, options: { reads?: (i: I) => Reads; reset?: boolean } = {}) {
  let input = $state(initial);
  const runs: Array<{ input: I; signal: AbortSignal; answer: ReturnType<typeof deferred<string>> }> = [];
  let l!: Loader<I, string>;
  cleanup = $effect.root(() => {
    l = loader(
      () => input,
      (i, signal) => {
        const answer = deferred<string>();
        runs.push({ input: i, signal, answer });
        return answer.promise;
      },
      options,
    );
  });
  flushSync();
  return {
    runs,
    get l() {
      return l;
    },
    set(next: I) {
      input = next;
      flushSync();
    },
  };
}

describe('loader', () => {
  it('loads at once, then again when the inputs change, and not when they only look new', async () => {
    const t = setup({ wallets: [A], date: '2025-06-01' });
    expect(t.runs.map((r) => r.input)).toEqual([{ wallets: [A], date: '2025-06-01' }]);
    expect(t.l.loading).toBe(true);
    t.runs[0]!.answer.resolve('first');
    await settle();
    expect(t.l.value).toBe('first');
    expect(t.l.loading).toBe(false);

    // The same wallets in a rebuilt array: no new request.
    t.set({ wallets: [A], date: '2025-06-01' });
    expect(t.runs).toHaveLength(1);

    t.set({ wallets: [A, B], date: '2025-06-01' });
    expect(t.runs).toHaveLength(2);
    expect(t.runs[1]!.input).toEqual({ wallets: [A, B], date: '2025-06-01' });
    // The old value stays on screen until the new one arrives.
    expect(t.l.value).toBe('first');
    t.runs[1]!.answer.resolve('second');
    await settle();
    expect(t.l.value).toBe('second');

    t.l.reload();
    flushSync();
    expect(t.runs).toHaveLength(3);
    expect(t.runs[2]!.input).toEqual({ wallets: [A, B], date: '2025-06-01' });
  });

  it('drops a response that arrives after newer inputs, and aborts its signal', async () => {
    const t = setup('2025-06-01');
    t.set('2025-06-02');
    expect(t.runs).toHaveLength(2);
    expect(t.runs[0]!.signal.aborted).toBe(true);
    expect(t.runs[1]!.signal.aborted).toBe(false);
    // The newer answer comes first, the stale one after it: the stale one is dropped.
    t.runs[1]!.answer.resolve('for 06-02');
    await settle();
    t.runs[0]!.answer.resolve('for 06-01');
    await settle();
    expect(t.l.value).toBe('for 06-02');
    // A stale failure is dropped too.
    t.set('2025-06-03');
    t.set('2025-06-04');
    t.runs[3]!.answer.resolve('for 06-04');
    t.runs[2]!.answer.reject(new FolioError({ kind: 'network', message: 'gone', retryable: true }));
    await settle();
    expect(t.l.error).toBeNull();
    expect(t.l.value).toBe('for 06-04');
    expect(t.l.loading).toBe(false);
  });

  it('maps failures to the error kinds, and shows no value beside an error', async () => {
    const t = setup(1);
    const cases: Array<[unknown, LoadError]> = [
      [
        new FolioError({ kind: 'network', message: 'Could not reach the service', retryable: true }),
        { kind: 'offline', message: 'Could not reach the service' },
      ],
      [new FolioError({ kind: 'shell-offline', message: 'down', retryable: true }), { kind: 'shell-down', message: 'down' }],
      [new FolioError({ kind: 'forbidden', message: 'token', retryable: false }), { kind: 'forbidden', message: 'token' }],
      [
        new FolioError({ kind: 'validation', message: 'Search for a transaction hash or an address.', retryable: false, field: 'search' }),
        { kind: 'invalid-input', message: 'Search for a transaction hash or an address.', field: 'search' },
      ],
      [
        new FolioError({ kind: 'rate-limited', message: 'slow down', retryable: true }),
        { kind: 'service', failure: 'rate-limited', message: 'slow down', retryable: true },
      ],
      [new FolioError({ kind: 'auth', message: 'refused', retryable: false }), { kind: 'service', failure: 'auth', message: 'refused', retryable: false }],
      [new FolioError({ kind: 'disk-full', message: 'full', retryable: true }), { kind: 'storage', message: 'full', retryable: true }],
      [new FolioError({ kind: 'storage', message: 'damaged', retryable: false }), { kind: 'storage', message: 'damaged', retryable: false }],
      [new FolioError({ kind: 'cancelled', message: 'stopped', retryable: false }), { kind: 'cancelled', message: 'stopped' }],
      [new FolioError({ kind: 'RangeError', message: 'odd', retryable: false }), { kind: 'internal', message: 'odd' }],
      [new TypeError('x is undefined'), { kind: 'internal', message: 'x is undefined' }],
    ];
    let i = 0;
    t.runs[0]!.answer.resolve('ok');
    await settle();
    for (const [thrown, expected] of cases) {
      t.set(i + 2);
      i++;
      t.runs.at(-1)!.answer.reject(thrown);
      await settle();
      expect(t.l.error).toEqual(expected);
      expect(t.l.value).toBeUndefined();
      expect(describeLoadError(t.l.error!).message).toBe(expected.message);
    }
    // The next good answer clears the error.
    t.set(100);
    expect(t.l.error).toBeNull();
    t.runs.at(-1)!.answer.resolve('back');
    await settle();
    expect(t.l.value).toBe('back');
  });

  it('loads again only for data changes that touch what it reads', async () => {
    const t = setup({ wallet: A }, { reads: (i) => ({ wallets: [i.wallet], kinds: ['positions', 'wallets'] }) });
    expect(t.runs).toHaveLength(1);
    t.runs[0]!.answer.resolve('first');
    await settle();
    dataChanges.announce({ scope: 'positions', wallet: B });
    dataChanges.announce({ scope: 'transactions', wallet: A });
    dataChanges.announce({ scope: 'logs' });
    flushSync();
    expect(t.runs).toHaveLength(1);
    dataChanges.announce({ scope: 'positions', wallet: A.toUpperCase().replace('0X', '0x') });
    flushSync();
    expect(t.runs).toHaveLength(2);
    t.runs[1]!.answer.resolve('second');
    await settle();
    // A cache clear names no wallet; a new connection or settings touch everything.
    dataChanges.announce({ scope: 'positions' });
    flushSync();
    expect(t.runs).toHaveLength(3);
    dataChanges.announce({ scope: 'mode' });
    flushSync();
    dataChanges.announce({ scope: 'settings' });
    flushSync();
    expect(t.runs).toHaveLength(5);
    // Another connection or other settings stop the run under way.
    expect(t.runs[2]!.signal.aborted).toBe(true);
    expect(t.runs[3]!.signal.aborted).toBe(true);
    // Gone with its component: it listens no more.
    cleanup?.();
    cleanup = null;
    dataChanges.announce({ scope: 'positions', wallet: A });
    flushSync();
    expect(t.runs).toHaveLength(5);
    expect(t.runs[4]!.signal.aborted).toBe(true);
  });

  it('lets a run under way end when data changes, then runs once for all the changes meanwhile', async () => {
    const t = setup({ wallet: A }, { reads: (i) => ({ wallets: [i.wallet], kinds: ['positions'] }) });
    // A sync writes while the view is read: every change touches it, each long before a run ends.
    for (let i = 0; i < 50; i++) dataChanges.announce({ scope: 'positions', wallet: A });
    flushSync();
    expect(t.runs).toHaveLength(1);
    expect(t.runs[0]!.signal.aborted).toBe(false);
    t.runs[0]!.answer.resolve('older');
    await settle();
    flushSync();
    // Shown (it was right when asked, only older), then one more run for what came meanwhile.
    expect(t.l.value).toBe('older');
    expect(t.runs).toHaveLength(2);
    expect(t.l.loading).toBe(true);
    dataChanges.announce({ scope: 'positions', wallet: A });
    t.runs[1]!.answer.reject(new FolioError({ kind: 'network', message: 'gone', retryable: true }));
    await settle();
    flushSync();
    // A failed run ends it too: the change asked for after it still runs.
    expect(t.runs).toHaveLength(3);
    t.runs[2]!.answer.resolve('newest');
    await settle();
    flushSync();
    expect(t.l.value).toBe('newest');
    expect(t.l.loading).toBe(false);
    expect(t.runs).toHaveLength(3);
    // New inputs still stop the run under way at once (its answer would be for other inputs).
    dataChanges.announce({ scope: 'positions', wallet: A });
    flushSync();
    expect(t.runs).toHaveLength(4);
    t.set({ wallet: B });
    expect(t.runs).toHaveLength(5);
    expect(t.runs[3]!.signal.aborted).toBe(true);
    t.runs[4]!.answer.resolve('b');
    await settle();
    flushSync();
    expect(t.runs).toHaveLength(5);
  });

  it('with reset, clears the value at once; null inputs load nothing', async () => {
    const t = setup<string | null>('a', { reset: true });
    t.runs[0]!.answer.resolve('A');
    await settle();
    expect(t.l.value).toBe('A');
    t.set('b');
    expect(t.l.value).toBeUndefined();
    t.set(null);
    expect(t.runs).toHaveLength(2);
    expect(t.runs[1]!.signal.aborted).toBe(true);
    expect(t.l.loading).toBe(false);
  });

  it('replace extends the value, and is dropped when the inputs change meanwhile', async () => {
    const t = setup('q');
    t.runs[0]!.answer.resolve('page1');
    await settle();
    await t.l.replace(async (v) => `${v}+page2`);
    expect(t.l.value).toBe('page1+page2');
    const late = deferred<string>();
    const pending = t.l.replace(() => late.promise);
    expect(t.l.loading).toBe(true);
    t.set('r');
    late.resolve('stale');
    await pending;
    expect(t.l.value).toBe('page1+page2');
    t.runs[1]!.answer.resolve('r1');
    await settle();
    expect(t.l.value).toBe('r1');
  });
});
