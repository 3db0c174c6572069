// How usable a large report.html is: time to interactive and a search by id, in headless
// Chromium (Debian's /usr/bin/chromium, as in the tests). Not part of `npm run bench`.
// Usage: node bench/html-usability.mjs reports/<run-id>/report.html [--find CASE_ID]
/* global document, performance -- the page functions run in Chromium */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { openReportPage } from './page-timing.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { find: { type: 'string' }, chromium: { type: 'string', default: '/usr/bin/chromium' } },
});
if (positionals.length !== 1)
  throw new Error('usage: node bench/html-usability.mjs REPORT.html [--find CASE_ID]');
const file = resolve(positionals[0]);
const browser = await chromium.launch({ executablePath: values.chromium });
try {
  const { page, readyMs, scriptMs } = await openReportPage(browser, file);
  const timing = { ready: readyMs, script: scriptMs };
  const shown = await page.textContent('#count');
  // The last case id on the page unless one is named: the search has to scan everything.
  const find =
    values.find ??
    (await page.evaluate(
      () => JSON.parse(document.getElementById('report-data').textContent).cases.at(-1).id,
    ));
  const started = performance.now();
  await page.fill('#q', find);
  await page.waitForFunction(
    (id) => [...document.querySelectorAll('details.case summary')].some((s) => s.textContent.includes(id)),
    find,
    { timeout: 60_000 },
  );
  const searchMs = performance.now() - started;
  const mib = (await stat(file)).size / 2 ** 20;
  console.log(
    `${file}: ${mib.toFixed(1)} MiB; ${shown} ` +
      `interactive ${timing.ready.toFixed(0)} ms after navigation start (page script ${timing.script.toFixed(0)} ms); ` +
      `search for ${find}: ${searchMs.toFixed(0)} ms (120 ms debounce included)`,
  );
} finally {
  await browser.close();
}
