// Opens the connector's local page in the person's own browser, as a desktop program does: Windows'
// URL handler (rundll32 url.dll — ShellExecute, no console window), `open` on macOS, `xdg-open` elsewhere;
// or the program LEDGERWIRE_BROWSER names (the Wine suite records the address with one).
import { spawn } from 'node:child_process';

export type OpenPageOptions = Readonly<{ platform?: NodeJS.Platform; browser?: string | null }>;

function command(url: string, options: OpenPageOptions): readonly [string, readonly string[]] {
  const platform = options.platform ?? process.platform;
  if (options.browser) {
    // A .cmd or .bat runs only through cmd.exe (Node refuses to start one directly).
    if (platform === 'win32' && /\.(cmd|bat)$/i.test(options.browser)) return ['cmd.exe', ['/d', '/c', options.browser, url]];
    return [options.browser, [url]];
  }
  if (platform === 'win32') return ['rundll32.exe', ['url.dll,FileProtocolHandler', url]];
  if (platform === 'darwin') return ['open', [url]];
  return ['xdg-open', [url]];
}

/** Starts the browser on `url` and resolves once it was started (not when the page loads). */
export function openPage(url: string, options: OpenPageOptions = {}): Promise<void> {
  const [file, args] = command(url, options);
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...args], { detached: true, stdio: 'ignore', windowsHide: true });
    child.once('error', (error) => reject(new Error(`could not open the page with ${file}: ${error.message}; open ${url} in a browser`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
