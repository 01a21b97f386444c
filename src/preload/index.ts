/**
 * Exposes exactly the contract's operations as `window.folio` (each returns the result
 * envelope), `on(event, listener)` whose return value unsubscribes, and `cancel(id)` for a
 * request made with that id that the page no longer needs. Never ipcRenderer, never Node.
 * The renderer's lib/api.ts unwraps the envelopes.
 */

import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_NAMES, IPC_CANCEL, IPC_EVENT, IPC_INVOKE, OPERATION_NAMES } from '../shared/operations.ts';

const api: Record<string, unknown> = {};
for (const name of OPERATION_NAMES) {
  api[name] = (input?: unknown, requestId?: number) => ipcRenderer.invoke(IPC_INVOKE, name, input, requestId);
}
// Only a number crosses: the main process keys it to this page's own requests.
api['cancel'] = (requestId: number) => {
  if (Number.isSafeInteger(requestId)) ipcRenderer.send(IPC_CANCEL, requestId);
};
api['on'] = (event: string, listener: (payload: unknown) => void) => {
  if (!(EVENT_NAMES as readonly string[]).includes(event)) throw new Error(`Unknown event "${event}"`);
  const handler = (_e: IpcRendererEvent, name: string, payload: unknown) => {
    if (name === event) listener(payload);
  };
  ipcRenderer.on(IPC_EVENT, handler);
  return () => {
    ipcRenderer.removeListener(IPC_EVENT, handler);
  };
};

contextBridge.exposeInMainWorld('folio', Object.freeze(api));
