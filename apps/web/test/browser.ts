import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

/** Debian's Chromium (installed by .ci/run); nothing is downloaded at run time. */
export const CHROMIUM = process.env.AIBUDDY_CHROMIUM ?? '/usr/bin/chromium';

/** Where the tests keep their screenshots (a CI artifact folder, named in the README). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** The built client the server serves (root `pnpm test` builds it first). */
export const BUILT_CLIENT = fileURLToPath(new URL('../dist/client/', import.meta.url));

/** Why the browser tests cannot run here, or undefined when they can. In CI they must run. */
export function browserSkipReason(): string | undefined {
  if (process.env.CI) return undefined;
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (apt-get install chromium, or set AIBUDDY_CHROMIUM)`;
  if (!existsSync(join(BUILT_CLIENT, 'index.html'))) return 'the client is not built (pnpm build)';
  return undefined;
}

/** Headless Chromium with the flags this machine needs (no sandbox as root, no background traffic). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Path of a screenshot, creating the folder. */
export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, `${name}.png`);
}
