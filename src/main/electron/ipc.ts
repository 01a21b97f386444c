import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { EVENT_NAMES, IPC_EVENT, IPC_INVOKE } from '../../shared/operations.ts';
import type { Core } from '../core/app.ts';
import { isTrustedSender } from './security.ts';

/**
 * Binds the contract to IPC: one channel for every operation (the core validates each
 * input against the contract), events sent to the window. Messages from any frame other
 * than the app's own main frame are refused before they reach the core.
 */
export function bindIpc(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, core: Core, target: () => WebContents | null, devServerUrl?: string): () => void {
  ipcMain.handle(IPC_INVOKE, async (event: IpcMainInvokeEvent, op: unknown, input: unknown) => {
    if (!isTrustedSender(event.senderFrame, devServerUrl)) {
      return { ok: false, error: { kind: 'forbidden', message: 'This page may not use Folioscope.', retryable: false } };
    }
    if (typeof op !== 'string') return { ok: false, error: { kind: 'validation', message: 'Unknown operation.', retryable: false } };
    return core.dispatch(op, input);
  });
  const unsubscribers = EVENT_NAMES.map((name) =>
    core.on(name, (payload) => {
      const contents = target();
      if (contents && !contents.isDestroyed()) contents.send(IPC_EVENT, name, payload);
    }),
  );
  return () => {
    ipcMain.removeHandler(IPC_INVOKE);
    unsubscribers.forEach((u) => u());
  };
}
