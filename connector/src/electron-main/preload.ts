// Exposes the shell's few IPC calls to the local UI, and nothing else (contextIsolation on).
import { contextBridge, ipcRenderer } from 'electron';

contextBridge.exposeInMainWorld('ledgerwireShell', {
  getInfo: () => ipcRenderer.invoke('shell:get-info'),
  setStartAtLogin: (enabled: boolean) => ipcRenderer.invoke('shell:set-start-at-login', { enabled }),
  openDataFolder: () => ipcRenderer.invoke('shell:open-data-folder'),
});
