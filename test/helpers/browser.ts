import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

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

/**
 * Pushes to `errors` each uncaught error of `page` and, with `dialogs`, each dialog it opens
 * (dismissed as it comes): a test that expects `errors` empty then fails on either.
 */
export function recordErrors(page: Page, errors: string[], { dialogs = false } = {}): Page {
  page.on('pageerror', (e) => errors.push(e.message));
  if (dialogs)
    page.on('dialog', (d) => {
      errors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
  return page;
}

/** A 1280×900 page of `browser` whose errors (and, with `dialogs`, dialogs) go to `errors`. */
export async function watchedPage(browser: Browser, errors: string[], opts: { dialogs?: boolean } = {}) {
  return recordErrors(await browser.newPage({ viewport: { width: 1280, height: 900 } }), errors, opts);
}

/** Opens a page (its file, or a file: address with a #fragment) and waits until it says it is ready. */
export async function openReady(page: Page, fileOrHref: string): Promise<void> {
  await page.goto(fileOrHref.startsWith('file:') ? fileOrHref : pathToFileURL(fileOrHref).href);
  await page.waitForFunction('document.documentElement.dataset.ready === "true"');
}

/**
 * An expression for page.evaluate: every element that is cut off without a cue — it lies
 * (partly) outside the nearest ancestor that clips it, or its own content overflows a box
 * that clips it — unless that ancestor scrolls sideways and says so (`.scroll` marked with
 * `data-scroll` and its hint line shown) or the clipped text ends in an ellipsis. Each is
 * named `tag.class "text…"` (right edge vs the edge it passes). Also the page itself
 * scrolling sideways. Empty when everything fits or says it scrolls.
 */
export const CUT_OFF_WITHOUT_CUE = `(() => {
  const bad = [];
  const name = (e) => e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).join('.') : '') + ' "' + (e.textContent || '').trim().slice(0, 40) + '"';
  const cued = (box) => {
    const style = getComputedStyle(box);
    if (style.textOverflow === 'ellipsis') return true;
    if (style.overflowX !== 'auto' && style.overflowX !== 'scroll') return false;
    const hint = box.previousElementSibling;
    return Boolean(box.dataset.scroll) && Boolean(hint) && hint.classList.contains('scroll-hint') && !hint.hidden && hint.getBoundingClientRect().height > 0;
  };
  const view = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > view + 1) bad.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + view);
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const own = getComputedStyle(e);
    if (own.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1 && !cued(e) && !(e instanceof SVGElement))
      bad.push(name(e) + ' clips its own content (' + e.scrollWidth + ' > ' + e.clientWidth + ')');
    let clipper = e.parentElement;
    while (clipper && clipper !== document.body && getComputedStyle(clipper).overflowX === 'visible') clipper = clipper.parentElement;
    const box = clipper && clipper !== document.body ? clipper.getBoundingClientRect() : { left: 0, right: view };
    if (r.right <= box.right + 1 && r.left >= box.left - 1) continue;
    if (clipper && clipper !== document.body && cued(clipper)) continue;
    bad.push(name(e) + ' is cut off (' + Math.round(r.left) + '–' + Math.round(r.right) + ' outside ' + Math.round(box.left) + '–' + Math.round(box.right) + ')');
  }
  return bad;
})()`;
