import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPC_CANCEL, IPC_EVENT, IPC_INVOKE, OPERATION_NAMES } from '../../src/shared/operations.ts';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { bindIpc } from '../../src/main/electron/ipc.ts';
import { APP_ENTRY } from '../../src/main/electron/security.ts';
import { tempDir } from '../support/store.ts';
import { SIM_NOW } from '../support/sim.ts';
import { demoStarter } from '../../src/sim/demo.ts';

let core: Core;
beforeAll(async () => {
  core = await createCore({ dataDir: tempDir(), shell: 'electron', baseUrl: null, demo: demoStarter({ now: () => SIM_NOW }) });
});
afterAll(() => core.close());

function fakeIpc() {
  const handlers = new Map<string, Function>();
  const listeners = new Map<string, Function>();
  const sent: unknown[][] = [];
  const contents = { isDestroyed: () => false, send: (...a: unknown[]) => sent.push(a) };
  return {
    ipcMain: {
      handle: (ch: string, fn: Function) => handlers.set(ch, fn),
      removeHandler: (ch: string) => handlers.delete(ch),
      on: (ch: string, fn: Function) => listeners.set(ch, fn),
      removeListener: (ch: string) => listeners.delete(ch),
    },
    handlers,
    listeners,
    sent,
    contents,
  };
}

describe('IPC binding of the contract', () => {
  it('handles every operation on one channel, after checking the sender', async () => {
    const f = fakeIpc();
    const unbind = bindIpc(f.ipcMain as never, core, () => f.contents as never);
    const invoke = f.handlers.get(IPC_INVOKE)!;
    const trusted = { senderFrame: { url: APP_ENTRY, parent: null } };
    expect(await invoke(trusted, 'wallets.list', undefined)).toEqual({ ok: true, result: [] });
    expect(await invoke({ senderFrame: { url: 'https://evil.example/', parent: null } }, 'wallets.list')).toMatchObject({
      ok: false,
      error: { kind: 'forbidden' },
    });
    expect(await invoke({ senderFrame: { url: APP_ENTRY, parent: {} } }, 'wallets.list')).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(await invoke(trusted, 'no.such.op', {})).toMatchObject({ ok: false, error: { kind: 'validation' } });
    // Inputs are validated against the contract before any work.
    expect(await invoke(trusted, 'wallets.add', { address: 42 })).toMatchObject({ ok: false, error: { kind: 'validation', field: 'address' } });
    expect(await invoke(trusted, 'wallets.add', { address: '0x123', chains: ['eth'] })).toMatchObject({
      ok: false,
      error: { kind: 'validation', field: 'address' },
    });
    unbind();
    expect(f.handlers.size).toBe(0);
    expect(f.listeners.size).toBe(0);
  });

  it('binds every operation of the contract: none is unknown to the core', async () => {
    const f = fakeIpc();
    const unbind = bindIpc(f.ipcMain as never, core, () => f.contents as never);
    const invoke = f.handlers.get(IPC_INVOKE)!;
    const trusted = { senderFrame: { url: APP_ENTRY, parent: null } };
    for (const op of OPERATION_NAMES) {
      // A deliberately wrong input: the reply must be about the input, never "unknown operation".
      const res = await invoke(trusted, op, { definitely: 'not valid' });
      expect(res.ok === true || !/Unknown operation/.test(res.error.message), op).toBe(true);
    }
    expect((await invoke(trusted, 'app.info', undefined)).result).toMatchObject({ mode: 'demo', shell: 'electron' });
    unbind();
  });

  it('forwards events to the window', async () => {
    const f = fakeIpc();
    const unbind = bindIpc(f.ipcMain as never, core, () => f.contents as never);
    const invoke = f.handlers.get(IPC_INVOKE)!;
    const trusted = { senderFrame: { url: APP_ENTRY, parent: null } };
    await invoke(trusted, 'wallets.add', { address: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', chains: ['eth'] });
    expect(f.sent).toContainEqual([IPC_EVENT, 'data.changed', { scope: 'wallets', wallet: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c' }]);
    unbind();
  });

  it('a request the page no longer needs is cancelled by its id, from that page only', async () => {
    const f = fakeIpc();
    const unbind = bindIpc(f.ipcMain as never, core, () => f.contents as never);
    const invoke = f.handlers.get(IPC_INVOKE)!;
    const cancel = f.listeners.get(IPC_CANCEL)!;
    const page = (id: number) => ({ senderFrame: { url: APP_ENTRY, parent: null }, sender: { id } });
    const input = { date: '2025-12-31' };
    // Cancelled by the page that asked: the core answers "cancelled", never the stale result.
    const asked = invoke(page(1), 'portfolio.view', input, 7);
    cancel(page(1), 7);
    expect(await asked).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
    // Another page's cancel of the same id, or an untrusted frame's, changes nothing.
    const mine = invoke(page(1), 'portfolio.view', input, 8);
    cancel(page(2), 8);
    cancel({ senderFrame: { url: 'https://evil.example/', parent: null }, sender: { id: 1 } }, 8);
    expect(await mine).toMatchObject({ ok: true, result: { date: '2025-12-31' } });
    // Without an id a request cannot be cancelled, as before.
    expect(await invoke(page(1), 'portfolio.view', input)).toMatchObject({ ok: true });
    unbind();
    expect(f.listeners.size).toBe(0);
  });
});
