import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import { EVENT_NAMES, IPC_CANCEL, IPC_EVENT, IPC_INVOKE } from '../../shared/operations.ts';
import type { Core } from '../core/index.ts';
import { isTrustedSender } from './security.ts';

/**
 * Binds the contract to IPC: one channel for every operation (the core validates each
 * input against the contract), one for cancelling a request the page no longer needs, events
 * sent to the window. Messages from any frame other than the app's own main frame are refused
 * before they reach the core. A request with an id can be cancelled by that id from the same
 * page (VS Code's ChannelServer keeps its active requests so): the core's work stops where it
 * checks, and the answer is `cancelled`.
 */
export function bindIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler' | 'on' | 'removeListener'>,
  core: Core,
  target: () => WebContents | null,
  devServerUrl?: string,
): () => void {
  /** Requests in flight that may be cancelled, by the sending page and the page's id. */
  const active = new Map<string, AbortController>();
  const keyOf = (senderId: number, requestId: number) => `${senderId}:${requestId}`;
  ipcMain.handle(IPC_INVOKE, async (event: IpcMainInvokeEvent, op: unknown, input: unknown, requestId: unknown) => {
    if (!isTrustedSender(event.senderFrame, devServerUrl)) {
      return { ok: false, error: { kind: 'forbidden', message: 'This page may not use Folioscope.', retryable: false } };
    }
    if (typeof op !== 'string') return { ok: false, error: { kind: 'validation', message: 'Unknown operation.', retryable: false } };
    if (!Number.isSafeInteger(requestId)) return core.dispatch(op, input);
    const key = keyOf(event.sender.id, requestId as number);
    const controller = new AbortController();
    active.set(key, controller);
    try {
      return await core.dispatch(op, input, { signal: controller.signal });
    } finally {
      if (active.get(key) === controller) active.delete(key);
    }
  });
  const cancel = (event: IpcMainEvent, requestId: unknown) => {
    if (!isTrustedSender(event.senderFrame, devServerUrl) || !Number.isSafeInteger(requestId)) return;
    active.get(keyOf(event.sender.id, requestId as number))?.abort();
  };
  ipcMain.on(IPC_CANCEL, cancel);
  const unsubscribers = EVENT_NAMES.map((name) =>
    core.on(name, (payload) => {
      const contents = target();
      if (contents && !contents.isDestroyed()) contents.send(IPC_EVENT, name, payload);
    }),
  );
  return () => {
    ipcMain.removeHandler(IPC_INVOKE);
    ipcMain.removeListener(IPC_CANCEL, cancel);
    for (const c of active.values()) c.abort();
    unsubscribers.forEach((u) => u());
  };
}
