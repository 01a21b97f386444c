import { describe, expect, it, vi } from 'vitest';
import { EVENT_NAMES, IPC_CANCEL, IPC_EVENT, IPC_INVOKE, OPERATION_NAMES } from '../../src/shared/operations.ts';

const state = vi.hoisted(() => ({ exposed: {} as Record<string, any>, invoked: [] as unknown[][], sent: [] as unknown[][], listeners: new Set<Function>() }));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (name: string, api: unknown) => (state.exposed[name] = api) },
  ipcRenderer: {
    invoke: (...args: unknown[]) => (state.invoked.push(args), Promise.resolve({ ok: true, result: 'r' })),
    send: (...args: unknown[]) => void state.sent.push(args),
    on: (_channel: string, l: Function) => state.listeners.add(l),
    removeListener: (_channel: string, l: Function) => state.listeners.delete(l),
  },
}));

await import('../../src/preload/index.ts');
const folio = state.exposed['folio'];

describe('the preload', () => {
  it("exposes exactly the contract's operations, `on` and `cancel`, frozen, and nothing of Electron", () => {
    expect(Object.keys(folio).sort()).toEqual([...OPERATION_NAMES, 'on', 'cancel'].sort());
    expect(Object.isFrozen(folio)).toBe(true);
    expect(Object.keys(state.exposed)).toEqual(['folio']);
  });

  it('passes a request id with an operation, and cancels by a number only', async () => {
    await folio['portfolio.view']({ date: '2025-12-31' }, 42);
    expect(state.invoked.at(-1)).toEqual([IPC_INVOKE, 'portfolio.view', { date: '2025-12-31' }, 42]);
    folio.cancel(42);
    folio.cancel('42; anything');
    folio.cancel({ id: 42 });
    expect(state.sent).toEqual([[IPC_CANCEL, 42]]);
    state.invoked.length = 0;
  });

  it('sends every operation over the one invoke channel', async () => {
    for (const name of OPERATION_NAMES) await folio[name]({ x: 1 });
    expect(state.invoked).toHaveLength(OPERATION_NAMES.length);
    expect(state.invoked.every((a) => a[0] === IPC_INVOKE)).toBe(true);
    expect(state.invoked.map((a) => a[1])).toEqual([...OPERATION_NAMES]);
  });

  it('subscribes to events and unsubscribes with the function it returns', () => {
    const got: unknown[] = [];
    const off = folio.on(EVENT_NAMES[0], (p: unknown) => got.push(p));
    expect(state.listeners.size).toBe(1);
    const [listener] = [...state.listeners];
    listener!({}, EVENT_NAMES[0], { n: 1 });
    listener!({}, 'other.event', { n: 2 });
    expect(got).toEqual([{ n: 1 }]);
    off();
    expect(state.listeners.size).toBe(0);
    expect(() => folio.on('no.such.event', () => undefined)).toThrow('Unknown event');
    void IPC_EVENT;
  });
});
