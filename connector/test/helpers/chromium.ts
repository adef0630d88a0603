// The connector page suites' one way to start Debian's Chromium, headless, with the flags this machine's
// closed network needs (without --disable-background-networking it keeps dialling Google's hosts).
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}
