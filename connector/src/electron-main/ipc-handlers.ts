// Validated IPC: a handler runs only for a known channel, from a frame of the local UI's origin,
// with a payload that matches the channel's schema. Anything else is refused and logged.
import { app, ipcMain, shell, type IpcMainInvokeEvent } from 'electron';
import { shellIpcChannels, type ShellInfo, type ShellIpcChannel } from './ipc-contract.js';

function handleValidated<C extends ShellIpcChannel>(
  channel: C,
  uiOrigin: string,
  handler: (...args: never[]) => unknown,
): void {
  ipcMain.handle(channel, (event: IpcMainInvokeEvent, ...args: unknown[]) => {
    const senderUrl = event.senderFrame?.url ?? '';
    if (!senderUrl.startsWith(`${uiOrigin}/`)) throw new Error(`IPC ${channel} refused: unexpected sender`);
    const parsed = shellIpcChannels[channel].safeParse(args);
    if (!parsed.success) throw new Error(`IPC ${channel} refused: invalid payload`);
    return (handler as (...a: unknown[]) => unknown)(...(parsed.data as unknown[]));
  });
}

/** `dataDir`: the connector's data folder (not Electron's userData, which keeps the window's caches). */
export function registerShellIpc(options: { uiOrigin: string; dataDir: string }): void {
  const { dataDir } = options;
  handleValidated('shell:get-info', options.uiOrigin, (): ShellInfo => ({
    version: app.getVersion(),
    startAtLogin: app.getLoginItemSettings().openAtLogin,
    dataDir,
  }));
  handleValidated('shell:set-start-at-login', options.uiOrigin, (input: { enabled: boolean }) => {
    app.setLoginItemSettings({ openAtLogin: input.enabled, args: ['--hidden'] });
    return app.getLoginItemSettings().openAtLogin;
  });
  handleValidated('shell:open-data-folder', options.uiOrigin, () => shell.openPath(dataDir));
}
