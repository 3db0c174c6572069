import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, which `.ci/run` installs. */
const CHROMIUM = '/usr/bin/chromium';
/** Headless, and nothing of its own reaching the network (the pages' "no request" checks count requests). */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const available = existsSync(CHROMIUM);

/**
 * Whether a file's browser tests are skipped: locally a missing Chromium skips them (said
 * once); with CI=true they run and fail loudly in launchChromium.
 */
export const skipBrowser = !available && process.env.CI !== 'true';
if (skipBrowser)
  console.warn(
    `test/browser: skipped — ${CHROMIUM} is missing (install Debian's chromium to run these tests)`,
  );

/** Headless Chromium for a test file; in CI a missing binary is an error, never a skip. */
export async function launchChromium(): Promise<Browser> {
  if (!available) throw new Error(`CI=true but ${CHROMIUM} is missing: the browser tests cannot run`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}
