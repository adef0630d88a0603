// The Electron shell of the connector: lifecycle, one window, the tray, start at login. It embeds the same
// core and page as the Windows package (../app/start-connector.ts): one program with a window instead of
// a browser tab, on the same data folder and run lock. When the installed connector already runs for
// this user, the shell shows that one's page instead of starting a second.
import path from 'node:path';
import { app, BrowserWindow, dialog, Menu, Tray, nativeImage, shell } from 'electron';
import { startConnectorService } from '../app/start-connector.js';
import { loadConnectorConfig } from '../core/index.js';
import { ConnectorAlreadyRunningError } from '../core/service/run-lock.js';
import { findRunningConnector } from '../desktop/running-connector.js';
import { registerShellIpc } from './ipc-handlers.js';
import { trayIconFile, trayTooltip } from './tray-state.js';

type Service = Awaited<ReturnType<typeof startConnectorService>>;

let mainWindow: BrowserWindow | undefined;
let tray: Tray | undefined;
let service: Service | undefined;

function assetsDir(): string {
  return app.isPackaged ? path.join(process.resourcesPath, 'assets') : path.join(__dirname, '..', '..', 'assets');
}

function showWindow(uiUrl: string): void {
  if (mainWindow && !mainWindow.isDestroyed()) {
    mainWindow.show();
    mainWindow.focus();
    return;
  }
  mainWindow = new BrowserWindow({
    width: 1100,
    height: 760,
    title: 'Ledgerwire Connector',
    webPreferences: {
      preload: path.join(__dirname, 'preload.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  const uiOrigin = new URL(uiUrl).origin;
  // Only the local UI loads in the window; any other link opens in the user's browser.
  mainWindow.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  mainWindow.webContents.on('will-navigate', (event, url) => {
    if (new URL(url).origin !== uiOrigin) event.preventDefault();
  });
  // Closing the window keeps the connector running in the tray; Quit in the tray menu ends it.
  mainWindow.on('close', (event) => {
    if (!quitting) {
      event.preventDefault();
      mainWindow?.hide();
    }
  });
  void mainWindow.loadURL(uiUrl);
}

let quitting = false;

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();
  app.setLoginItemSettings({ openAtLogin: true, args: ['--hidden'] });

  // The same data folder as `npm run connector` (LEDGERWIRE_DATA_DIR, else the user's app-data folder):
  // one connector per machine, whichever way it is started; the run lock keeps the two from running at once.
  const { dataDir } = loadConnectorConfig();
  // The page was bundled next to main.js by build/bundle-connector.mjs (the package has no esbuild).
  try {
    service = await startConnectorService({ dataDir, uiPageDir: path.join(__dirname, 'ui'), onStopRequested: () => app.quit() });
  } catch (error) {
    const running = error instanceof ConnectorAlreadyRunningError ? findRunningConnector(dataDir) : undefined;
    if (!running) throw error;
    // Only a window onto the other one's page: closing it ends this shell, not the connector.
    quitting = true;
    showWindow(running.uiUrl);
    app.on('window-all-closed', () => app.quit());
    return;
  }
  const uiUrl = service.uiUrl;
  registerShellIpc({ uiOrigin: new URL(uiUrl).origin, dataDir });

  tray = new Tray(nativeImage.createFromPath(path.join(assetsDir(), trayIconFile(service.status()))));
  const updateTray = () => {
    if (!tray || !service) return;
    const status = service.status();
    tray.setImage(nativeImage.createFromPath(path.join(assetsDir(), trayIconFile(status))));
    tray.setToolTip(trayTooltip(status));
  };
  updateTray();
  service.onStatusChange(updateTray);
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Open Ledgerwire Connector', click: () => showWindow(uiUrl) },
      { label: 'Sync now', click: () => void service?.syncNow() },
      { type: 'separator' },
      { label: 'Quit', click: () => app.quit() },
    ]),
  );
  tray.on('click', () => showWindow(uiUrl));

  app.on('second-instance', () => showWindow(uiUrl));
  app.on('window-all-closed', () => {
    // Stay alive in the tray.
  });
  app.on('before-quit', (event) => {
    if (quitting || !service) return;
    quitting = true;
    event.preventDefault();
    void service.stop().finally(() => app.exit(0));
  });

  if (!process.argv.includes('--hidden')) showWindow(uiUrl);
}

// A start that fails (another connector already runs on this data folder, say) is told in a dialog,
// not left as a tray-less process holding the single-instance lock.
main().catch((error: unknown) => {
  dialog.showErrorBox('Ledgerwire Connector could not start', error instanceof Error ? error.message : String(error));
  app.exit(1);
});
