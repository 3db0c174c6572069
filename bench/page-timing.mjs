// How long a report.html takes to become interactive in headless Chromium (Debian's
// /usr/bin/chromium, as in the tests): the page's own performance marks, from file://.
/* global performance */
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

/**
 * Opens `file` and waits for the page's `driftcheck:ready` mark. Returns the mark's time after
 * navigation start and the page script's own share, in ms, with the open page for more checks.
 */
export async function openReportPage(browser, file, { timeout = 300_000 } = {}) {
  const page = await browser.newPage();
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => performance.getEntriesByName('driftcheck:ready').length > 0, null, {
    timeout,
  });
  const timing = await page.evaluate(() => {
    const at = (name) => performance.getEntriesByName(name)[0].startTime;
    return { ready: at('driftcheck:ready'), script: at('driftcheck:ready') - at('driftcheck:start') };
  });
  return { page, readyMs: timing.ready, scriptMs: timing.script };
}

/** Time to interactive of one page, in a browser of its own. */
export async function timeToInteractive(file, { executablePath = '/usr/bin/chromium' } = {}) {
  const browser = await chromium.launch({ executablePath });
  try {
    const { readyMs, scriptMs } = await openReportPage(browser, file);
    return { readyMs, scriptMs };
  } finally {
    await browser.close();
  }
}
