import { contextBridge } from 'electron';

/**
 * Exposes the contract's functions as `window.folio`, never `ipcRenderer` itself.
 * The contract's operations are bound here with the shells issue.
 */
contextBridge.exposeInMainWorld('folio', Object.freeze({ version: 1 }));
