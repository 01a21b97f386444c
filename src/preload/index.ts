/**
 * Exposes exactly the contract's operations as `window.folio` (each returns the result
 * envelope), and `on(event, listener)` whose return value unsubscribes. Never ipcRenderer,
 * never Node. The renderer's lib/api.ts unwraps the envelopes.
 */

import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_NAMES, IPC_EVENT, IPC_INVOKE, OPERATION_NAMES } from '../shared/operations.ts';

const api: Record<string, unknown> = {};
for (const name of OPERATION_NAMES) {
  api[name] = (input?: unknown) => ipcRenderer.invoke(IPC_INVOKE, name, input);
}
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
