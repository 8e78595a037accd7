/**
 * The preload: runs sandboxed with context isolation and exposes exactly the contract's API as
 * `window.packdesk`. Nothing of Node or Electron crosses the bridge: no ipcRenderer, no channel
 * names chosen by the page.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { z } from 'zod';
import { createApi } from '../shared/ipc';
import { createIpcTransport } from './transport';

// zod compiles validators with `new Function` when it may; the page's CSP forbids eval, so use
// the interpreter outright instead of probing (the probe logs a CSP violation).
z.config({ jitless: true });

contextBridge.exposeInMainWorld('packdesk', createApi(createIpcTransport(ipcRenderer)));
