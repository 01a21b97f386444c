import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapBound, heapBoundedWhile } from '../../src/main/core/heap.ts';

/**
 * The heap's growth bounded while a large document is made (src/main/core/heap.ts): set by the
 * first work that asks, cleared (V8's own growth again) when the last one ends, however each ends.
 * What it saves is measured by `npm run bench -- scale` (the pdf and pack parts), not here.
 */
describe('the heap bound while documents are made', () => {
  const flags = () => {
    const set: string[] = [];
    return { set, withBoundedHeap: heapBound((f) => set.push(f)) };
  };
  const ON = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
  const OFF = '--heap-growing-percent=0';

  it('is set for a work and cleared after it, returning what it gave', () => {
    const { set, withBoundedHeap } = flags();
    expect(withBoundedHeap(() => set.slice())).toEqual([ON]);
    expect(set).toEqual([ON, OFF]);
  });

  it('stays set while two works overlap, and is cleared once, when the last ends', async () => {
    const { set, withBoundedHeap } = flags();
    let endFirst!: () => void;
    const first = withBoundedHeap(() => new Promise<void>((r) => (endFirst = r)));
    const second = withBoundedHeap(async () => 'second');
    expect(await second).toBe('second');
    expect(set).toEqual([ON]);
    endFirst();
    await first;
    expect(set).toEqual([ON, OFF]);
  });

  it('is cleared after a work that throws or rejects', async () => {
    const { set, withBoundedHeap } = flags();
    expect(() =>
      withBoundedHeap(() => {
        throw new Error('no');
      }),
    ).toThrow('no');
    await expect(withBoundedHeap(async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(set).toEqual([ON, OFF, ON, OFF]);
  });

  it('a job made bounded takes its arguments and gives its result as it was', async () => {
    expect(await heapBoundedWhile(async (a: number, b: string) => `${a}${b}`)(1, 'x')).toBe('1x');
    await expect(heapBoundedWhile(async () => Promise.reject(new Error('no')))()).rejects.toThrow('no');
  });

  it('names a flag this Node’s V8 knows (an unknown one set at run time would be ignored without a word)', () => {
    for (const flag of [ON, OFF]) {
      const r = spawnSync(process.execPath, [flag, '-e', ''], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    }
    const unknown = spawnSync(process.execPath, ['--heap-growing-percentage=50', '-e', ''], { encoding: 'utf8' });
    expect(unknown.status).not.toBe(0);
  });
});
