// The two IPC channels that carry the UI contract between Electron's main process and the preload.

/** Renderer → main through `ipcRenderer.invoke(IPC_INVOKE, name, request)`; answered with an InvokeResult. */
export const IPC_INVOKE = 'mch:invoke';

/** Main → renderer through `webContents.send(IPC_EVENT, name, payload)`: one event of the contract. */
export const IPC_EVENT = 'mch:event';
